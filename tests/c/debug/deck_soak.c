/* deck_soak.c — used by tests/test_ext_deck.py (--- deck ---): random games
 * of a card set read from a file (the starter set plus the deck group's
 * expansion fragment, packed by azuki.convert.pack), built with
 * -DAZK_DEBUG and the sanitizers where available. Every azk_step ends with
 * the invariant checker (AZK_ASSERT in debug builds); after each step the
 * soak also checks the legal mask against the list, a serialize round trip
 * (same hash), each seat's observation under azk_resample (identical), and
 * that a resample never moves a deck card the resampling seat knows
 * (docs/rules.md §17.5). Usage: deck_soak SETFILE DECK0 DECK1 GAMES.
 * Prints "ok GAMES STEPS SEARCHES TOP_ORDERS KNOWN" and exits 0, or the
 * first failure and exits 1. */
#include <stdio.h>
#include <stdlib.h>

#include "game.h"

static azk_cardset CS;
static azk_game G, H, B;
static uint8_t buf[1 << 17];
static uint8_t o1[1 << 14], o2[1 << 14];

#define FAIL(...)                                                                                        \
    do {                                                                                                 \
        fprintf(stderr, __VA_ARGS__);                                                                    \
        fprintf(stderr, "\n");                                                                           \
        return 1;                                                                                        \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 5) FAIL("usage: deck_soak SETFILE DECK0 DECK1 GAMES");
    FILE *f = fopen(argv[1], "rb");
    if (!f) FAIL("cannot open %s", argv[1]);
    static uint8_t set[1 << 20];
    size_t n = fread(set, 1, sizeof set, f);
    fclose(f);
    if (azk_cardset_load(&CS, set, n) != AZK_OK) FAIL("card set does not load");
    int d0 = atoi(argv[2]), d1 = atoi(argv[3]), games = atoi(argv[4]);
    if (azk_obs_len() > (int)(sizeof o1 / sizeof o1[0])) FAIL("observation buffer too small");
    long steps = 0, searches = 0, orders = 0, known = 0;
    uint64_t rs = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < games; k++) {
        if (azk_game_init(&G, &CS, (uint64_t)k + 1, k % 2 ? d1 : d0, k % 2 ? d0 : d1) != AZK_OK) FAIL("init");
        while (!azk_is_terminal(&G)) {
            int32_t legal[AZK_NUM_ACTIONS_];
            uint8_t mask[AZK_NUM_ACTIONS_];
            int nl = azk_legal_actions(&G, &CS, legal, AZK_NUM_ACTIONS_);
            int nm = azk_legal_mask(&G, &CS, mask), cnt = 0;
            for (int a = 0; a < AZK_NUM_ACTIONS_; a++) cnt += mask[a];
            if (nl < 1 || nm < 0 || cnt != nl) FAIL("game %d: mask %d != legal %d", k, cnt, nl);
            for (int i = 0; i < nl; i++)
                if (!mask[legal[i]]) FAIL("game %d: legal action %d not in the mask", k, legal[i]);
            if (G.phase == AZK_PHASE_PROMPT) {
                searches += G.prompt.kind == AZK_PK_SEARCH;
                orders += G.prompt.kind == AZK_PK_TOP_ORDER;
            }
            size_t sz = azk_serialize(&G, &CS, buf, sizeof buf);
            if (!sz || azk_deserialize(&B, &CS, buf, sz) != AZK_OK || azk_hash(&B) != azk_hash(&G))
                FAIL("game %d: serialize round trip", k);
            for (int seat = 0; seat < 2; seat++) {
                int any = 0;
                for (int c = 0; c < AZK_NUM_CARDS; c++) any |= G.cards[c].zone == AZK_Z_DECK && (G.cards[c].seen >> seat & 1);
                known += any;
                if (!any && (steps + seat) % 7) continue;
                azk_game_clone(&H, &G);
                rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
                if (azk_resample(&H, &CS, seat, rs) != AZK_OK) FAIL("game %d: resample", k);
                if (azk_check_invariants(&H, &CS) != 0) FAIL("game %d: invariants after resample", k);
                azk_observe(&G, &CS, seat, o1);
                azk_observe(&H, &CS, seat, o2);
                if (memcmp(o1, o2, (size_t)azk_obs_len()))
                    FAIL("game %d step %ld: seat %d observation changed by resampling", k, steps, seat);
                for (int c = 0; c < AZK_NUM_CARDS; c++)
                    if (G.cards[c].zone == AZK_Z_DECK && (G.cards[c].seen >> seat & 1) &&
                        (H.cards[c].def != G.cards[c].def || H.cards[c].pos != G.cards[c].pos))
                        FAIL("game %d: resample moved known deck card %d", k, c);
            }
            rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
            if (azk_step(&G, &CS, legal[(rs >> 33) % (uint64_t)nl]) != AZK_OK) FAIL("game %d: step refused", k);
            if (azk_check_invariants(&G, &CS) != 0) FAIL("game %d: invariants", k);
            steps++;
        }
    }
    printf("ok %d %ld %ld %ld %ld\n", games, steps, searches, orders, known);
    return 0;
}
