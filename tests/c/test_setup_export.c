/* test_setup_export.c — the public position API (azuki.h): azk_export and
 * azk_game_setup, through the public functions only. Under `make asan` this
 * is the memory-safety check for hostile plans: random words of a valid plan
 * replaced by hostile values must be refused (game byte-for-byte unchanged)
 * or give a position the invariant checker accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "azk_test.h"
#include "azuki.h"

static uint32_t rnd_state = 12345;
static uint32_t rnd(void) {
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return rnd_state >> 8;
}

static int field_off(int (*field)(int, int *, int *), const char *(*name)(int), int n, const char *want, int *count) {
    if (count) *count = 0;
    for (int i = 0; i < n; i++) {
        int off, cnt;
        if (field(i, &off, &cnt) == 0 && strcmp(name(i), want) == 0) {
            if (count) *count = cnt;
            return off;
        }
    }
    return -1;
}
#define XO(nm, cnt) field_off(azk_export_field, azk_export_field_name, azk_export_num_fields(), nm, cnt)
#define PO(nm, cnt) field_off(azk_plan_field, azk_plan_field_name, azk_plan_num_fields(), nm, cnt)

/* a main-phase game after some random play */
static azk_game *main_game(const azk_cardset *cs, uint64_t seed, int steps) {
    azk_game *g = malloc(azk_game_size());
    azk_game_init(g, cs, seed, 0, 1);
    int32_t legal[4096];
    for (int i = 0; (i < steps || azk_phase(g) != 1 /* MAIN (azk_enums.def) */) && !azk_is_terminal(g) && i < 5000; i++) {
        int n = azk_legal_actions(g, cs, legal, 4096);
        azk_step(g, cs, legal[rnd() % (unsigned)n]);
    }
    return g;
}

/* the plan of an exported main-phase position */
static void plan_of(const int32_t *x, int32_t *w) {
    int ps = azk_plan_size();
    for (int i = 0; i < ps; i++) w[i] = -1;
    static const char *same[] = {"TURN", "ACTIVE", "FIRST_PLAYER", "TURN_CAP", "DECISION_CAP", "CARD_DEF",
                                 "CARD_ZONE", "CARD_FLAGS", "CARD_DAMAGE", "CARD_ONCE_USED", "CARD_HOLDER", "CARD_SEEN",
                                 "PLAYED_ENTITIES", "DECK_N", "HAND_N", "DISCARD_N", "WEAPONS_N", "IKZ_AREA_N",
                                 "IKZ_PILE_N", "DECK", "HAND", "DISCARD", "WEAPONS", "IKZ_AREA", "IKZ_PILE",
                                 "GARDEN", "ALLEY"};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
        int cx = -1, cp = 0;
        int xo = XO(same[k], &cx), po = PO(same[k], &cp);
        AZK_CHECK(xo >= 0 && po >= 0 && cx == cp);
        memcpy(w + po, x + xo, sizeof(int32_t) * (size_t)cp);
    }
    w[PO("VERSION", NULL)] = azk_plan_version();
    int nfx = 0, live = 0;
    int fxn = x[XO("EFFECTS_N", NULL)];
    static const char *fx[] = {"FX_CARD", "FX_KIND", "FX_DURATION", "FX_CREATOR", "FX_AMOUNT", "FX_STATUS"};
    XO("FX_CARD", &nfx);
    for (int i = 0; i < fxn; i++) {
        if (!x[XO("FX_LIVE", NULL) + i]) continue;
        for (int k = 0; k < 6; k++) w[PO(fx[k], NULL) + live] = x[XO(fx[k], NULL) + i];
        live++;
    }
    w[PO("EFFECTS_N", NULL)] = live;
}

static void test_export_and_setup_round_trip(void) {
    const azk_cardset *cs = azk_default_cardset();
    int xs = azk_export_size(), ps = azk_plan_size();
    int32_t *x = malloc(sizeof(int32_t) * (size_t)xs), *y = malloc(sizeof(int32_t) * (size_t)xs);
    int32_t *w = malloc(sizeof(int32_t) * (size_t)ps);
    for (int seed = 1; seed <= 20; seed++) {
        azk_game *g = main_game(cs, (uint64_t)seed, 30 + seed);
        if (azk_is_terminal(g)) { free(g); continue; }
        AZK_CHECK(azk_export(g, cs, x, xs) == xs);
        AZK_CHECK(x[0] == azk_export_version() && x[1] == xs);
        plan_of(x, w);
        azk_game *h = malloc(azk_game_size());
        azk_game_init(h, cs, 99, 1, 0);
        int detail = 7;
        azk_status st = azk_game_setup(h, cs, w, (size_t)ps, &detail);
        int look = 0;
        for (int p = 0; p < 2; p++) look += x[XO("LOOK_N", NULL) + p];
        if (look == 0) {
            AZK_CHECK(st == AZK_OK && detail == 0);
            AZK_CHECK(azk_check_invariants(h, cs) == 0);
            AZK_CHECK(azk_export(h, cs, y, xs) == xs);
            int cnt = 0, off = XO("CARD_DEF", &cnt);
            AZK_CHECK(memcmp(x + off, y + off, sizeof(int32_t) * (size_t)cnt) == 0);
            off = XO("HAND", &cnt);
            AZK_CHECK(memcmp(x + off, y + off, sizeof(int32_t) * (size_t)cnt) == 0);
            off = XO("CARD_SEEN", &cnt); /* known deck positions survive (docs/rules.md §17.5) */
            AZK_CHECK(memcmp(x + off, y + off, sizeof(int32_t) * (size_t)cnt) == 0);
            off = XO("CARD_FLAGS", &cnt); /* revealed hand cards too */
            AZK_CHECK(memcmp(x + off, y + off, sizeof(int32_t) * (size_t)cnt) == 0);
        }
        free(h);
        free(g);
    }
    free(x);
    free(y);
    free(w);
}

static void test_hostile_plans(void) {
    const azk_cardset *cs = azk_default_cardset();
    int xs = azk_export_size(), ps = azk_plan_size();
    size_t gs = azk_game_size();
    int32_t *x = malloc(sizeof(int32_t) * (size_t)xs);
    int32_t *w = malloc(sizeof(int32_t) * (size_t)ps), *bad = malloc(sizeof(int32_t) * (size_t)ps);
    azk_game *g = main_game(cs, 5, 40);
    AZK_CHECK(azk_export(g, cs, x, xs) == xs);
    plan_of(x, w);
    azk_game *h = malloc(gs), *before = malloc(gs);
    static const int32_t hostile[] = {INT32_MIN, -2, -1, 0, 1, 2, 7, 15, 16, 62, 63, 125, 126, 255, 256, 9999, INT32_MAX};
    int ok = 0, refused = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(bad, w, sizeof(int32_t) * (size_t)ps);
        int k = 1 + (int)(rnd() % 3);
        for (int j = 0; j < k; j++) bad[rnd() % (unsigned)ps] = hostile[rnd() % (sizeof hostile / sizeof hostile[0])];
        azk_game_init(h, cs, 77, 0, 1);
        memcpy(before, h, gs);
        int detail = 0;
        azk_status st = azk_game_setup(h, cs, bad, (size_t)ps, &detail);
        if (st == AZK_OK) {
            ok++;
            AZK_CHECK(azk_check_invariants(h, cs) == 0);
        } else {
            refused++;
            AZK_CHECK(st == AZK_ERR_ARG && memcmp(before, h, gs) == 0);
            AZK_CHECK(detail < ps && (detail >= 0 || azk_invariant_name(detail) != NULL));
        }
    }
    AZK_CHECK(ok > 0 && refused > 0);
    /* lengths */
    azk_game_init(h, cs, 77, 0, 1);
    memcpy(before, h, gs);
    AZK_CHECK(azk_game_setup(h, cs, w, (size_t)ps - 1, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_game_setup(h, cs, w, (size_t)ps + 1, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_game_setup(h, cs, NULL, (size_t)ps, NULL) == AZK_ERR_ARG);
    AZK_CHECK(memcmp(before, h, gs) == 0);
    AZK_CHECK(azk_export(h, cs, x, xs - 1) == -1);
    free(before);
    free(h);
    free(g);
    free(x);
    free(w);
    free(bad);
}

int main(void) {
    AZK_RUN(test_export_and_setup_round_trip);
    AZK_RUN(test_hostile_plans);
    return azk_test_summary();
}
