/* bench_engine.c — engine-only speed: random legal self-play.
 *
 * Each run plays GAMES games (seats and deck pairings rotating) with a
 * uniform-random legal policy: per decision one azk_legal_actions call (what
 * an agent needs to act) plus one azk_step. Reports decisions/s and games/s,
 * plus clone and hash cost, as the median of RUNS runs, side by side in one
 * process. Usage: bench_engine [games_per_run] [runs]; $AZK_CARDSET: another
 * card set (make bench CARDS=FILE.json), every deck pairing in turn.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "game.h"
#include "../tests/c/azk_cardset_env.h"
#include "bench_util.h"


int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 20000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    const azk_cardset *cs = azk_env_cardset(); /* $AZK_CARDSET: any card set */
    static azk_game g, c;
    int32_t legal[4096];
    double dps[64], gps[64], clone_ns[64], hash_ns[64], mask_ns[64];
    uint8_t mask[4096];
    if (runs > 64) runs = 64;
    uint64_t sink = 0;
    for (int r = 0; r < runs; r++) {
        uint64_t rs = 0x9E3779B97F4A7C15ULL * (uint64_t)(r + 1);
        long decisions = 0;
        double t0 = now();
        for (int i = 0; i < games; i++) {
            int d0, d1; /* every deck pairing (the default set: i & 1, (i >> 1) & 1) */
            azk_env_pairing(cs, i, &d0, &d1);
            azk_game_init(&g, cs, (uint64_t)r * 1000003u + (uint64_t)i, d0, d1);
            while (!azk_is_terminal(&g)) {
                int n = azk_legal_actions(&g, cs, legal, 4096);
                rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
                azk_step(&g, cs, legal[(uint32_t)(rs >> 32) % (uint32_t)n]);
                decisions++;
            }
        }
        double dt = now() - t0;
        dps[r] = decisions / dt;
        gps[r] = games / dt;
        int reps = getenv("AZK_BENCH_REPS") ? atoi(getenv("AZK_BENCH_REPS")) : 200000;
        t0 = now();
        for (int i = 0; i < reps; i++) { azk_game_clone(&c, &g); sink += c.turn; }
        clone_ns[r] = (now() - t0) / reps * 1e9;
        t0 = now();
        for (int i = 0; i < reps; i++) { g.turn ^= (uint16_t)i; sink += azk_hash(&g); }
        hash_ns[r] = (now() - t0) / reps * 1e9;
        azk_game_init(&g, cs, 1, 0, 1);
        t0 = now();
        for (int i = 0; i < reps; i++) sink += (uint64_t)azk_legal_mask(&g, cs, mask);
        mask_ns[r] = (now() - t0) / reps * 1e9;
    }
    printf("azuki engine benchmark: %d runs x %d games, medians\n", runs, games);
    printf("  decisions/s        %12.0f\n", median(dps, runs));
    printf("  games/s            %12.0f\n", median(gps, runs));
    printf("  decisions/game     %12.1f\n", median(dps, runs) / median(gps, runs));
    printf("  state size (bytes) %12zu  (hashed/serialized part %zu)\n", sizeof(azk_game), (size_t)AZK_HASHED_BYTES);
    printf("  clone ns/call      %12.1f\n", median(clone_ns, runs));
    printf("  hash ns/call       %12.1f\n", median(hash_ns, runs));
    printf("  flat mask ns/call  %12.1f\n", median(mask_ns, runs));
    return sink == 42 ? 1 : 0;
}
