/* test_engine.c — property tests of the C core over random legal play.
 *
 * For many seeds and every deck pairing: play uniform-random legal games to
 * the end and after every step check the invariants (card conservation, zone
 * capacities, canonical hand, ...), that the legal list and the mask agree,
 * that a sample of masked-out actions is rejected with the hash unchanged,
 * that clone and serialize round-trips preserve the hash and the future, and
 * that azk_field_stats' one walk gives the separate stat reads' values.
 * Also: the default card set passes verification; encode/decode are inverse.
 */
#include <stdlib.h>

#include "azk_test.h"
#include "game.h"
#include "azk_cardset_env.h"

static const azk_cardset *CS;
static int NA;

static void test_cardset_verifies(void) {
    static azk_cardset copy;
    memcpy(&copy, CS, sizeof copy);
    AZK_CHECK(azk_cardset_finish(&copy) == AZK_OK);
    AZK_CHECK(azk_cardset_find_deck(CS, "STT01") >= 0);
    AZK_CHECK(azk_cardset_find_deck(CS, "STT02") >= 0);
    AZK_CHECK(azk_cardset_find_deck(CS, "NOPE") == -1);
}

static void test_encode_decode(void) {
    for (int a = 0; a < NA; a++) {
        int t = 0, p0 = 0, p1 = 0;
        AZK_CHECK(azk_decode(a, &t, &p0, &p1) == 0);
        AZK_CHECK(azk_encode(t, p0, p1) == a);
    }
    int t = 0, p0 = 0, p1 = 0;
    AZK_CHECK(azk_decode(-1, &t, &p0, &p1) == -1);
    AZK_CHECK(azk_decode(NA, &t, &p0, &p1) == -1);
    AZK_CHECK(azk_encode(AZK_ACT_COUNT, 0, 0) == -1);
    AZK_CHECK(azk_encode(AZK_ACT_ATTACK, 6, 0) == -1);
}

static uint32_t xs(uint64_t *s) { /* test-local RNG, independent of the engine's */
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (uint32_t)(*s >> 32);
}

/* azk_field_stats (one walk: the observation encoder's and the greedy
 * bot's read of a field card) gives azk_attack_of's and azk_health_of's
 * values and the weapons the card holds, for every card on the field (auras
 * and conditional statics included where the card set has them). */
static void field_stats_agree(const azk_game *g) {
    for (int c = 0; c < AZK_NUM_CARDS; c++) {
        uint8_t z = g->cards[c].zone;
        if (z != AZK_Z_LEADER && z != AZK_Z_GARDEN && z != AZK_Z_ALLEY && z != AZK_Z_GATE) continue;
        azk_field_stat fs = {-1, -1, -1, -1};
        azk_field_stats(g, CS, c, &fs);
        const azk_player *pl = &g->pl[g->cards[c].owner];
        int n = 0, bonus = 0;
        for (int i = 0; i < pl->weapons_n; i++)
            if (g->cards[pl->weapons[i]].holder == c) n++, bonus += azk_weapon_bonus(g, CS, pl->weapons[i]);
        AZK_CHECK(fs.attack == azk_attack_of(g, CS, c) && fs.health == azk_health_of(g, CS, c));
        AZK_CHECK(fs.weapons == n && fs.weapon_bonus == bonus);
    }
}

static long play_random(uint64_t seed, int d0, int d1, int check_every, long *decisions) {
    static azk_game g, c1, c2;
    static uint8_t mask[4096], bytes[8192];
    int32_t legal[4096];
    uint64_t rs = seed * 2654435761u + 1;
    AZK_CHECK(azk_game_init(&g, CS, seed, d0, d1) == AZK_OK);
    AZK_CHECK(azk_check_invariants(&g, CS) == 0);
    long steps = 0;
    while (!azk_is_terminal(&g)) {
        int n = azk_legal_actions(&g, CS, legal, NA);
        AZK_CHECK(n >= 2); /* one answer is no question (RULES 12) */
        if (n < 1) return -1;
        int a = legal[xs(&rs) % (uint32_t)n];
        if (steps % check_every == 0) {
            int m = azk_legal_mask(&g, CS, mask), cnt = 0;
            AZK_CHECK(m == n);
            for (int i = 0; i < NA; i++) cnt += mask[i];
            AZK_CHECK(cnt == n);
            for (int i = 0; i < n; i++) AZK_CHECK(mask[legal[i]]);
            for (int i = 1; i < n; i++) AZK_CHECK(legal[i - 1] < legal[i]);
            uint64_t h = azk_hash(&g);
            for (int k = 0; k < 8; k++) { /* masked-out actions are rejected, nothing changes */
                int b = (int)(xs(&rs) % (uint32_t)NA);
                if (mask[b]) continue;
                AZK_CHECK(azk_step(&g, CS, b) == AZK_ILLEGAL);
                AZK_CHECK(azk_hash(&g) == h);
            }
            field_stats_agree(&g);
            /* every legal action applies on a clone */
            for (int i = 0; i < n; i++) {
                azk_game_clone(&c1, &g);
                azk_status s = azk_step(&c1, CS, legal[i]);
                AZK_CHECK(s == AZK_OK);
                AZK_CHECK(azk_check_invariants(&c1, CS) == 0);
            }
            /* clone and serialize round trips preserve hash and future */
            azk_game_clone(&c1, &g);
            size_t len = azk_serialize(&g, CS, bytes, sizeof bytes);
            AZK_CHECK(len == azk_serialized_size());
            AZK_CHECK(azk_deserialize(&c2, CS, bytes, len) == AZK_OK);
            AZK_CHECK(azk_hash(&c2) == h && azk_hash(&c1) == h);
            AZK_CHECK(azk_step(&c1, CS, a) == AZK_OK && azk_step(&c2, CS, a) == AZK_OK);
            AZK_CHECK(azk_step(&g, CS, a) == AZK_OK);
            AZK_CHECK(azk_hash(&c1) == azk_hash(&g) && azk_hash(&c2) == azk_hash(&g));
        } else {
            AZK_CHECK(azk_step(&g, CS, a) == AZK_OK);
        }
        int inv = azk_check_invariants(&g, CS);
        if (inv != 0) {
            fprintf(stderr, "invariant %d broken, seed %llu step %ld\n", inv, (unsigned long long)seed, steps);
            AZK_CHECK(inv == 0);
            return -1;
        }
        uint32_t ev[AZK_EVENT_CAP];
        azk_events(&g, ev, AZK_EVENT_CAP);
        steps++;
        if (steps > 100000) { AZK_CHECK(!"game did not terminate"); return -1; }
    }
    AZK_CHECK(azk_step(&g, CS, 0) == AZK_TERMINAL);
    *decisions += steps;
    return azk_result(&g);
}

static int GAMES = 2000;

static void test_random_play(void) {
    int results[AZK_RES_COUNT] = {0};
    long decisions = 0;
    for (int i = 0; i < GAMES; i++) {
        int d0, d1; /* every deck pairing of the set, mirrors included */
        azk_env_pairing(CS, i, &d0, &d1);
        long r = play_random((uint64_t)i + 1, d0, d1, i < 200 ? 1 : 16, &decisions);
        if (r < 0) return;
        results[r]++;
    }
    printf("random play: %d games, %ld decisions, p0 %d p1 %d draw %d truncated %d\n", GAMES, decisions,
           results[AZK_RES_WIN_P0], results[AZK_RES_WIN_P1], results[AZK_RES_DRAW], results[AZK_RES_TRUNCATED]);
    AZK_CHECK(results[AZK_RES_WIN_P0] > 0 && results[AZK_RES_WIN_P1] > 0);
}

static void test_determinism(void) {
    static azk_game a, b;
    int32_t legal[4096];
    azk_game_init(&a, CS, 99, 0, 1);
    azk_game_init(&b, CS, 99, 0, 1);
    uint64_t rs = 5;
    while (!azk_is_terminal(&a)) {
        AZK_CHECK(azk_hash(&a) == azk_hash(&b));
        int n = azk_legal_actions(&a, CS, legal, NA);
        int act = legal[xs(&rs) % (uint32_t)n];
        azk_step(&a, CS, act);
        azk_step(&b, CS, act);
    }
    AZK_CHECK(azk_hash(&a) == azk_hash(&b));
    azk_game_init(&b, CS, 100, 0, 1);
    azk_game_init(&a, CS, 99, 0, 1);
    AZK_CHECK(azk_hash(&a) != azk_hash(&b));
}

static void test_bad_bytes(void) {
    static azk_game g, h;
    static uint8_t bytes[8192];
    azk_game_init(&g, CS, 7, 0, 1);
    size_t len = azk_serialize(&g, CS, bytes, sizeof bytes);
    AZK_CHECK(azk_serialize(&g, CS, bytes, 10) == 0);
    azk_game_init(&h, CS, 8, 1, 0);
    uint64_t before = azk_hash(&h);
    AZK_CHECK(azk_deserialize(&h, CS, bytes, len - 1) == AZK_ERR_CORRUPT);
    for (size_t i = 0; i < len; i += 37) {
        bytes[i] ^= 0x40;
        AZK_CHECK(azk_deserialize(&h, CS, bytes, len) != AZK_OK);
        bytes[i] ^= 0x40;
    }
    AZK_CHECK(azk_hash(&h) == before);
    AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_OK);
    AZK_CHECK(azk_hash(&h) == azk_hash(&g));
}

/* A suspended ability's prompt must be one its instruction asks, with options
 * in range for the kind, and no answer may sit unconsumed: otherwise
 * deserialize rejects the bytes (found by fuzz_state: a CARD option of 126). */
static void test_prompt_state_checked(void) {
    static azk_game g, bad, h;
    static uint8_t bytes[8192];
    int32_t legal[2048];
    uint64_t rs = 12345;
    int kinds_seen = 0;
    for (int seed = 1; seed < 400 && kinds_seen != (1 << AZK_PK_CARD | 1 << AZK_PK_YES_NO); seed++) {
        azk_game_init(&g, CS, (uint64_t)seed, seed & 1 ? 0 : 1, 1);
        while (!azk_is_terminal(&g)) {
            if (g.phase == AZK_PHASE_PROMPT && (g.prompt.kind == AZK_PK_CARD || g.prompt.kind == AZK_PK_YES_NO) &&
                !(kinds_seen & (1 << g.prompt.kind))) {
                kinds_seen |= 1 << g.prompt.kind;
                AZK_CHECK(azk_check_invariants(&g, CS) == 0);
                size_t len = azk_serialize(&g, CS, bytes, sizeof bytes);
                azk_game_init(&h, CS, 5, 0, 1);
                AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_OK); /* intact: accepted */
                for (int mutation = 0; mutation < 4; mutation++) {
                    memcpy(&bad, &g, sizeof bad);
                    switch (mutation) {
                    case 0: bad.prompt.opt[0] = g.prompt.kind == AZK_PK_CARD ? AZK_NUM_CARDS : 2; break;
                    case 1: bad.prompt.kind = g.prompt.kind == AZK_PK_CARD ? AZK_PK_NUMBER : AZK_PK_CARD; break;
                    case 2: bad.vm.has_answer = 1; bad.vm.answer = 0; break;
                    case 3: bad.vm.has_answer = 1; bad.vm.answer = AZK_NUM_CARDS; break;
                    }
                    AZK_CHECK(azk_check_invariants(&bad, CS) != 0);
                    len = azk_serialize(&bad, CS, bytes, sizeof bytes);
                    uint64_t before = azk_hash(&h);
                    AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_ERR_CORRUPT);
                    AZK_CHECK(azk_hash(&h) == before);
                }
            }
            int n = azk_legal_actions(&g, CS, legal, NA);
            azk_step(&g, CS, legal[xs(&rs) % (uint32_t)n]);
        }
    }
    AZK_CHECK(kinds_seen == (1 << AZK_PK_CARD | 1 << AZK_PK_YES_NO));
}

/* Once-per-turn marks and cooldown exist only on cards in the leader, gate,
 * row and weapon zones (a zone change clears them); the per-turn resets walk
 * only those zones, so the checker rejects a written state with a mark
 * elsewhere (invariant -26), and deserialize refuses its bytes. */
static void test_turn_marks_only_on_the_field(void) {
    static azk_game g, bad, h;
    static uint8_t bytes[8192];
    azk_game_init(&g, CS, 7, 0, 1);
    int32_t legal[2048];
    while (g.phase != AZK_PHASE_MAIN) azk_step(&g, CS, legal[azk_legal_actions(&g, CS, legal, NA) - 1]);
    int p = g.active, hand = g.pl[p].hand[0], deck = g.pl[p].deck[0], leader = g.pl[p].leader;
    AZK_CHECK(azk_check_invariants(&g, CS) == 0);
    azk_game_init(&h, CS, 5, 0, 1);
    for (int mutation = 0; mutation < 4; mutation++) {
        memcpy(&bad, &g, sizeof bad);
        switch (mutation) {
        case 0: bad.cards[hand].once_used = 1; break;
        case 1: bad.cards[deck].flags |= AZK_CF_COOLDOWN; break;
        case 2: bad.cards[leader].once_used = 1; break; /* allowed: the leader is on the field */
        case 3: bad.cards[leader].flags |= AZK_CF_COOLDOWN; break; /* allowed */
        }
        int code = azk_check_state(&bad, CS, 0);
        size_t len = azk_serialize(&bad, CS, bytes, sizeof bytes);
        uint64_t before = azk_hash(&h);
        if (mutation < 2) {
            AZK_CHECK_EQ_U64(code, (uint64_t)-26);
            AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_ERR_CORRUPT);
            AZK_CHECK(azk_hash(&h) == before);
        } else {
            AZK_CHECK_EQ_U64(code, 0);
            AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_OK);
        }
    }
    /* ending the turn clears the leader's cooldown and the next turn's start
     * clears its once-per-turn marks (RULES §4.1, §4.3) */
    memcpy(&bad, &g, sizeof bad);
    bad.cards[leader].once_used = 1;
    bad.cards[leader].flags |= AZK_CF_COOLDOWN;
    AZK_CHECK_EQ_U64(azk_check_invariants(&bad, CS), 0); /* marks on the leader are allowed */
    AZK_CHECK(azk_step(&bad, CS, azk_encode(AZK_ACT_END_TURN, 0, 0)) == AZK_OK);
    AZK_CHECK(bad.result != AZK_RES_ONGOING || bad.active != p);
    AZK_CHECK(!(bad.cards[leader].flags & AZK_CF_COOLDOWN));
    AZK_CHECK_EQ_U64(bad.cards[leader].once_used, 0);
}

/* A queued trigger names one of its source's own TRIGGERED abilities and is
 * controlled by the source's owner (azk_fire_card is the only producer);
 * anything else is rejected by the checker (-65) and by deserialize (found by
 * fuzz_state: a foreign ability index made the once-per-turn bit shift
 * negative, tests/fuzz/regressions/fuzz_state/foreign_trigger_ability). */
static void test_trigger_entries_checked(void) {
    static azk_game g, bad, h;
    static uint8_t bytes[8192];
    int32_t legal[2048];
    azk_game_init(&g, CS, 11, 0, 1);
    while (g.phase != AZK_PHASE_MAIN) azk_step(&g, CS, legal[azk_legal_actions(&g, CS, legal, NA) - 1]);
    int src = -1, own = -1, other = -1;
    for (int c = 0; c < AZK_NUM_CARDS && (src < 0 || other < 0); c++) {
        const azk_card_def *d = &CS->defs[g.cards[c].def];
        for (int i = 0; i < d->ability_count; i++) {
            int a = d->ability_first + i;
            if (CS->abilities[a].kind != AZK_AB_TRIGGERED) {
                if (other < 0) other = a; /* some non-triggered ability */
            } else if (src < 0) {
                src = c;
                own = a;
            }
        }
    }
    AZK_CHECK(src >= 0 && other >= 0);
    const azk_card_def *sd = &CS->defs[g.cards[src].def];
    int foreign = sd->ability_first > 0 ? sd->ability_first - 1 : sd->ability_first + sd->ability_count;
    azk_game_init(&h, CS, 5, 0, 1);
    for (int mutation = 0; mutation < 4; mutation++) {
        memcpy(&bad, &g, sizeof bad);
        bad.trig_n = 1;
        azk_trigger_entry *t = &bad.trig[0];
        t->source = (uint8_t)src;
        t->ability = (uint8_t)own;
        t->controller = g.cards[src].owner;
        t->ctx_card = AZK_NONE;
        t->source_inc = g.cards[src].incarnation;
        switch (mutation) {
        case 0: break; /* the source's own triggered ability: accepted */
        case 1: t->ability = (uint8_t)foreign; break;
        case 2: t->ability = (uint8_t)other; break;
        case 3: t->controller = (uint8_t)(1 - t->controller); break;
        }
        int code = azk_check_state(&bad, CS, 0);
        if (mutation == 1 && (CS->abilities[foreign].program == AZK_NO_PC)) continue; /* caught earlier (-64) */
        if (mutation == 2 && (CS->abilities[other].program == AZK_NO_PC)) continue;
        size_t len = azk_serialize(&bad, CS, bytes, sizeof bytes);
        uint64_t before = azk_hash(&h);
        if (mutation == 0) {
            AZK_CHECK_EQ_U64(code, 0);
            AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_OK);
        } else {
            AZK_CHECK_EQ_U64(code, (uint64_t)-65);
            AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_ERR_CORRUPT);
            AZK_CHECK(azk_hash(&h) == before);
        }
    }
}

/* The effect-records hint (game.h fx_cards) only lets reads skip the effect
 * list: at every decision of random games (any card set, $AZK_CARDSET),
 * every card's statuses, attack and health read the same with the hint
 * full (every card's records walked). A hint that misses a record is
 * invariant FX_HINT (-101), and deserialize rebuilds it. */
static void test_fx_hint(void) {
    static azk_game g, full, h;
    static uint8_t bytes[8192];
    int32_t legal[2048];
    uint64_t rs = 99;
    int checked = 0, missed = 0;
    for (int seed = 1; seed <= 150; seed++) {
        azk_game_init(&g, CS, (uint64_t)seed, seed & 1, (seed >> 1) & 1);
        while (!azk_is_terminal(&g)) {
            if (g.fx_n > 0) {
                memcpy(&full, &g, sizeof full);
                memset(full.fx_cards, 0xFF, sizeof full.fx_cards);
                for (int c = 0; c < AZK_NUM_CARDS; c++) {
                    AZK_CHECK(azk_status_of(&g, CS, c) == azk_status_of(&full, CS, c));
                    AZK_CHECK(azk_granted_status(&g, c) == azk_granted_status(&full, c));
                    if (azk_on_field(&g, c)) {
                        AZK_CHECK(azk_attack_of(&g, CS, c) == azk_attack_of(&full, CS, c));
                        AZK_CHECK(azk_health_of(&g, CS, c) == azk_health_of(&full, CS, c));
                    }
                }
                checked++;
                if (missed < 20) { /* a hint without a record's card is refused */
                    memcpy(&full, &g, sizeof full);
                    full.fx_cards[g.fx[0].card >> 6] &= ~(1ull << (g.fx[0].card & 63));
                    AZK_CHECK_EQ_U64(azk_check_invariants(&full, CS), (uint64_t)AZK_INV_FX_HINT);
                    size_t len = azk_serialize(&full, CS, bytes, sizeof bytes);
                    AZK_CHECK(azk_deserialize(&h, CS, bytes, len) == AZK_OK); /* not serialized: rebuilt */
                    AZK_CHECK(azk_check_invariants(&h, CS) == 0 && azk_hash(&h) == azk_hash(&g));
                    missed++;
                }
            }
            int n = azk_legal_actions(&g, CS, legal, NA);
            azk_step(&g, CS, legal[xs(&rs) % (uint32_t)n]);
        }
    }
    AZK_CHECK(checked > 100 && missed == 20); /* the games did put effects on cards */
}

int main(int argc, char **argv) {
    CS = azk_env_cardset(); /* $AZK_CARDSET: any card set (make ctest-cards CARDS=...) */
    NA = azk_num_actions();
    if (argc > 1) GAMES = atoi(argv[1]);
    else if (getenv("AZK_TEST_GAMES")) GAMES = atoi(getenv("AZK_TEST_GAMES")); /* make ctest: 10,000 */
    AZK_RUN(test_cardset_verifies);
    AZK_RUN(test_encode_decode);
    AZK_RUN(test_determinism);
    AZK_RUN(test_bad_bytes);
    AZK_RUN(test_prompt_state_checked);
    AZK_RUN(test_turn_marks_only_on_the_field);
    AZK_RUN(test_trigger_entries_checked);
    AZK_RUN(test_fx_hint);
    AZK_RUN(test_random_play);
    return azk_test_summary();
}
