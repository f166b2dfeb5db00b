/* test_recipe_bot.c — built only by tests/test_extending.py, in a copy of
 * the tree where docs/extending.md's "Adding a bot" was followed: a
 * test-only bot "first" (always the first legal action) numbered after the
 * built-in ones in azuki.h, named and versioned in bot.c and answered by
 * bot_act. Prints "ok" when it is listed, plays a whole game legally and
 * deterministically. */
#include <stdio.h>
#include <string.h>

#include "ext_check.h"
#include "game.h"

static azk_game G;

int main(void) {
    const azk_cardset *cs = azk_default_cardset();
    CHECK(AZK_BOT_FIRST == AZK_BOT_COUNT - 1 && azk_bot_num_kinds() == AZK_BOT_COUNT);
    CHECK(azk_bot_name(AZK_BOT_FIRST) && !strcmp(azk_bot_name(AZK_BOT_FIRST), "first"));
    CHECK(azk_bot_version(AZK_BOT_FIRST) == 1);
    CHECK(azk_game_init(&G, cs, 21, 0, 1) == AZK_OK);
    uint64_t rng[2];
    azk_bot_seed(rng, 1);
    int32_t legal[AZK_NUM_ACTIONS_];
    int steps = 0;
    while (!azk_is_terminal(&G) && steps < 20000) {
        int n = azk_legal_actions(&G, cs, legal, AZK_NUM_ACTIONS_);
        int a = azk_bot_act(&G, cs, AZK_BOT_FIRST, rng);
        CHECK(n > 0 && a == legal[0]);
        CHECK(azk_step(&G, cs, a) == AZK_OK);
        steps++;
    }
    CHECK(azk_is_terminal(&G));
    printf("ok\n");
    return 0;
}
