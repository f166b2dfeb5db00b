/* test_obs_fast.c — the observation encoder (csrc/obs.c: azk_observe,
 * azk_observe_both, azk_observe_memo) against a reference encoder kept here: the plain
 * from-scratch encoder of layout v4 as it was before the fast paths (one
 * memset, every field from the game, counting sorts), every byte compared.
 * The fast encoder shares the public part between seats, builds the sorted
 * identity lists as sets of a player's cards in definition order (falling
 * back to a counting sort when the cards are not in that order) and makes
 * one pass per deck for both views; the reference does none of that. Over
 * random games of every deck pairing (the default set, or $AZK_CARDSET:
 * `make cards-ctest`-style, e.g. the expansion with auras and cost
 * modifiers), at every decision, for both seats and for the pair; on
 * resampled clones (definitions shuffled among cards: the counting-sort
 * path); and on clones with knowledge scribbled in (deck cards seen by
 * either player, revealed hand cards, cards being looked at), which the
 * encoder reads but random play seldom reaches. The pair is also written
 * through a memo kept along each game (azk_obs_memo: sorted lists copied
 * while their card sets stay the same). AZK_TEST_GAMES scales it. */
#include <stdlib.h>

#include "azk_test.h"
#include "game.h"
#include "azk_cardset_env.h"

/* ---- the reference encoder (layout v4, before the fast paths) ----
 * A copy of csrc/obs.c's plain encoder on purpose (the tool `duplicates`
 * pairs its prompt and mask blocks with obs.c): an oracle must not share
 * code with what it checks, so a bug in obs.c cannot hide in both. */
#define AZK_OBS_PLACES (2 + 2 * AZK_ROW)                  /* leader, 5 garden, 5 alley, gate */
#define AZK_OBS_GATE (1 + 2 * AZK_ROW)                    /* place 11 */
#define AZK_OBS_PLACE_ROWS (AZK_PLAYERS * AZK_OBS_PLACES) /* side * 12 + place */
#define AZK_FLOW_COUNT_ (AZK_FLOW_OVER + 1)

/* ---- the layout, from azk_obs.def ----------------------------------------- */
/* The fields' total before PAD (AZK_OBS_PAD_ = 0 in this pass), then PAD's
 * size: what makes the length a multiple of 8. */
#define AZK_OBS_PAD_ 0
#define AZK_OBS(name, r, c, kind, n, doc) +(r) * (c)
enum { REF_UNPADDED_ = 0
#include "azk_obs.def"
};
#undef AZK_OBS
#undef AZK_OBS_PAD_
#define AZK_OBS_PAD_ ((8 - REF_UNPADDED_ % 8) % 8)

/* RO_name: the first byte of field `name`; RE_name: its last. */
#define AZK_OBS(name, r, c, kind, n, doc) RO_##name, RE_##name = RO_##name + (r) * (c) - 1,
enum ref_obs_offset {
#include "azk_obs.def"
    RO_LEN_
};
#undef AZK_OBS

/* ---- knowledge -------------------------------------------------------------- */
static int known(const azk_game *g, int p, int c) {
    const azk_card *k = &g->cards[c];
    switch (k->zone) {
    case AZK_Z_DECK: return (k->seen >> p) & 1;        /* face down, unless p put it where it is */
    case AZK_Z_IKZ_PILE: return 0;                     /* face down for everybody */
    case AZK_Z_HAND: return k->owner == p || (k->flags & AZK_CF_REVEALED) != 0;
    case AZK_Z_LOOK: return k->owner == p;             /* rules §8.9: looked at by its owner only */
    default: return 1;                                 /* field, discard, resolving, aside, out */
    }
}


/* ---- helpers ---------------------------------------------------------------- */
/* NUM: saturated to [0, 255]; SNUM: int8 two's complement, saturated. */
static inline uint8_t num8(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
static inline uint8_t snum8(int v) { return (uint8_t)(int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }
/* ID: definition + 1, 0 for none (a definition outside the set cannot occur). */
static inline uint8_t card_id(const azk_game *g, int c) {
    int d = g->cards[c].def;
    return (uint8_t)(d < AZK_MAX_CARD_DEFS ? d + 1 : 0);
}
/* n / d as 0..127, exactly as layout v3 encoded its ratios (v3's uint8 byte
 * minus 128: (int)(127 * min(n / d, 1) + 128.5) - 128 in float arithmetic),
 * so the v3 values stay recoverable bit for bit. */
static inline uint8_t frac127(int n, int d) {
    if (d <= 0 || n <= 0) return 0;
    float v = (float)n / (float)d;
    if (v > 1.f) v = 1.f;
    return (uint8_t)((int)(v * 127.f + 128.5f) - 128);
}
static inline void set_bit(uint8_t *o, int at, int i) { o[at + (i >> 3)] |= (uint8_t)(1u << (i & 7)); }

/* The place (0 leader, 1..5 garden, 6..10 alley, 11 gate) of a card on the
 * field; a weapon's is its holder's. -1 elsewhere. */
static int place_of(const azk_game *g, int c) {
    const azk_card *k = &g->cards[c];
    switch (k->zone) {
    case AZK_Z_LEADER: return 0;
    case AZK_Z_GATE: return AZK_OBS_GATE;
    case AZK_Z_GARDEN: return 1 + k->pos;
    case AZK_Z_ALLEY: return 1 + AZK_ROW + k->pos;
    case AZK_Z_WEAPON:
        return k->holder < AZK_NUM_CARDS && g->cards[k->holder].zone != AZK_Z_WEAPON ? place_of(g, k->holder) : -1;
    default: return -1;
    }
}

/* Row side * 12 + place of a card on the field, seen by `me`; -1 elsewhere. */
static int place_row(const azk_game *g, int me, int c) {
    int pl = place_of(g, c);
    return pl < 0 ? -1 : (g->cards[c].owner == me ? 0 : AZK_OBS_PLACES) + pl;
}

/* A multiset of identities, written sorted by definition (counting sort:
 * count, then walk the 128 counters 8 at a time, skipping empty words). */
typedef struct id_bag {
    uint8_t count[128]; /* copies of definition d; zeroed again by bag_write */
} id_bag;
_Static_assert(AZK_MAX_CARD_DEFS <= 128, "a definition has a counter");

static inline void bag_add(id_bag *b, const azk_game *g, int c) {
    int d = g->cards[c].def;
    if (d < AZK_MAX_CARD_DEFS) b->count[d]++;
}

/* Write the bag's identities, sorted, at o[at..at + cap - 1] (the rest stays
 * 0, as memset) and empty the bag. A run of copies is stored 8 bytes at a
 * time while 8 bytes fit in the field; the bytes past the run are written
 * again by the next run or zeroed at the end, never outside the field. */
static void bag_write(id_bag *b, uint8_t *o, int at, int cap) {
    uint8_t *f = o + at;
    int k = 0;
    for (int w = 0; w < 128; w += 8) {
        uint64_t m;
        memcpy(&m, b->count + w, 8);
        if (!m) continue; /* 8 definitions absent: the common case */
        for (int j = 0; j < 8; j++) {
            int n = b->count[w + j];
            uint64_t run = 0x0101010101010101ull * (uint64_t)(w + j + 1);
            for (; n > 0 && k + 8 <= cap; n -= 8) {
                memcpy(f + k, &run, 8);
                k += n < 8 ? n : 8;
            }
            for (; n > 0 && k < cap; n--) f[k++] = (uint8_t)(w + j + 1);
        }
        memset(b->count + w, 0, 8);
    }
    int end = k + 8 < cap ? k + 8 : cap; /* what the last 8-byte store wrote past the run */
    if (k < end) memset(f + k, 0, (size_t)(end - k));
}

/* one place: card c of player p (side 0 me, 1 the opponent) at `place` */
static inline void put_place(const azk_game *g, const azk_cardset *cs, uint8_t *o, int row, int place, int c) {
    const azk_card *k = &g->cards[c];
    o[RO_PLACE_CARD + row] = card_id(g, c);
    o[RO_PLACE_DAMAGE + row] = num8(k->damage);
    o[RO_PLACE_FLAGS + row] = (uint8_t)(((k->flags & AZK_CF_TAPPED) ? 1 : 0) | ((k->flags & AZK_CF_COOLDOWN) ? 2 : 0));
    o[RO_PLACE_ONCE_USED + row] = k->once_used;
    unsigned st = azk_status_of(g, cs, c);
    o[RO_PLACE_STATUS + 2 * row] = (uint8_t)(st & 0xff);
    o[RO_PLACE_STATUS + 2 * row + 1] = (uint8_t)(st >> 8 & 0xff);
    if (place == AZK_OBS_GATE) return; /* a gate has no stats and holds nothing */
    o[RO_PLACE_ATTACK + row] = snum8(azk_attack_of(g, cs, c));
    o[RO_PLACE_HEALTH + row] = num8(azk_health_of(g, cs, c));
    if (place > AZK_ROW) return; /* alley entities hold no weapons */
    const azk_player *pl = &g->pl[k->owner];
    int n = 0, bonus = 0;
    for (int i = 0; i < pl->weapons_n; i++) {
        int w = pl->weapons[i];
        if (g->cards[w].holder != c) continue;
        n++;
        bonus += azk_weapon_bonus(g, cs, w);
    }
    o[RO_PLACE_WEAPONS + row] = num8(n);
    o[RO_PLACE_WEAPON_BONUS + row] = snum8(bonus);
}

/* ---- the observation -------------------------------------------------------- */
static int ref_observe(const azk_game *g, const azk_cardset *cs, int me, uint8_t *o) {
    if (!g || !cs || !o || (me != 0 && me != 1)) return -1;
    memset(o, 0, RO_LEN_);
    int opp = 1 - me;

    /* the decision */
    o[RO_PHASE] = g->phase;
    o[RO_STEP] = g->flow;
    int dec = azk_current_player(g);
    o[RO_DECIDER] = (uint8_t)(dec < 0 ? 2 : dec == me ? 0 : 1);
    unsigned flags = (g->active == me ? 1u : 0u) | (g->first_player == me ? 2u : 0u);
    o[RO_TURN] = num8(g->turn);
    o[RO_TURN_FRAC] = frac127(g->turn, g->turn_cap);
    o[RO_DECISIONS_FRAC] = frac127(g->decisions, g->decision_cap);
    switch (g->result) {
    case AZK_RES_WIN_P0: o[RO_RESULT] = me == 0 ? 1 : 2; break;
    case AZK_RES_WIN_P1: o[RO_RESULT] = me == 1 ? 1 : 2; break;
    case AZK_RES_DRAW: o[RO_RESULT] = 3; break;
    case AZK_RES_TRUNCATED: o[RO_RESULT] = 4; break;
    default: break;
    }

    /* per player: counts and the field */
    for (int s = 0; s < AZK_PLAYERS; s++) {
        int p = s == 0 ? me : opp;
        const azk_player *pl = &g->pl[p];
        o[RO_HAND_N + s] = num8(pl->hand_n);
        o[RO_DECK_N + s] = num8(pl->deck_n);
        o[RO_DISCARD_N + s] = num8(pl->discard_n);
        o[RO_IKZ_UNTAPPED + s] = num8(g->ikz_untapped[p]);
        o[RO_IKZ_TAPPED + s] = num8(pl->ikz_area_n - g->ikz_untapped[p]);
        o[RO_IKZ_PILE_N + s] = num8(pl->ikz_pile_n);
        o[RO_LOOK_N + s] = num8(pl->look_n);
        o[RO_PLAYED_ENTITIES + s] = num8(pl->played_entities);
        o[RO_WEAPONS_N + s] = num8(pl->weapons_n);
        uint8_t tz = pl->token < AZK_NUM_CARDS ? g->cards[pl->token].zone : AZK_Z_ASIDE;
        o[RO_TOKEN + s] = (uint8_t)(tz == AZK_Z_IKZ_AREA ? 1 : tz == AZK_Z_OUT ? 2 : 0);
        o[RO_MULLIGAN_DONE + s] = pl->mulligan_done != 0;
        for (int place = 0; place < AZK_OBS_PLACES; place++) {
            int c = place == AZK_OBS_GATE ? pl->gate : azk_place_card(pl, place);
            if (c < AZK_NUM_CARDS) put_place(g, cs, o, s * AZK_OBS_PLACES + place, place, c);
        }
    }

    /* my hand in canonical order, what each card costs now (cost modifiers, rules §18.4) */
    const azk_player *mp = &g->pl[me], *op = &g->pl[opp];
    for (int i = 0; i < mp->hand_n && i < AZK_HAND_CAP; i++) {
        o[RO_HAND_CARD + i] = card_id(g, mp->hand[i]);
        o[RO_HAND_COST + i] = num8(azk_cost_of(g, cs, mp->hand[i]));
    }

    /* lists of identities: multisets sorted by definition, known deck positions */
    id_bag bag;
    memset(&bag, 0, sizeof bag);
    for (int i = 0; i < op->hand_n; i++)
        if (known(g, me, op->hand[i])) bag_add(&bag, g, op->hand[i]);
    bag_write(&bag, o, RO_OPP_HAND_KNOWN, AZK_HAND_CAP);
    for (int i = 0; i < mp->deck_n && i < AZK_DECK_CAP; i++) { /* deck[0] is the bottom */
        bag_add(&bag, g, mp->deck[i]);
        unsigned seen = g->cards[mp->deck[i]].seen;
        if (!seen) continue; /* nobody knows it: the common case */
        int top = mp->deck_n - 1 - i;
        if (seen >> me & 1) o[RO_DECK_TOP + top] = card_id(g, mp->deck[i]); /* (docs/rules.md §17.5) */
        if (seen >> opp & 1) set_bit(o, RO_DECK_OPP_KNOWS, top);
    }
    bag_write(&bag, o, RO_DECK, AZK_DECK_CAP);
    for (int i = 0; i < op->deck_n && i < AZK_DECK_CAP; i++) { /* what I know of the opponent's deck */
        int c = op->deck[i];
        if (g->cards[c].seen >> me & 1) o[RO_OPP_DECK_TOP + op->deck_n - 1 - i] = card_id(g, c);
        else bag_add(&bag, g, c);
    }
    for (int i = 0; i < op->hand_n; i++)
        if (!known(g, me, op->hand[i])) bag_add(&bag, g, op->hand[i]);
    for (int i = 0; i < op->look_n; i++) bag_add(&bag, g, op->look[i]);
    bag_write(&bag, o, RO_OPP_UNSEEN, AZK_DECK_CAP);
    for (int s = 0; s < AZK_PLAYERS; s++) { /* public, in pile order */
        const azk_player *pl = s == 0 ? mp : op;
        for (int i = 0; i < pl->discard_n && i < AZK_DISCARD_CAP; i++)
            o[RO_DISCARD + s * AZK_DISCARD_CAP + i] = card_id(g, pl->discard[i]);
    }
    for (int i = 0; i < mp->look_n; i++) bag_add(&bag, g, mp->look[i]);
    bag_write(&bag, o, RO_LOOK, AZK_LOOK_CAP);

    /* combat: places of the attacker and the target while they are the same objects */
    if (g->in_attack) {
        flags |= 4u | (g->defender_used ? 8u : 0u);
        if (g->attacker < AZK_NUM_CARDS && g->cards[g->attacker].incarnation == g->attacker_inc) {
            int r = place_row(g, me, g->attacker);
            if (r >= 0) o[RO_ATTACKER] = (uint8_t)(1 + r);
        }
        if (g->target < AZK_NUM_CARDS && g->cards[g->target].incarnation == g->target_inc) {
            int r = place_row(g, me, g->target);
            if (r >= 0) o[RO_TARGET] = (uint8_t)(1 + r);
        }
    }

    /* the pending prompt: its kind for both, its options for its chooser */
    if (g->phase == AZK_PHASE_PROMPT) {
        const azk_prompt *q = &g->prompt;
        if (q->kind < AZK_PK_COUNT) o[RO_PROMPT_KIND] = (uint8_t)(1 + q->kind);
        if (g->vm.active && g->vm.source < AZK_NUM_CARDS) {
            int src = g->vm.source;
            o[RO_PROMPT_SOURCE_SIDE] = g->vm.controller == me ? 1 : 2;
            if (known(g, me, src)) o[RO_PROMPT_SOURCE_CARD] = card_id(g, src);
        }
        int placing = azk_placing_card(g, cs);
        if (placing >= 0 && known(g, me, placing)) o[RO_PROMPT_PLACING_CARD] = card_id(g, placing);
        if (q->chooser == me) {
            int n = q->n < AZK_MAX_OPTIONS ? q->n : AZK_MAX_OPTIONS;
            int place_owner = placing >= 0 ? g->cards[placing].owner : q->chooser;
            int place_side = place_owner == me ? 0 : 1;
            flags |= 16u | (q->optional ? 32u : 0u);
            o[RO_PROMPT_N] = (uint8_t)n;
            for (int i = 0; i < n; i++) {
                int v = q->opt[i], place = -1;
                switch (q->kind) {
                case AZK_PK_CARD:
                case AZK_PK_BOTTOM_ORDER:
                case AZK_PK_SEARCH:
                case AZK_PK_TOP_ORDER:
                    if (v >= AZK_NUM_CARDS) break;
                    /* a searcher sees the matching cards of its own deck (docs/rules.md §17.1) */
                    if (q->kind == AZK_PK_SEARCH || known(g, me, v)) o[RO_OPT_CARD + i] = card_id(g, v);
                    o[RO_OPT_SIDE + i] = g->cards[v].owner == me ? 1 : 2;
                    if (g->cards[v].zone < AZK_Z_COUNT) o[RO_OPT_ZONE + i] = (uint8_t)(1 + g->cards[v].zone);
                    {
                        int r = place_row(g, me, v);
                        if (r >= 0) o[RO_OPT_PLACE + i] = (uint8_t)(1 + r);
                    }
                    break;
                case AZK_PK_SLOT: place = v >= 8 ? 1 + AZK_ROW + (v & 7) : 1 + v; break;
                case AZK_PK_HOLDER: place = v; break;
                case AZK_PK_NUMBER: o[RO_OPT_NUMBER + i] = num8(v); break;
                case AZK_PK_YES_NO: o[RO_OPT_NUMBER + i] = v != 0; break;
                case AZK_PK_MODE: o[RO_OPT_NUMBER + i] = num8(v); break; /* the mode index */
                default: break;
                }
                if (place >= 0 && place < AZK_OBS_PLACES) {
                    o[RO_OPT_SIDE + i] = (uint8_t)(1 + place_side);
                    o[RO_OPT_PLACE + i] = (uint8_t)(1 + place_side * AZK_OBS_PLACES + place);
                }
            }
        }
    }
    o[RO_FLAGS] = (uint8_t)flags;

    /* the legal actions, for their decider only (they would show a hidden
     * hand): each non-empty 64-bit word is 8 bytes of the packed mask, LSB first */
    if (dec == me)
        for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
            int w = __builtin_ctz(ws);
            uint64_t b = g->legal[w];
            for (int k = 0; k < 8 && 8 * w + k < RE_MASK - RO_MASK + 1; k++)
                o[RO_MASK + 8 * w + k] = (uint8_t)(b >> (8 * k));
        }
    return RO_LEN_;
}


/* ---- the comparison ---- */
static int first_diff(const uint8_t *a, const uint8_t *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return i;
    return -1;
}

static long long compared, diffs;

/* Both seats, alone and as a pair (with `memo`, kept along one game's
 * positions, and without), against the reference. */
static void compare_all(const azk_game *g, const azk_cardset *cs, const char *what, azk_obs_memo *memo) {
    static uint8_t r[2][2048], f[2][2048];
    int len = azk_obs_len();
    for (int s = 0; s < 2; s++) {
        memset(r[s], 0x5a, sizeof r[s]);
        memset(f[s], 0xa5, sizeof f[s]);
        AZK_CHECK(ref_observe(g, cs, s, r[s]) == len);
        AZK_CHECK(azk_observe(g, cs, s, f[s]) == len);
        int d = first_diff(r[s], f[s], len);
        if (d >= 0 && diffs++ < 5) fprintf(stderr, "%s: seat %d differs at byte %d (%d != %d)\n", what, s, d, f[s][d], r[s][d]);
    }
    for (int s = 0; s < 2; s++) { /* one seat through the memo */
        memset(f[s], 0xa5, sizeof f[s]);
        AZK_CHECK(azk_observe_memo(g, cs, s, f[s], memo) == len);
        int d = first_diff(r[s], f[s], len);
        if (d >= 0 && diffs++ < 5) fprintf(stderr, "%s: seat %d through the memo differs at byte %d\n", what, s, d);
    }
    for (int m = 0; m < 2; m++) {
        memset(f, 0xa5, sizeof f);
        AZK_CHECK(azk_observe_both(g, cs, f[0], f[1], m ? memo : NULL) == len);
        for (int s = 0; s < 2; s++) {
            int d = first_diff(r[s], f[s], len);
            if (d >= 0 && diffs++ < 5) fprintf(stderr, "%s: pair (memo %d), seat %d differs at byte %d\n", what, m, s, d);
        }
    }
    compared++;
}

static uint64_t xs(uint64_t *x) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A clone with knowledge scribbled in: seen bits on deck cards, revealed hand
 * cards, a few deck cards moved to the look zone (the encoder only reads). */
static void scribble(azk_game *h, uint64_t *x) {
    for (int p = 0; p < 2; p++) {
        azk_player *pl = &h->pl[p];
        for (int i = 0; i < pl->deck_n; i++)
            if (xs(x) % 4 == 0) h->cards[pl->deck[i]].seen = (uint8_t)(1 + xs(x) % 3);
        for (int i = 0; i < pl->hand_n; i++)
            if (xs(x) % 3 == 0) h->cards[pl->hand[i]].flags |= AZK_CF_REVEALED;
        int look = (int)(xs(x) % 4);
        while (look-- > 0 && pl->deck_n > 0 && pl->look_n < AZK_LOOK_CAP) {
            int c = pl->deck[--pl->deck_n];
            h->cards[c].zone = AZK_Z_LOOK;
            h->cards[c].seen = 0;
            pl->look[pl->look_n++] = (uint8_t)c;
        }
    }
}

static void test_fast_equals_reference(void) {
    const azk_cardset *cs = azk_env_cardset();
    const char *env = getenv("AZK_TEST_GAMES");
    int games = env ? atoi(env) / 20 : 100;
    if (games < 8) games = 8;
    int nd = cs->num_decks;
    azk_game *g = malloc(azk_game_size()), *h = malloc(azk_game_size());
    uint8_t a[2048], b[2048];
    AZK_CHECK(azk_observe_memo(g, cs, 2, a, NULL) == -1 && azk_observe_memo(NULL, cs, 0, a, NULL) == -1);
    AZK_CHECK(azk_observe_both(NULL, cs, a, b, NULL) == -1 && azk_observe_both(g, cs, a, a, NULL) == -1 &&
              azk_observe_both(g, cs, NULL, b, NULL) == -1 && azk_observe_both(g, NULL, a, b, NULL) == -1);
    int32_t legal[4096];
    uint64_t x = 0x9e3779b97f4a7c15ull;
    long long resampled = 0, scribbled = 0;
    azk_obs_memo memo, cmemo; /* one kept along each game (the same memo across games would be stale: new cards) */
    for (int gi = 0; gi < games; gi++) {
        int pair = gi % (nd * nd);
        AZK_CHECK(azk_game_init(g, cs, (uint64_t)gi, pair / nd, pair % nd) == AZK_OK);
        memo.have = 0;
        for (;;) {
            compare_all(g, cs, "game", &memo);
            if (xs(&x) % 8 == 0) { /* definitions shuffled among cards: out of card order */
                azk_game_clone(h, g);
                if (azk_resample(h, cs, (int)(x >> 8) & 1, x) == AZK_OK) {
                    cmemo.have = 0; /* resampling changes definitions */
                    compare_all(h, cs, "resampled", &cmemo);
                    resampled++;
                    for (int k = 0; k < 10 && !azk_is_terminal(h); k++) {
                        int n = azk_legal_actions(h, cs, legal, 4096);
                        if (n <= 0 || azk_step(h, cs, legal[xs(&x) % (uint64_t)n]) != AZK_OK) break;
                        compare_all(h, cs, "resampled, played on", &cmemo);
                    }
                }
            }
            if (xs(&x) % 8 == 0) {
                azk_game_clone(h, g);
                scribble(h, &x);
                cmemo = memo; /* the game's memo: the same cards, other knowledge */
                compare_all(h, cs, "scribbled", &cmemo);
                scribbled++;
            }
            if (azk_is_terminal(g)) break;
            int n = azk_legal_actions(g, cs, legal, 4096);
            AZK_CHECK(n > 0);
            if (n <= 0 || azk_step(g, cs, legal[xs(&x) % (uint64_t)n]) != AZK_OK) break;
        }
    }
    AZK_CHECK_EQ_U64(diffs, 0);
    AZK_CHECK(resampled > games && scribbled > games && compared > 100LL * games);
    printf("fast encoder == reference: %lld positions (%lld resampled, %lld scribbled), %d games\n", compared,
           resampled, scribbled, games);
    free(g);
    free(h);
}

int main(void) {
    AZK_RUN(test_fast_equals_reference);
    return azk_test_summary();
}
