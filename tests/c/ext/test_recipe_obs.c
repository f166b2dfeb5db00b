/* test_recipe_obs.c — built only by tests/test_extending.py, in a copy of
 * the tree where docs/extending.md's "Adding an observation field" was
 * followed: a test-only field TESTOBS (2 rows: my and the opponent's hand
 * size, NUM) declared in azk_obs.def before MASK and written in obs.c.
 * Prints "ok" when the field is reported by azk_obs_field* and holds the
 * hand sizes, and the fields after it moved by its size. */
#include <stdio.h>
#include <string.h>

#include "ext_check.h"
#include "game.h"

static azk_game G;
static uint8_t O[2048];

int main(void) {
    const azk_cardset *cs = azk_default_cardset();
    int f = -1, mask = -1;
    for (int i = 0; azk_obs_field_name(i); i++) {
        if (!strcmp(azk_obs_field_name(i), "TESTOBS")) f = i;
        if (!strcmp(azk_obs_field_name(i), "MASK")) mask = i;
    }
    CHECK(f >= 0 && mask == f + 1);
    int off, rows, cols, kind, n, moff, mrows, mcols, mkind, mn;
    CHECK(azk_obs_field(f, &off, &rows, &cols, &kind, &n) == 0);
    CHECK(rows == 2 && cols == 1 && kind == AZK_OBSK_NUM && n == AZK_HAND_CAP);
    CHECK(azk_obs_field(mask, &moff, &mrows, &mcols, &mkind, &mn) == 0 && moff == off + 2);
    CHECK(azk_obs_len() % 8 == 0 && azk_obs_len() <= (int)sizeof O);
    CHECK(azk_game_init(&G, cs, 3, 0, 1) == AZK_OK);
    uint64_t rng[2];
    azk_bot_seed(rng, 9);
    for (int step = 0; step < 300 && !azk_is_terminal(&G); step++) {
        for (int me = 0; me < 2; me++) {
            CHECK(azk_observe(&G, cs, me, O) == azk_obs_len());
            CHECK(O[off] == G.pl[me].hand_n && O[off + 1] == G.pl[1 - me].hand_n);
        }
        int a = azk_bot_act(&G, cs, AZK_BOT_RANDOM, rng);
        CHECK(a >= 0 && azk_step(&G, cs, a) == AZK_OK);
    }
    printf("ok\n");
    return 0;
}
