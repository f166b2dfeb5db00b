/* test_recipe_param.c — built only by tests/test_extending.py, in a copy of
 * the tree where docs/extending.md's "Adding an action parameter kind" was
 * followed: a test-only kind TESTKIND (an index into the acting player's
 * discard pile) with its AZK_ACTION_PARAM_READ line (actions.c's
 * param_card reads it: no C code for the kind), used by a test-only action
 * type TEST_PICK that is never legal. Prints "ok" when azk_describe resolves the new kind to the
 * card standing there. */
#include <stdio.h>

#include "ext_check.h"
#include "game.h"

enum {
#define AZK_ACTION_PARAM(name, doc) KIND_##name,
#include "azk_actions.def"
#undef AZK_ACTION_PARAM
    KIND_COUNT_
};

static azk_game G;

int main(void) {
    const azk_cardset *cs = azk_default_cardset();
    CHECK(AZK_ACT_TEST_PICK == AZK_ACT_COUNT - 1 && KIND_TESTKIND == KIND_COUNT_ - 1);
    CHECK(azk_game_init(&G, cs, 11, 0, 1) == AZK_OK);
    uint64_t rng[2];
    azk_bot_seed(rng, 5);
    int32_t d[AZK_DESCRIBE_LEN];
    int checked = 0;
    for (int step = 0; step < 4000 && !azk_is_terminal(&G) && checked < 20; step++) {
        int me = azk_current_player(&G);
        const azk_player *pl = &G.pl[me];
        for (int i = 0; i < pl->discard_n && i < AZK_DISCARD_CAP; i++) {
            int a = azk_encode(AZK_ACT_TEST_PICK, i, 0);
            CHECK(a >= 0 && azk_describe(&G, cs, a, d) == 0);
            CHECK(d[0] == AZK_ACT_TEST_PICK && d[1] == i && d[3] == KIND_TESTKIND && d[4] == KIND_NONE);
            CHECK(d[5] == me && d[6] == pl->discard[i] && d[7] == -1);
            checked++;
        }
        int a = azk_bot_act(&G, cs, AZK_BOT_RANDOM, rng);
        CHECK(a >= 0 && azk_step(&G, cs, a) == AZK_OK);
    }
    CHECK(checked > 0);
    /* past the pile: no card */
    int a = azk_encode(AZK_ACT_TEST_PICK, AZK_DISCARD_CAP - 1, 0);
    CHECK(azk_describe(&G, cs, a, d) == 0 && (G.pl[d[5]].discard_n == AZK_DISCARD_CAP || d[6] == -1));
    printf("ok\n");
    return 0;
}
