/* actions.c — the flat action space and the exact legal-action set (DESIGN §3).
 *
 * The flat space is the concatenation, in azk_actions.def order, of one
 * p0 x p1 block per action type; encode/decode are derived from those sizes
 * only and are exact inverses. azk_enumerate lists the legal actions in
 * ascending flat order; it is the single definition of legality: the mask,
 * the legal list, step validation and the one-answer rule all use it, so they
 * cannot disagree.
 *
 * Layer (csrc/layers.def): reads the game through the pure queries
 * (query.c: costs, statuses, requirements) only; the turn machine (engine.c)
 * and the services above use it.
 */
#include "game.h"
#include "action_space.h"

/* Legality of activated abilities (docs/rules.md §8): the enumeration below
 * and nothing else asks it. */
/* Can activated ability `ab` (absolute index) of card `c` be used now?
 * `untapped_ikz` is azk_untapped_ikz of c's owner (the caller has it). */
int azk_ability_usable(const azk_game *g, const azk_cardset *cs, int c, int ab_index, int untapped_ikz) {
    const azk_ability *ab = &cs->abilities[ab_index];
    const azk_card *k = &g->cards[c];
    int p = k->owner;
    int rel = ab_index - azk_def(cs, g, c)->ability_first;
    if (ab->kind != AZK_AB_ACTIVATED) return 0;
    if (!(k->zone == AZK_Z_LEADER || k->zone == AZK_Z_GATE || k->zone == AZK_Z_GARDEN || k->zone == AZK_Z_ALLEY))
        return 0;
    if (!azk_zone_allows(g, c, ab->flags)) return 0;
    if (azk_granted_status(g, c) & AZK_ST_FROZEN) return 0;
    if ((ab->flags & AZK_ABF_ONCE_PER_TURN) && (k->once_used & (1u << rel))) return 0;
    if (ab->ikz_cost > untapped_ikz) return 0;
    if (ab->flags & AZK_ABF_TAP_COST) {
        if (k->flags & AZK_CF_TAPPED) return 0;
        if ((k->flags & AZK_CF_COOLDOWN) && !(ab->flags & AZK_ABF_IGNORES_COOLDOWN)) return 0;
    }
    if (ab->requirement != AZK_NO_PC && !azk_vm_condition(g, cs, ab->requirement, c, p)) return 0;
    return 1;
}

int azk_num_actions(void) { return AZK_NUM_ACTIONS_; }

int azk_encode(int type, int p0, int p1) {
    if (type < 0 || type >= AZK_ACT_COUNT) return -1;
    if (p0 < 0 || p0 >= P0_SIZE[type] || p1 < 0 || p1 >= P1_SIZE[type]) return -1;
    return BASE[type] + p0 * P1_SIZE[type] + p1;
}

int azk_decode(int action, int *type, int *p0, int *p1) { return azk_decode_inline(action, type, p0, p1); }

/* ---- legality helpers ---------------------------------------------------- */
static int first_of_copies(const azk_game *g, const azk_player *pl, int i) {
    return i == 0 || g->cards[pl->hand[i - 1]].def != g->cards[pl->hand[i]].def;
}


static int spell_playable(const azk_game *g, const azk_cardset *cs, int c, int response) {
    const azk_card_def *d = azk_def(cs, g, c);
    if (d->card_type != AZK_CT_SPELL) return 0;
    int ab = cs->facts[g->cards[c].def].spell_ability;
    if (ab == AZK_NO_ABILITY) ab = -1;
    int is_response = ab >= 0 && (cs->abilities[ab].flags & AZK_ABF_RESPONSE);
    if (is_response != response) return 0;
    if (ab >= 0 && cs->abilities[ab].requirement != AZK_NO_PC &&
        !azk_vm_condition(g, cs, cs->abilities[ab].requirement, c, g->cards[c].owner))
        return 0;
    return 1;
}

/* Enumeration sets one bit per legal flat action in a zeroed bit set of
 * AZK_LEGAL_WORDS words and returns the count. A bit set rather than a list
 * because most actions come in runs (one hand card x five slots, one
 * attacker x six targets): a run is one shifted mask, and the legal-action
 * cache (game.h) is a bit set anyway. Every test below is pure, so the order
 * of evaluation does not matter; ascending flat order falls out of the bit
 * positions. */
typedef struct bits {
    uint64_t *w;
    uint32_t words; /* bit i: w[i] != 0 */
    int n;
} bits;

/* Set `m` (a run of at most 64 bits, `count` of them set) at flat position
 * `pos`; the run may straddle two words. Callers pass the count because the
 * portable build has no popcount instruction. */
static inline void emit(bits *b, int pos, uint64_t m, int count) {
    if (!m) return;
    int wi = pos >> 6, off = pos & 63;
    if (m << off) { /* words records only non-zero words */
        b->w[wi] |= m << off;
        b->words |= 1u << wi;
    }
    if (off && (m >> (64 - off))) {
        b->w[wi + 1] |= m >> (64 - off);
        b->words |= 2u << wi;
    }
    b->n += count;
}
static inline void emit1(bits *b, int pos) { emit(b, pos, 1, 1); }

/* Set bits of a slot run (at most 6 bits: leader + five slots). A table, not
 * a loop: the portable build has no popcount instruction. */
static const uint8_t POP6[64] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
};
_Static_assert(AZK_ROW + 1 <= 6, "slot runs fit the POP6 table");
static inline int bit_count(unsigned m) { return POP6[m & 63]; }

#define AT(t, a, b) (BASE[t] + (a) * P1_SIZE[t] + (b))


/* Activated abilities of the cards on `me`'s field. `field` is the act_src
 * hint (game.h): bit code set for each place (code 0 leader, 1..5 garden,
 * 6..10 alley) holding a card with an activated ability, so no other card
 * costs anything. */
static void push_abilities(const azk_game *g, const azk_cardset *cs, int me, int response, int ikz,
                           unsigned field, bits *b) {
    const azk_player *pl = &g->pl[me];
    for (; field; field &= field - 1) {
        int code = __builtin_ctz(field);
        int c = azk_place_card(pl, code);
        const azk_card_def *d = azk_def(cs, g, c);
        int k = 0;
        for (int i = 0; i < d->ability_count && k < AZK_MAX_ACTIVATED; i++) {
            const azk_ability *ab = &cs->abilities[d->ability_first + i];
            if (ab->kind != AZK_AB_ACTIVATED) continue;
            int is_response = (ab->flags & AZK_ABF_RESPONSE) != 0;
            if (is_response == response && azk_ability_usable(g, cs, c, d->ability_first + i, ikz))
                emit1(b, AT(AZK_ACT_ACTIVATE_ABILITY, code, k));
            k++;
        }
    }
}

/* Slots an entity may take, given the row's occupied slots: the empty ones,
 * or any (replacement) when the row is full (§2.3). */
static unsigned row_targets(unsigned occupied) {
    unsigned empty = ~occupied & ((1u << AZK_ROW) - 1);
    return empty ? empty : (1u << AZK_ROW) - 1;
}

static void enumerate_main(const azk_game *g, const azk_cardset *cs, bits *b) {
    int me = g->active;
    const azk_player *pl = &g->pl[me];
    const azk_player *op = &g->pl[1 - me];
    int ikz = azk_untapped_ikz(g, me);
    unsigned garden_occ = (g->occ[me] & AZK_CODES_GARDEN) >> 1, alley_occ = (g->occ[me] & AZK_CODES_ALLEY) >> (1 + AZK_ROW);
    unsigned garden_to = row_targets(garden_occ), alley_to = row_targets(alley_occ);
    unsigned holders = 1u | (garden_occ << 1); /* leader, garden slots */
    int garden_to_n = bit_count(garden_to), alley_to_n = bit_count(alley_to), holders_n = bit_count(holders);
    int prev_def = -1;
    /* read once: the loop's stores into b could alias them for the compiler */
    const int cost_mod = (g->cost_src[0] | g->cost_src[1]) != 0;
    const int stealth = (cs->set_facts & AZK_SETF_STEALTH) != 0;
    for (int i = 0; i < pl->hand_n; i++) {
        int c = pl->hand[i], def = g->cards[c].def;
        /* the hand is in canonical order: copies are adjacent, only the first is offered */
        if (def == prev_def) continue;
        prev_def = def;
        const azk_card_def *d = &cs->defs[def];
        /* copies have one cost: a modifier cannot tell them apart (§18.4) */
        if ((__builtin_expect(cost_mod, 0) ? azk_cost_modified(g, cs, c) : d->cost) > ikz) continue;
        switch (d->card_type) {
        case AZK_CT_ENTITY:
            emit(b, AT(AZK_ACT_PLAY_ENTITY_TO_GARDEN, i, 0), garden_to, garden_to_n);
            emit(b, AT(AZK_ACT_PLAY_ENTITY_TO_ALLEY, i, 0), alley_to, alley_to_n);
            break;
        case AZK_CT_WEAPON: emit(b, AT(AZK_ACT_PLAY_WEAPON, i, 0), holders, holders_n); break;
        case AZK_CT_SPELL:
            if (spell_playable(g, cs, c, 0)) emit1(b, AT(AZK_ACT_PLAY_SPELL_MAIN, i, 0));
            break;
        default: break;
        }
    }
    unsigned tapped_targets = 1u; /* the enemy leader, and tapped enemy garden entities */
    for (int s = 0; s < AZK_ROW; s++) {
        int t = op->garden[s];
        if (t != AZK_NONE && (g->cards[t].flags & AZK_CF_TAPPED)) tapped_targets |= 1u << (s + 1);
    }
    if (__builtin_expect(stealth, 0)) /* rules §15.4: stealthed entities cannot be attacked */
        for (int s = 0; s < AZK_ROW; s++)
            if ((tapped_targets >> (s + 1) & 1) && azk_stealthed_from(g, cs, op->garden[s], g->active))
                tapped_targets &= ~(1u << (s + 1));
    int targets_n = bit_count(tapped_targets);
    for (unsigned att = holders; att; att &= att - 1) { /* leader, occupied garden slots */
        int a = __builtin_ctz(att);
        if (azk_can_attack(g, cs, a == 0 ? pl->leader : pl->garden[a - 1]))
            emit(b, AT(AZK_ACT_ATTACK, a, 0), tapped_targets, targets_n);
    }
    if (!(g->cards[pl->gate].flags & AZK_CF_TAPPED) && !(azk_status_of(g, cs, pl->gate) & AZK_ST_FROZEN)) {
        for (int a = 0; a < AZK_ROW; a++) {
            int c = pl->alley[a];
            if (c == AZK_NONE || (g->cards[c].flags & AZK_CF_TAPPED)) continue;
            emit(b, AT(AZK_ACT_PORTAL_GATE, a, 0), garden_to, garden_to_n);
        }
    }
    push_abilities(g, cs, me, 0, ikz, g->act_src[me], b);
    emit1(b, AT(AZK_ACT_END_TURN, 0, 0));
}

/* Response window step (a) (rules §6.2 a, D7): the defender may pass (NO_OP),
 * play a [Response] spell or use a [Response] ability. The flow of the
 * window is in engine.c ("The response window"). */
static void enumerate_response(const azk_game *g, const azk_cardset *cs, bits *b) {
    int me = 1 - g->active;
    const azk_player *pl = &g->pl[me];
    int ikz = azk_untapped_ikz(g, me);
    emit1(b, AT(AZK_ACT_NO_OP, 0, 0));
    for (int i = 0; i < pl->hand_n; i++) {
        const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
        if (d->card_type != AZK_CT_SPELL || azk_cost_of(g, cs, pl->hand[i]) > ikz || !first_of_copies(g, pl, i)) continue;
        if (spell_playable(g, cs, pl->hand[i], 1)) emit1(b, AT(AZK_ACT_PLAY_SPELL_RESPONSE, i, 0));
    }
    push_abilities(g, cs, me, 1, ikz, g->act_src[me], b);
}

/* Response window step (b) (rules §6.2 b): pass, or tap an untapped,
 * non-frozen defender in the garden that is not the current target. */
static void enumerate_defender(const azk_game *g, const azk_cardset *cs, bits *b) {
    int me = 1 - g->active;
    const azk_player *pl = &g->pl[me];
    emit1(b, AT(AZK_ACT_NO_OP, 0, 0));
    for (int s = 0; s < AZK_ROW; s++) {
        int c = pl->garden[s];
        if (c == AZK_NONE || c == g->target || (g->cards[c].flags & AZK_CF_TAPPED)) continue;
        unsigned st = azk_status_of(g, cs, c);
        if ((st & AZK_ST_DEFENDER) && !(st & AZK_ST_FROZEN)) emit1(b, AT(AZK_ACT_DECLARE_DEFENDER, s, 0));
    }
}

/* The legal set as bits into w[0..AZK_LEGAL_WORDS), which must be zero.
 * Returns the number of legal actions; *words gets the non-zero words. */
static int enumerate_bits(const azk_game *g, const azk_cardset *cs, uint64_t *w, uint32_t *words) {
    bits b = {w, 0, 0};
    if (g->result == AZK_RES_ONGOING) {
        switch (g->phase) {
        case AZK_PHASE_MULLIGAN:
            emit1(&b, AT(AZK_ACT_MULLIGAN_KEEP, 0, 0));
            emit1(&b, AT(AZK_ACT_MULLIGAN_SHUFFLE, 0, 0));
            break;
        case AZK_PHASE_PROMPT: /* one run of CHOOSE ids (see the assert above) */
            if (g->prompt.optional) emit1(&b, AT(AZK_ACT_NO_OP, 0, 0));
            emit(&b, AT(AZK_ACT_CHOOSE, 0, 0), g->prompt.n >= 64 ? ~0ull : (1ull << g->prompt.n) - 1, g->prompt.n);
            break;
        case AZK_PHASE_MAIN: enumerate_main(g, cs, &b); break;
        case AZK_PHASE_RESPONSE: enumerate_response(g, cs, &b); break;
        case AZK_PHASE_DEFENDER: enumerate_defender(g, cs, &b); break;
        default: break;
        }
    }
    *words = b.words;
    return b.n;
}

int azk_enumerate(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    uint64_t w[AZK_LEGAL_WORDS] = {0};
    uint32_t words;
    if (cap <= 0) return 0;
    enumerate_bits(g, cs, w, &words);
    int n = 0;
    for (; words; words &= words - 1) {
        int i = __builtin_ctz(words);
        for (uint64_t m = w[i]; m && n < cap; m &= m - 1) out[n++] = i * 64 + __builtin_ctzll(m);
    }
    return n;
}

/* clear only the words that were in use */
/* The empty legal set: a finished game's (azk_advance) and the start of
 * every refresh. Only the words in use are cleared. */
void azk_clear_legal(azk_game *g) {
    for (uint32_t w = g->legal_words; w; w &= w - 1) g->legal[__builtin_ctz(w)] = 0;
    g->legal_words = 0;
    g->legal_n = 0;
}

int azk_refresh_legal(azk_game *g, const azk_cardset *cs) {
    uint32_t words;
    azk_clear_legal(g);
    int n = enumerate_bits(g, cs, g->legal, &words);
    g->legal_words = words;
    g->legal_n = (uint16_t)n;
    return n;
}

/* The three readers below use the cache (see game.h); they are exact because
 * every path that changes the hashed state ends in azk_advance or deserialize,
 * both of which refresh it. */
int azk_legal_actions(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    (void)cs;
    int n = 0;
    if (cap >= g->legal_n) { /* the usual case: no bound to check per action */
        for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
            int w = __builtin_ctz(ws);
            for (uint64_t b = g->legal[w]; b; b &= b - 1) out[n++] = w * 64 + __builtin_ctzll(b);
        }
        return n;
    }
    for (uint32_t ws = g->legal_words; ws && n < cap; ws &= ws - 1) {
        int w = __builtin_ctz(ws);
        for (uint64_t b = g->legal[w]; b && n < cap; b &= b - 1) out[n++] = w * 64 + __builtin_ctzll(b);
    }
    return n;
}

int azk_legal_mask(const azk_game *g, const azk_cardset *cs, uint8_t *mask) {
    (void)cs;
    memset(mask, 0, AZK_NUM_ACTIONS_);
    for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
        int w = __builtin_ctz(ws);
        for (uint64_t b = g->legal[w]; b; b &= b - 1) mask[w * 64 + __builtin_ctzll(b)] = 1;
    }
    return g->legal_n;
}

int azk_is_legal(const azk_game *g, const azk_cardset *cs, int action) {
    (void)cs;
    if (action < 0 || action >= AZK_NUM_ACTIONS_) return 0;
    return (int)((g->legal[action >> 6] >> (action & 63)) & 1u);
}

/* ---- per-head masks (DESIGN §3) -------------------------------------------
 * A factored policy (MultiDiscrete, or autoregressive type -> p0 -> p1) needs
 * one mask per head. They are read from the exact legal set:
 *   type < 0            marginals: m_type[t], m_p0[v], m_p1[w] are 1 when some
 *                       legal action has that type / p0 / p1;
 *   type >= 0, p0 < 0   m_p0 and m_p1 only over legal actions of that type;
 *   type >= 0, p0 >= 0  m_p1 only over legal actions (type, p0, *).
 * m_type is always the marginal. Marginals are not exact jointly (a legal p0
 * of one type may pair with an illegal p1); sampling type, then p0 given the
 * type, then p1 given both always lands on a legal action. */
static int head_max(const int *sizes) {
    int m = 0;
    for (int t = 0; t < AZK_ACT_COUNT; t++) m = sizes[t] > m ? sizes[t] : m;
    return m;
}

int azk_head_size(int head) {
    switch (head) {
    case 0: return AZK_ACT_COUNT;
    case 1: return head_max(P0_SIZE);
    case 2: return head_max(P1_SIZE);
    default: return -1;
    }
}

int azk_head_masks(const azk_game *g, int type, int p0, uint8_t *m_type, uint8_t *m_p0, uint8_t *m_p1) {
    if (type >= AZK_ACT_COUNT || (type < 0 && p0 >= 0) || (type >= 0 && p0 >= P0_SIZE[type])) return -1;
    memset(m_type, 0, (size_t)azk_head_size(0));
    memset(m_p0, 0, (size_t)azk_head_size(1));
    memset(m_p1, 0, (size_t)azk_head_size(2));
    int n = 0;
    for (uint32_t ws = g->legal_words; ws; ws &= ws - 1) {
        int w = __builtin_ctz(ws);
        for (uint64_t b = g->legal[w]; b; b &= b - 1) {
            int t = 0, a0 = 0, a1 = 0;
            azk_decode(w * 64 + __builtin_ctzll(b), &t, &a0, &a1);
            m_type[t] = 1;
            if (type >= 0 && t != type) continue;
            m_p0[a0] = 1;
            if (p0 >= 0 && a0 != p0) continue;
            m_p1[a1] = 1;
            n++;
        }
    }
    return n;
}

/* ---- describing an action (Game.describe) ----------------------------------
 * Each parameter is resolved by the kind azk_actions.def declares for it and
 * nothing else: a new action type with parameters of known kinds is described
 * without code here. */
enum azk_action_param {
#define AZK_ACTION_PARAM(name, doc) AZK_PARAM_##name,
#include "azk_actions.def"
#undef AZK_ACTION_PARAM
    AZK_PARAM_COUNT_
};
static const uint8_t PARAM_KIND[AZK_ACT_COUNT][2] = {
#define AZK_ACTION(name, n0, n1, k0, k1, doc) {AZK_PARAM_##k0, AZK_PARAM_##k1},
#include "azk_actions.def"
#undef AZK_ACTION
};
_Static_assert(AZK_DESCRIBE_LEN == 11, "azuki.h documents the eleven fields of azk_describe");

static int card_or_none(int c) { return c == AZK_NONE ? -1 : c; }

/* The absolute index of the k-th activated ability of card c (the numbering
 * push_abilities uses), or -1. */
static int activated_ability(const azk_game *g, const azk_cardset *cs, int c, int k) {
    if (c < 0) return -1;
    const azk_card_def *d = azk_def(cs, g, c);
    for (int i = 0; i < d->ability_count; i++)
        if (cs->abilities[d->ability_first + i].kind == AZK_AB_ACTIVATED && k-- == 0) return d->ability_first + i;
    return -1;
}

/* How each kind reads, as azk_actions.def declares it (AZK_ACTION_PARAM_READ:
 * form, side, zone): param_card interprets this table and names no kind, as
 * azuki/text.py and words.js do; tests/test_describe.py checks they agree. */
enum azk_param_form {
#define AZK_ACTION_PARAM_FORM(name, doc) AZK_PFORM_##name,
#include "azk_actions.def"
#undef AZK_ACTION_PARAM_FORM
};
enum azk_param_side {
#define AZK_ACTION_PARAM_SIDE(name, doc) AZK_PSIDE_##name,
#include "azk_actions.def"
#undef AZK_ACTION_PARAM_SIDE
};
/* The zone an INDEX parameter indexes: every AZK_ZONE, and NONE (what the
 * .def writes for the other forms) past them. */
enum azk_param_zone {
#define AZK_ZONE(name, doc) AZK_PZONE_##name = AZK_Z_##name,
#include "azk_enums.def"
#undef AZK_ZONE
    AZK_PZONE_NONE = AZK_Z_COUNT
};
static const struct param_read {
    uint8_t form, side, zone;
} PARAM_READ[AZK_PARAM_COUNT_] = {
#define AZK_ACTION_PARAM_READ(kind, form, side, zone, doc) \
    [AZK_PARAM_##kind] = {AZK_PFORM_##form, AZK_PSIDE_##side, AZK_PZONE_##zone},
#include "azk_actions.def"
#undef AZK_ACTION_PARAM_READ
};

/* The card at index v of one of player pl's indexed zones (-1: past its
 * cards, an empty slot, or a zone no parameter can index). */
static int zone_card(const azk_player *pl, int zone, int v) {
    switch (zone) {
    case AZK_Z_DECK: return v < pl->deck_n ? pl->deck[v] : -1;
    case AZK_Z_HAND: return v < pl->hand_n ? pl->hand[v] : -1;
    case AZK_Z_DISCARD: return v < pl->discard_n ? pl->discard[v] : -1;
    case AZK_Z_LOOK: return v < pl->look_n ? pl->look[v] : -1;
    case AZK_Z_GARDEN: return v < AZK_ROW ? card_or_none(pl->garden[v]) : -1;
    case AZK_Z_ALLEY: return v < AZK_ROW ? card_or_none(pl->alley[v]) : -1;
    default: return -1;
    }
}

/* The card parameter value v of kind `kind` names for player `me`, or -1. */
static int param_card(const azk_game *g, int kind, int v, int me) {
    const struct param_read *r = &PARAM_READ[kind];
    const azk_player *pl = &g->pl[r->side == AZK_PSIDE_ENEMY ? 1 - me : me];
    switch (r->form) {
    case AZK_PFORM_INDEX: return zone_card(pl, r->zone, v);
    case AZK_PFORM_PLACE: return v <= 2 * AZK_ROW ? card_or_none(azk_place_card(pl, v)) : -1;
    case AZK_PFORM_OPTION: /* the options that are cards (Game.prompt resolves the others) */
        if (g->phase != AZK_PHASE_PROMPT || v >= g->prompt.n) return -1;
        switch (g->prompt.kind) {
        case AZK_PK_CARD: case AZK_PK_BOTTOM_ORDER: case AZK_PK_SEARCH: case AZK_PK_TOP_ORDER:
            return g->prompt.opt[v];
        default: return -1;
        }
    default: return -1; /* NONE, ABILITY: not a card */
    }
}

int azk_describe(const azk_game *g, const azk_cardset *cs, int action, int32_t *out) {
    int t, p[2];
    if (azk_decode(action, &t, &p[0], &p[1]) != 0) return -1;
    int me = g->result == AZK_RES_ONGOING ? azk_current_player(g) : -1;
    if (me < 0) me = g->active;
    out[0] = t, out[1] = p[0], out[2] = p[1];
    out[3] = PARAM_KIND[t][0], out[4] = PARAM_KIND[t][1];
    out[5] = me;
    int ability = -1;
    for (int i = 0; i < 2; i++) out[6 + i] = param_card(g, PARAM_KIND[t][i], p[i], me);
    for (int i = 0; i < 2; i++) {
        const struct param_read *r = &PARAM_READ[PARAM_KIND[t][i]];
        int c = out[6 + (1 - i)];
        if (r->form == AZK_PFORM_ABILITY) ability = activated_ability(g, cs, c, p[i]);
        /* a spell played from the hand: its spell ability */
        if (r->form == AZK_PFORM_INDEX && r->zone == AZK_PZONE_HAND && out[6 + i] >= 0) {
            int ab = cs->facts[g->cards[out[6 + i]].def].spell_ability;
            if (ab != AZK_NO_ABILITY && azk_def(cs, g, out[6 + i])->card_type == AZK_CT_SPELL) ability = ab;
        }
    }
    /* every answer to a prompt answers the ability that asks it */
    if (g->phase == AZK_PHASE_PROMPT && g->vm.active) ability = g->vm.ability;
    out[8] = ability;
    out[9] = out[10] = -1;
    for (int d = 0; ability >= 0 && d < cs->num_defs; d++) /* whose ability (the card data names it) */
        if (ability >= cs->defs[d].ability_first && ability < cs->defs[d].ability_first + cs->defs[d].ability_count) {
            out[9] = d, out[10] = ability - cs->defs[d].ability_first;
            break;
        }
    return 0;
}
