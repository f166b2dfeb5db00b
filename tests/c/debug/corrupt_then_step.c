/* corrupt_then_step.c — used by tests/test_debug_build.py: writes a state
 * that breaks an invariant (two hand cards swapped without their records:
 * -33, HAND_LIST), then steps. A debug build (-DAZK_DEBUG) must stop in azk_step with an
 * assertion; a release build runs on silently. */
#include <stdio.h>

#include "game.h"

int main(void) {
    static azk_game g;
    const azk_cardset *cs = azk_default_cardset();
    if (azk_game_init(&g, cs, 7, 0, 1) != AZK_OK) return 2;
    int32_t legal[AZK_NUM_ACTIONS_];
    if (azk_legal_actions(&g, cs, legal, AZK_NUM_ACTIONS_) < 1) return 3;
    uint8_t t = g.pl[0].hand[0]; /* written directly: the records still say otherwise */
    g.pl[0].hand[0] = g.pl[0].hand[1];
    g.pl[0].hand[1] = t;
    azk_step(&g, cs, legal[0]);
    printf("stepped\n");
    return 0;
}
