/* soak.c — the sanitizer soak (make soak): random legal play with both decks
 * and mirrors (every deck pairing of the set: the default, or $AZK_CARDSET,
 * tests/c/azk_cardset_env.h) until N decisions (argv[1], default 1,000,000), built with
 * ASan + UBSan + LeakSanitizer. After every step: the invariant checker
 * (card conservation, capacities, attachments, IKZ counts, token, prompt and
 * phase consistency, the legal-action cache), and every 64 steps the mask
 * against the list and a serialize/deserialize round trip. Any report or
 * failed check ends the run non-zero. Not named test_*.c: it is long. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "azk_cardset_env.h"
#include "game.h"

static uint64_t xs(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(int argc, char **argv) {
    long long target = argc > 1 ? atoll(argv[1]) : 1000000;
    const azk_cardset *cs = azk_env_cardset();
    static azk_game g, back;
    static int32_t legal[AZK_NUM_ACTIONS_];
    static uint8_t mask[AZK_NUM_ACTIONS_], bytes[8192];
    long long decisions = 0, games = 0, failures = 0;
    uint64_t rs = 0x50A4C0FFEEULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (decisions < target && failures == 0) {
        int d0, d1;
        azk_env_pairing(cs, games, &d0, &d1);
        if (azk_game_init(&g, cs, (uint64_t)games * 7919u + 1u, d0, d1) != AZK_OK) failures++;
        games++;
        while (!azk_is_terminal(&g) && failures == 0) {
            int n = azk_legal_actions(&g, cs, legal, AZK_NUM_ACTIONS_);
            if (n < 2) { fprintf(stderr, "game %lld: %d legal actions\n", games, n); failures++; break; }
            if (decisions % 64 == 0) {
                if (azk_legal_mask(&g, cs, mask) != n) failures++;
                for (int i = 0; i < n; i++) failures += mask[legal[i]] != 1;
                size_t len = azk_serialize(&g, cs, bytes, sizeof bytes);
                if (!len || azk_deserialize(&back, cs, bytes, len) != AZK_OK || azk_hash(&back) != azk_hash(&g)) failures++;
            }
            azk_status st = azk_step(&g, cs, legal[xs(&rs) % (uint64_t)n]);
            if (st != AZK_OK) { fprintf(stderr, "game %lld: step status %d\n", games, st); failures++; }
            int inv = azk_check_invariants(&g, cs);
            if (inv) { fprintf(stderr, "game %lld: invariant %d\n", games, inv); failures++; }
            decisions++;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("soak: %lld decisions, %lld games, %d decks, %.1f s, %lld failures\n", decisions, games, cs->num_decks, dt,
           failures);
    return failures ? 1 : 0;
}
