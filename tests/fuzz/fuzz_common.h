/* fuzz_common.h — shared pieces of the libFuzzer harnesses (tests/fuzz/).
 *
 * Every harness aborts (which libFuzzer reports as a crash, with the input
 * saved) on any broken promise of the C API: invariants after a step, an
 * illegal action that changed state, a round trip that changed the hash. */
#ifndef AZK_FUZZ_COMMON_H
#define AZK_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "../c/azk_cardset_env.h" /* $AZK_CARDSET: fuzz any card set */

#define FUZZ_REQUIRE(cond)                                                        \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                              \
        }                                                                         \
    } while (0)

static inline uint64_t fuzz_mix(uint64_t *s) { /* splitmix64: the harness's own choices */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Play up to `steps` uniform-random legal actions, checking invariants, the
 * mask/list agreement and the step status after each one. */
static inline void fuzz_play(azk_game *g, const azk_cardset *cs, uint64_t seed, int steps) {
    static int32_t legal[AZK_NUM_ACTIONS_];
    static uint8_t mask[AZK_NUM_ACTIONS_];
    for (int i = 0; i < steps && !azk_is_terminal(g); i++) {
        int n = azk_legal_actions(g, cs, legal, AZK_NUM_ACTIONS_);
        FUZZ_REQUIRE(n >= 1);
        FUZZ_REQUIRE(azk_legal_mask(g, cs, mask) == n);
        int a = legal[fuzz_mix(&seed) % (uint64_t)n];
        FUZZ_REQUIRE(mask[a] == 1);
        azk_status st = azk_step(g, cs, a);
        FUZZ_REQUIRE(st == AZK_OK || st == AZK_ERR_LIMIT);
        FUZZ_REQUIRE(azk_check_invariants(g, cs) == 0);
    }
}

#endif
