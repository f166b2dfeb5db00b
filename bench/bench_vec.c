/* bench_vec.c — VecGame's C loop (csrc/vec.c) with 1 and with k threads, side
 * by side in one process: self-play, n games, observations + the masks buffer,
 * observations alone (the packed mask inside them: what AzukiEnv asks for) and
 * masks only, actions drawn from each acting game's legal-action list as the
 * engine loop draws them. The picker and the step are timed apart, so the
 * step's own rate (agent-steps/s: applied decisions) and the threads' speed-up
 * are read without the picker. It also prints the process CPU time per
 * agent-step of the step (all threads): equal CPU per step at 1 and k threads
 * means the pool costs little, so the speed-up is bounded by free cores, not
 * by the pool; where no second core is free (a shared machine), the wall
 * clock ratio cannot show it. Usage: bench_vec [n] [steps] [runs] [k]
 * (default 1024 200 5 2): medians of `runs` alternating runs.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "azuki.h"
#include "bench_util.h"


/* agent-steps/s of the step alone (the picker's time left out) */
static double run(const azk_cardset *cs, int n, int steps, int threads, int obs_on, int masks_on, double *pick_s,
                  double *cpu_ns) {
    static const int32_t pairs[2] = {0, 1};
    azk_vec *v = malloc(azk_vec_size(n));
    if (!v || azk_vec_init(v, cs, n, 1, AZK_VEC_SELF, 0, pairs, 1) != AZK_OK) exit(1);
    azk_vec_set_obs(v, AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL);
    if (azk_vec_set_threads(v, threads) != AZK_OK) exit(1);
    int rows = azk_vec_rows(v), na = azk_num_actions();
    uint8_t *obs = obs_on ? malloc((size_t)rows * (size_t)azk_obs_len()) : NULL;
    uint8_t *masks = masks_on ? malloc((size_t)rows * (size_t)na) : NULL;
    uint8_t *term = malloc((size_t)rows), *trunc = malloc((size_t)rows);
    float *rew = malloc(sizeof(float) * (size_t)rows);
    int32_t *act = calloc((size_t)rows, sizeof(int32_t)), legal[4096];
    azk_vec_observe(v, cs, obs, masks, NULL);
    uint64_t x = 88172645463325252ULL;
    long long applied = 0;
    double t_step = 0, t_pick = 0, t_cpu = 0;
    for (int s = 0; s < steps; s++) {
        double t0 = now();
        for (int i = 0; i < n; i++) {
            const azk_game *g = azk_vec_game(v, i);
            int p = azk_current_player(g), cnt = azk_legal_actions(g, cs, legal, 4096);
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            act[2 * i] = act[2 * i + 1] = 0;
            act[2 * i + p] = legal[x % (uint64_t)cnt];
            applied++;
        }
        double t1 = now(), c1 = bench_clock(CLOCK_PROCESS_CPUTIME_ID);
        azk_vec_step(v, cs, act, obs, masks, rew, term, trunc, NULL);
        t_step += now() - t1;
        t_cpu += bench_clock(CLOCK_PROCESS_CPUTIME_ID) - c1;
        t_pick += t1 - t0;
    }
    azk_vec_set_threads(v, 1);
    free(v), free(obs), free(masks), free(term), free(trunc), free(rew), free(act);
    *pick_s = applied / t_pick;
    *cpu_ns = 1e9 * t_cpu / (double)applied;
    return applied / t_step;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024, steps = argc > 2 ? atoi(argv[2]) : 200;
    int runs = argc > 3 ? atoi(argv[3]) : 5, k = argc > 4 ? atoi(argv[4]) : 2;
    if (n < 1 || steps < 1 || runs < 1 || runs > 64 || k < 2 || k > AZK_VEC_MAX_THREADS) return 2;
    const azk_cardset *cs = azk_default_cardset();
    /* obs + masks buffer, obs alone (packed mask inside), masks only */
    static const int obs_of[3] = {1, 1, 0}, masks_of[3] = {1, 0, 1};
    static const char *name_of[3] = {"obs+masks", "obs (mask in)", "masks only"};
    for (int m = 0; m < 3; m++) {
        double r1[64], rk[64], ratio[64], c1[64], ck[64], pick = 0;
        for (int r = 0; r < runs; r++) { /* alternating, so load drifts hit both */
            r1[r] = run(cs, n, steps, 1, obs_of[m], masks_of[m], &pick, &c1[r]);
            rk[r] = run(cs, n, steps, k, obs_of[m], masks_of[m], &pick, &ck[r]);
            ratio[r] = rk[r] / r1[r];
        }
        printf("self-play n=%d %-14s step alone: threads=1 %10.0f  threads=%d %10.0f agent-steps/s  "
               "ratio %.2f (median of per-run ratios)  picker %.0f/s\n",
               n, name_of[m], median(r1, runs), k, median(rk, runs), median(ratio, runs), pick);
        printf("    CPU per agent-step of the step (all threads): threads=1 %.0f ns, threads=%d %.0f ns\n",
               median(c1, runs), k, median(ck, runs));
    }
    return 0;
}
