#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "azuki.h"
#include "game.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
/* usage: tune games sims explore depth budget [seed] [opp] */
int main(int argc,char**argv){
  const azk_cardset*cs=azk_default_cardset();
  int games=atoi(argv[1]); azk_search_params p; azk_search_defaults(&p);
  p.sims=atoi(argv[2]); p.explore_milli=atoi(argv[3]); p.rollout_depth=atoi(argv[4]); p.rollout_budget=atoi(argv[5]);
  uint64_t seed=argc>6?strtoull(argv[6],0,10):0; int opp=argc>7?atoi(argv[7]):AZK_BOT_GREEDY;
  static azk_game g; int wins=0,losses=0; long sdec=0; double st=0;
  for(int i=0;i<games;i++){
    int deal=i/2, aseat=i%2, pr=deal%4; int da=pr&1, db=pr>>1;
    int d0=aseat?db:da, d1=aseat?da:db;
    azk_game_init(&g,cs,seed+deal,d0,d1);
    int kinds[2]; kinds[aseat]=AZK_BOT_SEARCH; kinds[1-aseat]=opp;
    uint64_t rng[4]; azk_bot_seed(rng,seed*1000+i*2); azk_bot_seed(rng+2,seed*1000+i*2+1);
    while(!azk_is_terminal(&g)){
      int q=azk_current_player(&g); int a;
      if(kinds[q]==AZK_BOT_SEARCH){double t0=now(); a=azk_bot_act_search(&g,cs,rng+2*q,&p); st+=now()-t0; sdec++;}
      else a=azk_bot_act(&g,cs,kinds[q],rng+2*q);
      if(a<0||azk_step(&g,cs,a)!=AZK_OK){printf("ERR\n");return 1;}
    }
    int w=azk_winner(&g); if(w==aseat)wins++; else if(w>=0)losses++;
  }
  printf("sims=%d c=%d depth=%d budget=%d: %d games search %d wins %d losses (%.1f%%), %.2f ms/decision (%ld)\n",
    p.sims,p.explore_milli,p.rollout_depth,p.rollout_budget,games,wins,losses,100.0*wins/games,1e3*st/sdec,sdec);
  return 0;
}
