/* obs.c — one player's observation of a position (azuki.h "Observations").
 *
 * A fixed-length uint8 vector in the layout of csrc/azk_obs.def (offsets,
 * kinds and n built here from that file and reported by azk_obs_field*):
 * card identities as definition indices + 1, counts as small integers, flags
 * and the legal-action mask as packed bits. A service layer like export.c:
 * it reads the game and changes nothing.
 *
 * Hidden information (docs/observation.md): what a card is, where it is not
 * public, is written only when azk_card_known says the observer may know it.
 * Counts of hidden zones are public. The observer's own deck appears as a
 * multiset (sorted by definition), never in order; the opponent's unseen
 * cards and its known hand cards likewise. The opponent's prompt options and
 * legal actions are not written (they would show its hand), only that it has
 * a prompt and of which kind.
 *
 * Speed: one memset of the whole observation, then only what is there; the
 * sorted lists are a counting sort (a counter per definition and a bitmap of
 * those counted), no comparison sort. azk_observe_both (game.h) writes both
 * seats' views at once: the public part is computed for one seat and copied
 * to the other with its player rows swapped, and one pass over each deck
 * serves its owner's view and the opponent's.
 */
#include "game.h"

#define AZK_OBS_PLACES (2 + 2 * AZK_ROW)                  /* leader, 5 garden, 5 alley, gate */
#define AZK_OBS_GATE (1 + 2 * AZK_ROW)                    /* place 11 */
#define AZK_OBS_PLACE_ROWS (AZK_PLAYERS * AZK_OBS_PLACES) /* side * 12 + place */
#define AZK_FLOW_COUNT_ (AZK_FLOW_OVER + 1)

/* ---- the layout, from azk_obs.def ----------------------------------------- */
/* The fields' total before PAD (AZK_OBS_PAD_ = 0 in this pass), then PAD's
 * size: what makes the length a multiple of 8. */
#define AZK_OBS_PAD_ 0
#define AZK_OBS(name, r, c, kind, n, doc) +(r) * (c)
enum { AZK_OBS_UNPADDED_ = 0
#include "azk_obs.def"
};
#undef AZK_OBS
#undef AZK_OBS_PAD_
#define AZK_OBS_PAD_ ((8 - AZK_OBS_UNPADDED_ % 8) % 8)

/* AZK_OO_name: the first byte of field `name`; AZK_OE_name: its last. */
#define AZK_OBS(name, r, c, kind, n, doc) AZK_OO_##name, AZK_OE_##name = AZK_OO_##name + (r) * (c) - 1,
enum azk_obs_offset {
#include "azk_obs.def"
    AZK_OBS_LEN_
};
#undef AZK_OBS

typedef struct azk_obs_slice {
    int offset, rows, cols, kind, n;
    const char *name, *doc;
} azk_obs_slice;

#define AZK_OBS(name, r, c, kind, n, doc) {AZK_OO_##name, (r), (c), AZK_OBSK_##kind, (n), #name, doc},
static const azk_obs_slice obs_fields[] = {
#include "azk_obs.def"
};
#undef AZK_OBS
#define NUM_OBS_FIELDS ((int)(sizeof obs_fields / sizeof obs_fields[0]))

static const char *const obs_kind_names[AZK_OBSK_COUNT] = {"id", "enum", "num", "snum", "bits", "place"};

_Static_assert(AZK_OBS_GATE == AZK_OBS_PLACES - 1, "the gate is the last place");
_Static_assert(AZK_OBS_LEN_ % 8 == 0 && AZK_OBS_LEN_ <= 1536, "the observation is a multiple of 8 bytes, at most 1.5 KB");
_Static_assert(AZK_MAX_CARD_DEFS + 1 <= 255, "an identity is one byte");
_Static_assert(AZK_OBS_PLACE_ROWS + 1 <= 255, "a place is one byte");
_Static_assert(AZK_STI_COUNT <= 16 && AZK_MAX_CARD_ABILITIES <= 8, "PLACE_STATUS is 2 bytes, PLACE_ONCE_USED 1");
_Static_assert(AZK_OE_MASK - AZK_OO_MASK + 1 == (AZK_NUM_ACTIONS_ + 7) / 8, "MASK holds a bit per action");
_Static_assert(AZK_LEGAL_WORDS * 8 >= (AZK_NUM_ACTIONS_ + 7) / 8, "the legal words cover the mask");

int azk_obs_version(void) { return AZK_OBS_VERSION; }
int azk_obs_len(void) { return AZK_OBS_LEN_; }
int azk_obs_num_fields(void) { return NUM_OBS_FIELDS; }
int azk_obs_field(int field, int *offset, int *rows, int *cols, int *kind, int *n) {
    if (field < 0 || field >= NUM_OBS_FIELDS) return -1;
    const azk_obs_slice *f = &obs_fields[field];
    if (offset) *offset = f->offset;
    if (rows) *rows = f->rows;
    if (cols) *cols = f->cols;
    if (kind) *kind = f->kind;
    if (n) *n = f->n;
    return 0;
}
const char *azk_obs_field_name(int field) {
    return field < 0 || field >= NUM_OBS_FIELDS ? NULL : obs_fields[field].name;
}
const char *azk_obs_field_doc(int field) {
    return field < 0 || field >= NUM_OBS_FIELDS ? NULL : obs_fields[field].doc;
}
const char *azk_obs_kind_name(int kind) {
    return kind < 0 || kind >= AZK_OBSK_COUNT ? NULL : obs_kind_names[kind];
}

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

int azk_card_known(const azk_game *g, int player, int card) {
    if (!g || (player != 0 && player != 1) || card < 0 || card >= AZK_NUM_CARDS) return -1;
    return known(g, player, card);
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

/* A multiset of identities, written sorted by definition (a counting sort:
 * a counter per definition, walked 8 counters at a time, skipping empty
 * words), no comparison sort. A definition index is a byte, so any fits a
 * counter; only those below AZK_MAX_CARD_DEFS (all a card set has) are written. */
typedef struct id_bag {
    uint8_t count[256]; /* copies of definition d; bag_clear zeroes them */
} id_bag;
_Static_assert(AZK_MAX_CARD_DEFS <= 128, "the written counters are the first 128");

static inline void bag_add(id_bag *b, const azk_game *g, int c) { b->count[g->cards[c].def]++; }
static inline void bag_clear(id_bag *b) { memset(b->count, 0, sizeof b->count); }

/* Write the bag's identities, sorted, at f[0..cap - 1]; the bytes past them
 * stay as they were (0: the observation was zeroed first). A run of copies
 * is stored 8 bytes at a time while 8 bytes fit in the field; the bytes past
 * the run are written again by the next run or zeroed at the end, never
 * outside the field. The bag keeps its counts. */
static void bag_put(const id_bag *b, uint8_t *f, int cap) {
    int k = 0;
    for (int w = 0; w < AZK_MAX_CARD_DEFS; w += 8) {
        uint64_t m;
        memcpy(&m, b->count + w, 8);
        while (m) { /* the lowest non-zero counter: a definition present */
            int j = __builtin_ctzll(m) >> 3, n = (int)(m >> (8 * j) & 0xff);
            if (w + j >= AZK_MAX_CARD_DEFS) break; /* not a definition of any set: never written */
            m &= ~(0xffull << (8 * j));
            uint64_t run = 0x0101010101010101ull * (uint64_t)(w + j + 1);
            for (; n > 0 && k + 8 <= cap; n -= 8) {
                memcpy(f + k, &run, 8);
                k += n < 8 ? n : 8;
            }
            for (; n > 0 && k < cap; n--) f[k++] = (uint8_t)(w + j + 1);
        }
    }
    int end = k + 8 < cap ? k + 8 : cap; /* what the last 8-byte store wrote past the runs */
    if (k < end) memset(f + k, 0, (size_t)(end - k));
}

/* one place: card c of player p (side 0 me, 1 the opponent) at `place` */
static inline void put_place(const azk_game *g, const azk_cardset *cs, uint8_t *o, int row, int place, int c) {
    const azk_card *k = &g->cards[c];
    o[AZK_OO_PLACE_CARD + row] = card_id(g, c);
    o[AZK_OO_PLACE_DAMAGE + row] = num8(k->damage);
    o[AZK_OO_PLACE_FLAGS + row] = (uint8_t)(((k->flags & AZK_CF_TAPPED) ? 1 : 0) | ((k->flags & AZK_CF_COOLDOWN) ? 2 : 0));
    o[AZK_OO_PLACE_ONCE_USED + row] = k->once_used;
    unsigned st = azk_status_of(g, cs, c);
    o[AZK_OO_PLACE_STATUS + 2 * row] = (uint8_t)(st & 0xff);
    o[AZK_OO_PLACE_STATUS + 2 * row + 1] = (uint8_t)(st >> 8 & 0xff);
    if (place == AZK_OBS_GATE) return; /* a gate has no stats and holds nothing */
    azk_field_stat fs; /* attack, health and weapons in one walk (query.c) */
    azk_field_stats(g, cs, c, &fs);
    o[AZK_OO_PLACE_ATTACK + row] = snum8(fs.attack);
    o[AZK_OO_PLACE_HEALTH + row] = num8(fs.health);
    if (place > AZK_ROW) return; /* alley entities hold no weapons */
    o[AZK_OO_PLACE_WEAPONS + row] = num8(fs.weapons);
    o[AZK_OO_PLACE_WEAPON_BONUS + row] = snum8(fs.weapon_bonus);
}

/* ---- the observation -------------------------------------------------------- */
/* Fields whose two halves are player rows (row 0 me, row 1 the opponent, or
 * side * 12 + place): public, so the other seat's bytes are these with the
 * halves swapped (SIDED_FIELDS). The common fields are the same for both
 * seats; every other field is private to its seat. */
#define SIDED_FIELDS(X)                                                                                              \
    X(HAND_N) X(DECK_N) X(DISCARD_N) X(IKZ_UNTAPPED) X(IKZ_TAPPED) X(IKZ_PILE_N) X(LOOK_N) X(PLAYED_ENTITIES)        \
    X(WEAPONS_N) X(TOKEN) X(MULLIGAN_DONE) X(PLACE_CARD) X(PLACE_ATTACK) X(PLACE_HEALTH) X(PLACE_DAMAGE)            \
    X(PLACE_FLAGS) X(PLACE_STATUS) X(PLACE_WEAPONS) X(PLACE_WEAPON_BONUS) X(PLACE_ONCE_USED) X(DISCARD)
#define COMMON_FIELDS(X) X(PHASE) X(STEP) X(TURN) X(TURN_FRAC) X(DECISIONS_FRAC) X(PROMPT_KIND)

/* The public part of the view of seat `me` (the decision, counts, the field,
 * discard piles): the same facts for both seats, sides swapped. */
static void encode_public(const azk_game *g, const azk_cardset *cs, int me, uint8_t *o) {
    int opp = 1 - me;
    o[AZK_OO_PHASE] = g->phase;
    o[AZK_OO_STEP] = g->flow;
    o[AZK_OO_TURN] = num8(g->turn);
    o[AZK_OO_TURN_FRAC] = frac127(g->turn, g->turn_cap);
    o[AZK_OO_DECISIONS_FRAC] = frac127(g->decisions, g->decision_cap);
    if (g->phase == AZK_PHASE_PROMPT && g->prompt.kind < AZK_PK_COUNT)
        o[AZK_OO_PROMPT_KIND] = (uint8_t)(1 + g->prompt.kind);
    for (int s = 0; s < AZK_PLAYERS; s++) {
        int p = s == 0 ? me : opp;
        const azk_player *pl = &g->pl[p];
        o[AZK_OO_HAND_N + s] = num8(pl->hand_n);
        o[AZK_OO_DECK_N + s] = num8(pl->deck_n);
        o[AZK_OO_DISCARD_N + s] = num8(pl->discard_n);
        o[AZK_OO_IKZ_UNTAPPED + s] = num8(g->ikz_untapped[p]);
        o[AZK_OO_IKZ_TAPPED + s] = num8(pl->ikz_area_n - g->ikz_untapped[p]);
        o[AZK_OO_IKZ_PILE_N + s] = num8(pl->ikz_pile_n);
        o[AZK_OO_LOOK_N + s] = num8(pl->look_n);
        o[AZK_OO_PLAYED_ENTITIES + s] = num8(pl->played_entities);
        o[AZK_OO_WEAPONS_N + s] = num8(pl->weapons_n);
        uint8_t tz = pl->token < AZK_NUM_CARDS ? g->cards[pl->token].zone : AZK_Z_ASIDE;
        o[AZK_OO_TOKEN + s] = (uint8_t)(tz == AZK_Z_IKZ_AREA ? 1 : tz == AZK_Z_OUT ? 2 : 0);
        o[AZK_OO_MULLIGAN_DONE + s] = pl->mulligan_done != 0;
        /* the occupied places only (the occ hint, game.h: exact, checked), then the gate */
        for (unsigned m = g->occ[p]; m; m &= m - 1) {
            int place = __builtin_ctz(m), c = azk_place_card(pl, place);
            if (c < AZK_NUM_CARDS) put_place(g, cs, o, s * AZK_OBS_PLACES + place, place, c);
        }
        if (pl->gate < AZK_NUM_CARDS) put_place(g, cs, o, s * AZK_OBS_PLACES + AZK_OBS_GATE, AZK_OBS_GATE, pl->gate);
        /* public, in pile order */
        for (int i = 0; i < pl->discard_n && i < AZK_DISCARD_CAP; i++)
            o[AZK_OO_DISCARD + s * AZK_DISCARD_CAP + i] = card_id(g, pl->discard[i]);
    }
}

/* The other seat's public part from seat a's: common bytes copied, sided
 * fields with their halves swapped (sizes known here: inlined moves). */
static void mirror_public(const uint8_t *a, uint8_t *b) {
#define COPY_(name) memcpy(b + AZK_OO_##name, a + AZK_OO_##name, AZK_OE_##name - AZK_OO_##name + 1);
#define SWAP_(name)                                                                                                  \
    do {                                                                                                             \
        enum { off_ = AZK_OO_##name, half_ = (AZK_OE_##name - AZK_OO_##name + 1) / 2 };                              \
        _Static_assert((AZK_OE_##name - AZK_OO_##name + 1) % 2 == 0, #name " has two halves");                        \
        memcpy(b + off_, a + off_ + half_, half_);                                                                   \
        memcpy(b + off_ + half_, a + off_, half_);                                                                   \
    } while (0);
    COMMON_FIELDS(COPY_)
    SIDED_FIELDS(SWAP_)
#undef COPY_
#undef SWAP_
}

/* What seat `me` alone sees of the decision: who decides, the result from
 * its side, flags, the attack's places, the prompt as it may know it, its
 * hand and its legal actions. */
static void encode_seat(const azk_game *g, const azk_cardset *cs, int me, int placing, uint8_t *o) {
    int dec = azk_current_player(g);
    o[AZK_OO_DECIDER] = (uint8_t)(dec < 0 ? 2 : dec == me ? 0 : 1);
    unsigned flags = (g->active == me ? 1u : 0u) | (g->first_player == me ? 2u : 0u);
    switch (g->result) {
    case AZK_RES_WIN_P0: o[AZK_OO_RESULT] = me == 0 ? 1 : 2; break;
    case AZK_RES_WIN_P1: o[AZK_OO_RESULT] = me == 1 ? 1 : 2; break;
    case AZK_RES_DRAW: o[AZK_OO_RESULT] = 3; break;
    case AZK_RES_TRUNCATED: o[AZK_OO_RESULT] = 4; break;
    default: break;
    }

    /* my hand in canonical order, what each card costs now (cost modifiers, rules §18.4) */
    const azk_player *mp = &g->pl[me];
    for (int i = 0; i < mp->hand_n && i < AZK_HAND_CAP; i++) {
        o[AZK_OO_HAND_CARD + i] = card_id(g, mp->hand[i]);
        o[AZK_OO_HAND_COST + i] = num8(azk_cost_of(g, cs, mp->hand[i]));
    }

    /* combat: places of the attacker and the target while they are the same objects */
    if (g->in_attack) {
        flags |= 4u | (g->defender_used ? 8u : 0u);
        if (g->attacker < AZK_NUM_CARDS && g->cards[g->attacker].incarnation == g->attacker_inc) {
            int r = place_row(g, me, g->attacker);
            if (r >= 0) o[AZK_OO_ATTACKER] = (uint8_t)(1 + r);
        }
        if (g->target < AZK_NUM_CARDS && g->cards[g->target].incarnation == g->target_inc) {
            int r = place_row(g, me, g->target);
            if (r >= 0) o[AZK_OO_TARGET] = (uint8_t)(1 + r);
        }
    }

    /* the pending prompt: its kind for both (encode_public), its options for its chooser */
    if (g->phase == AZK_PHASE_PROMPT) {
        const azk_prompt *q = &g->prompt;
        if (g->vm.active && g->vm.source < AZK_NUM_CARDS) {
            int src = g->vm.source;
            o[AZK_OO_PROMPT_SOURCE_SIDE] = g->vm.controller == me ? 1 : 2;
            if (known(g, me, src)) o[AZK_OO_PROMPT_SOURCE_CARD] = card_id(g, src);
        }
        if (placing >= 0 && known(g, me, placing)) o[AZK_OO_PROMPT_PLACING_CARD] = card_id(g, placing);
        if (q->chooser == me) {
            int n = q->n < AZK_MAX_OPTIONS ? q->n : AZK_MAX_OPTIONS;
            int place_owner = placing >= 0 ? g->cards[placing].owner : q->chooser;
            int place_side = place_owner == me ? 0 : 1;
            flags |= 16u | (q->optional ? 32u : 0u);
            o[AZK_OO_PROMPT_N] = (uint8_t)n;
            for (int i = 0; i < n; i++) {
                int v = q->opt[i], place = -1;
                switch (q->kind) {
                case AZK_PK_CARD:
                case AZK_PK_BOTTOM_ORDER:
                case AZK_PK_SEARCH:
                case AZK_PK_TOP_ORDER:
                    if (v >= AZK_NUM_CARDS) break;
                    /* a searcher sees the matching cards of its own deck (docs/rules.md §17.1) */
                    if (q->kind == AZK_PK_SEARCH || known(g, me, v)) o[AZK_OO_OPT_CARD + i] = card_id(g, v);
                    o[AZK_OO_OPT_SIDE + i] = g->cards[v].owner == me ? 1 : 2;
                    if (g->cards[v].zone < AZK_Z_COUNT) o[AZK_OO_OPT_ZONE + i] = (uint8_t)(1 + g->cards[v].zone);
                    {
                        int r = place_row(g, me, v);
                        if (r >= 0) o[AZK_OO_OPT_PLACE + i] = (uint8_t)(1 + r);
                    }
                    break;
                case AZK_PK_SLOT: place = v >= 8 ? 1 + AZK_ROW + (v & 7) : 1 + v; break;
                case AZK_PK_HOLDER: place = v; break;
                case AZK_PK_NUMBER: o[AZK_OO_OPT_NUMBER + i] = num8(v); break;
                case AZK_PK_YES_NO: o[AZK_OO_OPT_NUMBER + i] = v != 0; break;
                case AZK_PK_MODE: o[AZK_OO_OPT_NUMBER + i] = num8(v); break; /* the mode index */
                default: break;
                }
                if (place >= 0 && place < AZK_OBS_PLACES) {
                    o[AZK_OO_OPT_SIDE + i] = (uint8_t)(1 + place_side);
                    o[AZK_OO_OPT_PLACE + i] = (uint8_t)(1 + place_side * AZK_OBS_PLACES + place);
                }
            }
        }
    }
    o[AZK_OO_FLAGS] = (uint8_t)flags;

    /* the legal actions, for their decider only (they would show a hidden
     * hand): each non-empty 64-bit word is 8 bytes of the packed mask, LSB first */
    if (dec == me)
        for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
            int w = __builtin_ctz(ws);
            uint64_t b = g->legal[w];
            for (int k = 0; k < 8 && 8 * w + k < AZK_OE_MASK - AZK_OO_MASK + 1; k++)
                o[AZK_OO_MASK + 8 * w + k] = (uint8_t)(b >> (8 * k));
        }
}

/* The lists of identities whose order is hidden, of player p's cards, in
 * the words of docs/observation.md: p's deck (p's DECK), the cards of p the
 * other seat q cannot know (q's OPP_UNSEEN: p's deck less the cards q knows
 * where they lie, p's hand cards q may not know, p's looked-at cards), p's
 * hand cards q knows (q's OPP_HAND_KNOWN), p's looked-at cards (p's LOOK). */
enum { LIST_DECK, LIST_UNSEEN, LIST_KNOWN, LIST_LOOK };

/* The cards of list `which` (a card is in one zone: no repeats). */
static int list_cards(const azk_game *g, int p, int which, uint8_t *out) {
    const azk_player *pl = &g->pl[p];
    int q = 1 - p, n = 0;
    if (which == LIST_DECK || which == LIST_UNSEEN)
        for (int i = 0; i < pl->deck_n && i < AZK_DECK_CAP; i++)
            if (which == LIST_DECK || !(g->cards[pl->deck[i]].seen >> q & 1)) out[n++] = pl->deck[i];
    if (which == LIST_UNSEEN || which == LIST_KNOWN)
        for (int i = 0; i < pl->hand_n; i++)
            if (known(g, q, pl->hand[i]) == (which == LIST_KNOWN)) out[n++] = pl->hand[i];
    if (which == LIST_UNSEEN || which == LIST_LOOK)
        for (int i = 0; i < pl->look_n; i++) out[n++] = pl->look[i];
    return n;
}

/* Write list `which` sorted by definition at f[0..cap - 1] (the rest stays
 * 0). `set`: the same cards as bits c - base (the fast path), valid when
 * `fits` (every card of the list is one of base .. base + 63). A deck list's
 * main deck is stored sorted (cardset.c), so p's cards in index order are
 * usually in definition order already: then the sorted list is the set's
 * bits in order. Else (a resampled game, a set position) a counting sort. */
static void put_list(const azk_game *g, int p, int which, uint64_t set, int fits, uint8_t *f, int cap) {
    int base = p * AZK_CARDS_PER_PLAYER, k = 0;
    if (fits) {
        int prev = 0;
        for (; set && k < cap; set &= set - 1) {
            int d = g->cards[base + __builtin_ctzll(set)].def;
            if (d < prev || d >= AZK_MAX_CARD_DEFS) break; /* out of order: sort */
            f[k++] = (uint8_t)(d + 1);
            prev = d;
        }
        if (!set) return;
        memset(f, 0, (size_t)k); /* (a list longer than cap is sorted in full, as below) */
    }
    uint8_t cards[AZK_NUM_CARDS];
    int n = list_cards(g, p, which, cards);
    id_bag bag;
    bag_clear(&bag);
    for (int i = 0; i < n; i++) bag_add(&bag, g, cards[i]);
    bag_put(&bag, f, cap);
}

/* put_list through the memo (NULL: none): list `which` (LIST_DECK or
 * LIST_UNSEEN) of player p from the same set as last time is the same
 * bytes. Only sets that fit are kept: their bytes depend on nothing else
 * but the cards' definitions (the memo's owner drops it when those may
 * change). */
_Static_assert(AZK_OE_DECK - AZK_OO_DECK + 1 == AZK_DECK_CAP && AZK_OE_OPP_UNSEEN - AZK_OO_OPP_UNSEEN + 1 == AZK_DECK_CAP,
               "a memo entry is a whole DECK or OPP_UNSEEN field");
static void put_list_memo(const azk_game *g, int p, int which, uint64_t set, int fits, uint8_t *f, int cap,
                          azk_obs_memo *memo) {
    int slot = 2 * p + (which == LIST_UNSEEN);
    if (memo && fits && (memo->have >> slot & 1) && memo->set[slot] == set) {
        memcpy(f, memo->bytes[slot], AZK_DECK_CAP);
        return;
    }
    put_list(g, p, which, set, fits, f, cap);
    if (!memo || !fits) return;
    memcpy(memo->bytes[slot], f, AZK_DECK_CAP);
    memo->set[slot] = set;
    memo->have |= (uint8_t)(1u << slot);
}

/* What the cards of player p's deck, hand and look zone tell: to p (o[p]:
 * DECK, DECK_TOP, DECK_OPP_KNOWS, LOOK) and to the other seat q (o[q]:
 * OPP_DECK_TOP, OPP_UNSEEN, OPP_HAND_KNOWN); o[s] NULL: not wanted. One
 * pass over the deck serves both: p's deck less what q knows of it is q's
 * unseen part. The lists are built as sets of p's cards (put_list). */
static void encode_cards_of(const azk_game *g, int p, uint8_t *const o[2], azk_obs_memo *memo) {
    int q = 1 - p, base = p * AZK_CARDS_PER_PLAYER;
    const azk_player *pl = &g->pl[p];
    uint8_t *op = o[p], *oq = o[q];
    uint64_t deck = 0, seen_q = 0;
    unsigned outside = 0; /* a card not among base .. base + 63: sets cannot hold it */
    for (int i = 0; i < pl->deck_n && i < AZK_DECK_CAP; i++) { /* deck[0] is the bottom */
        int c = pl->deck[i];
        unsigned b = (unsigned)(c - base);
        outside |= b >> 6;
        deck |= 1ull << (b & 63);
        unsigned seen = g->cards[c].seen;
        if (!seen) continue; /* nobody knows it: the common case */
        int top = pl->deck_n - 1 - i;
        if (seen >> q & 1) {
            seen_q |= 1ull << (b & 63);
            if (oq) oq[AZK_OO_OPP_DECK_TOP + top] = card_id(g, c); /* what q knows of p's deck */
        }
        if (!op) continue;
        if (seen >> p & 1) op[AZK_OO_DECK_TOP + top] = card_id(g, c); /* (docs/rules.md §17.5) */
        if (seen >> q & 1) set_bit(op, AZK_OO_DECK_OPP_KNOWS, top);
    }
    if (op) put_list_memo(g, p, LIST_DECK, deck, !outside, op + AZK_OO_DECK, AZK_DECK_CAP, memo);
    uint64_t look = 0;
    unsigned look_out = 0;
    for (int i = 0; i < pl->look_n; i++) {
        unsigned b = (unsigned)(pl->look[i] - base);
        look_out |= b >> 6;
        look |= 1ull << (b & 63);
    }
    if (op && pl->look_n) put_list(g, p, LIST_LOOK, look, !look_out, op + AZK_OO_LOOK, AZK_LOOK_CAP);
    if (!oq) return;
    uint64_t unseen = (deck & ~seen_q) | look, known_set = 0;
    unsigned unseen_out = outside | look_out, known_out = 0;
    for (int i = 0; i < pl->hand_n; i++) {
        int c = pl->hand[i];
        unsigned b = (unsigned)(c - base);
        if (known(g, q, c)) {
            known_out |= b >> 6;
            known_set |= 1ull << (b & 63);
        } else {
            unseen_out |= b >> 6;
            unseen |= 1ull << (b & 63);
        }
    }
    put_list_memo(g, p, LIST_UNSEEN, unseen, !unseen_out, oq + AZK_OO_OPP_UNSEEN, AZK_DECK_CAP, memo);
    if (known_set | known_out) put_list(g, p, LIST_KNOWN, known_set, !known_out, oq + AZK_OO_OPP_HAND_KNOWN, AZK_HAND_CAP);
}

/* The observations of seat 0 (o[0]) and seat 1 (o[1]); NULL: not wanted.
 * The public part is computed once, from the first seat wanted, and
 * mirrored to the other. */
static void encode(const azk_game *g, const azk_cardset *cs, uint8_t *const o[2], azk_obs_memo *memo) {
    int a = o[0] ? 0 : 1, b = 1 - a;
    for (int s = 0; s < AZK_PLAYERS; s++)
        if (o[s]) memset(o[s], 0, AZK_OBS_LEN_);
    encode_public(g, cs, a, o[a]);
    if (o[b]) mirror_public(o[a], o[b]);
    int placing = g->phase == AZK_PHASE_PROMPT ? azk_placing_card(g, cs) : -1;
    for (int s = 0; s < AZK_PLAYERS; s++) {
        if (o[s]) encode_seat(g, cs, s, placing, o[s]);
        encode_cards_of(g, s, o, memo);
    }
}

int azk_observe(const azk_game *g, const azk_cardset *cs, int me, uint8_t *o) {
    return azk_observe_memo(g, cs, me, o, NULL);
}

int azk_observe_memo(const azk_game *g, const azk_cardset *cs, int me, uint8_t *o, azk_obs_memo *memo) {
    if (!g || !cs || !o || (me != 0 && me != 1)) return -1;
    uint8_t *out[2] = {NULL, NULL};
    out[me] = o;
    encode(g, cs, out, memo);
    return AZK_OBS_LEN_;
}

int azk_observe_both(const azk_game *g, const azk_cardset *cs, uint8_t *o0, uint8_t *o1, azk_obs_memo *memo) {
    if (!g || !cs || !o0 || !o1 || o0 == o1) return -1;
    uint8_t *out[2] = {o0, o1};
    encode(g, cs, out, memo);
    return AZK_OBS_LEN_;
}

/* ---- information-set sampling ------------------------------------------------ */
#define AZK_RESAMPLE_STREAM 0x7e5a3b1eULL /* PCG stream of azk_resample's generator */

/* Zones (bits 1 << zone) of player p that hold a card the pending work names:
 * the effect VM's frame, the trigger queue, the prompt's card options. */
static unsigned pinned_zones(const azk_game *g, int p) {
    unsigned z = 0;
#define PIN(c)                                                                                           \
    do {                                                                                                 \
        int c_ = (c);                                                                                    \
        if (c_ < AZK_NUM_CARDS && g->cards[c_].owner == p) z |= 1u << g->cards[c_].zone;                 \
    } while (0)
    if (g->vm.active) {
        PIN(g->vm.source);
        PIN(g->vm.ctx_card);
        PIN(g->vm.spell_card);
        for (int i = 0; i < AZK_TREGS; i++) PIN(g->vm.t[i]);
        for (int i = 0; i < g->vm.each_n && i < AZK_MAX_EACH; i++) PIN(g->vm.each[i]);
    }
    for (int d = 0; d < g->vm_depth && d < AZK_VM_DEPTH - 1; d++) { /* suspended frames */
        const azk_vm_frame *sf = &g->vm_saved[d];
        PIN(sf->source);
        PIN(sf->ctx_card);
        PIN(sf->spell_card);
        for (int i = 0; i < AZK_TREGS; i++) PIN(sf->t[i]);
        for (int i = 0; i < sf->each_n && i < AZK_MAX_EACH; i++) PIN(sf->each[i]);
    }
    for (int i = 0; i < g->trig_n && i < AZK_MAX_TRIGGERS; i++) {
        PIN(g->trig[i].source);
        PIN(g->trig[i].ctx_card);
    }
    if (g->phase == AZK_PHASE_PROMPT && (g->prompt.kind == AZK_PK_CARD || g->prompt.kind == AZK_PK_BOTTOM_ORDER ||
                                         g->prompt.kind == AZK_PK_SEARCH || g->prompt.kind == AZK_PK_TOP_ORDER))
        for (int i = 0; i < g->prompt.n && i < AZK_MAX_OPTIONS; i++) PIN(g->prompt.opt[i]);
#undef PIN
    return z;
}

/* The cards of player p whose identities `me` cannot know and the
 * resampler may redistribute (index list into pool, returns the count): p's
 * deck, and for the opponent its unknown hand cards and looked-at cards;
 * a zone holding a card the pending work names stays as it is. The search
 * bot's canonical view (bot.c) uses the same pool. */
int azk_hidden_pool(const azk_game *g, int me, int p, uint8_t *pool) {
    const azk_player *pl = &g->pl[p];
    unsigned pinned = pinned_zones(g, p);
    int n = 0;
    if (!(pinned & (1u << AZK_Z_DECK)))
        for (int i = 0; i < pl->deck_n; i++)
            if (!known(g, me, pl->deck[i])) pool[n++] = pl->deck[i]; /* a place `me` chose stays */
    if (p != me) {
        if (!(pinned & (1u << AZK_Z_HAND)))
            for (int i = 0; i < pl->hand_n; i++)
                if (!known(g, me, pl->hand[i])) pool[n++] = pl->hand[i];
        if (!(pinned & (1u << AZK_Z_LOOK)))
            for (int i = 0; i < pl->look_n; i++) pool[n++] = pl->look[i];
    }
    return n;
}

/* Shuffle the definitions of the n cards idx[0..n-1] among themselves. */
static void shuffle_defs(azk_game *g, azk_rng *r, const uint8_t *idx, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)azk_rng_bounded(r, (uint32_t)i + 1);
        uint8_t t = g->cards[idx[i]].def;
        g->cards[idx[i]].def = g->cards[idx[j]].def;
        g->cards[idx[j]].def = t;
    }
}

/* Put a hand back in canonical order (definition, then card index). */
void azk_sort_hand(azk_game *g, azk_player *pl) {
    for (int i = 1; i < pl->hand_n; i++) {
        uint8_t c = pl->hand[i];
        int j = i;
        while (j > 0) {
            const azk_card *o = &g->cards[pl->hand[j - 1]];
            if (o->def < g->cards[c].def || (o->def == g->cards[c].def && pl->hand[j - 1] < c)) break;
            pl->hand[j] = pl->hand[j - 1];
            j--;
        }
        pl->hand[j] = c;
    }
    for (int i = 0; i < pl->hand_n; i++) g->cards[pl->hand[i]].pos = (uint8_t)i;
}

azk_status azk_resample(azk_game *g, const azk_cardset *cs, int player, uint64_t seed) {
    if (!g || !cs || (player != 0 && player != 1) || g->result != AZK_RES_ONGOING) return AZK_ERR_ARG;
    azk_rng r;
    azk_rng_seed(&r, seed, AZK_RESAMPLE_STREAM);
    uint8_t pool[AZK_NUM_CARDS];
    for (int k = 0; k < AZK_PLAYERS; k++) {
        int p = k == 0 ? player : 1 - player;
        int n = azk_hidden_pool(g, player, p, pool);
        shuffle_defs(g, &r, pool, n);
        azk_sort_hand(g, &g->pl[p]);
    }
    azk_rng_seed(&g->rng, azk_rng_next(&r) | (uint64_t)azk_rng_next(&r) << 32, AZK_GAME_RNG_STREAM);
    azk_refresh_legal(g, cs);
    return AZK_OK;
}
