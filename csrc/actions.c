/* actions.c — the flat action space and the exact legal-action set (DESIGN §3).
 *
 * The flat space is the concatenation, in azk_actions.def order, of one
 * p0 x p1 block per action type; encode/decode are derived from those sizes
 * only and are exact inverses. azk_enumerate lists the legal actions in
 * ascending flat order; it is the single definition of legality: the mask,
 * the legal list, step validation and the one-answer rule all use it, so they
 * cannot disagree.
 */
#include "game.h"

#define AZK_ACTION(name, n0, n1, doc) (n0),
static const int P0_SIZE[AZK_ACT_COUNT] = {
#include "azk_actions.def"
};
#undef AZK_ACTION
#define AZK_ACTION(name, n0, n1, doc) (n1),
static const int P1_SIZE[AZK_ACT_COUNT] = {
#include "azk_actions.def"
};
#undef AZK_ACTION
#define AZK_ACTION(name, n0, n1, doc) AZK_BASE_##name, AZK_BASE_END_##name = AZK_BASE_##name + (n0) * (n1) - 1,
enum azk_action_base {
#include "azk_actions.def"
    AZK_BASE_TOTAL_
};
#undef AZK_ACTION
_Static_assert((int)AZK_BASE_TOTAL_ == (int)AZK_NUM_ACTIONS_, "bases tile the flat space");

static const int BASE[AZK_ACT_COUNT] = {
#define AZK_ACTION(name, n0, n1, doc) AZK_BASE_##name,
#include "azk_actions.def"
#undef AZK_ACTION
};

int azk_num_actions(void) { return AZK_NUM_ACTIONS_; }

int azk_encode(int type, int p0, int p1) {
    if (type < 0 || type >= AZK_ACT_COUNT) return -1;
    if (p0 < 0 || p0 >= P0_SIZE[type] || p1 < 0 || p1 >= P1_SIZE[type]) return -1;
    return BASE[type] + p0 * P1_SIZE[type] + p1;
}

int azk_decode(int action, int *type, int *p0, int *p1) {
    if (action < 0 || action >= AZK_NUM_ACTIONS_) return -1;
    int t = AZK_ACT_COUNT - 1;
    while (BASE[t] > action) t--;
    int rel = action - BASE[t];
    *type = t;
    *p0 = rel / P1_SIZE[t];
    *p1 = rel % P1_SIZE[t];
    return 0;
}

/* ---- legality helpers ---------------------------------------------------- */
static int first_of_copies(const azk_game *g, const azk_player *pl, int i) {
    return i == 0 || g->cards[pl->hand[i - 1]].def != g->cards[pl->hand[i]].def;
}

static int row_full(const uint8_t *row) {
    for (int s = 0; s < AZK_ROW; s++)
        if (row[s] == AZK_NONE) return 0;
    return 1;
}

/* Slots an entity may take: the empty ones, or any (replacement) when full (§2.3). */
static int slot_ok(const uint8_t *row, int full, int s) { return full || row[s] == AZK_NONE; }

static int can_attack(const azk_game *g, const azk_cardset *cs, int c) {
    const azk_card *k = &g->cards[c];
    if (k->flags & AZK_CF_TAPPED) return 0;
    unsigned st = azk_status_of(g, cs, c);
    if (st & AZK_ST_FROZEN) return 0;
    if (k->zone == AZK_Z_LEADER) return azk_weapon_count(g, c) > 0;
    if (k->zone != AZK_Z_GARDEN) return 0;
    return !(k->flags & AZK_CF_COOLDOWN) || (st & AZK_ST_CHARGE);
}

static int spell_ability(const azk_cardset *cs, const azk_card_def *d) {
    for (int i = 0; i < d->ability_count; i++)
        if (cs->abilities[d->ability_first + i].kind == AZK_AB_SPELL) return d->ability_first + i;
    return -1;
}

static int spell_playable(const azk_game *g, const azk_cardset *cs, int c, int response) {
    const azk_card_def *d = azk_def(cs, g, c);
    if (d->card_type != AZK_CT_SPELL) return 0;
    int ab = spell_ability(cs, d);
    int is_response = ab >= 0 && (cs->abilities[ab].flags & AZK_ABF_RESPONSE);
    if (is_response != response) return 0;
    if (ab >= 0 && cs->abilities[ab].requirement != AZK_NO_PC &&
        !azk_vm_condition(g, cs, cs->abilities[ab].requirement, c, g->cards[c].owner))
        return 0;
    return 1;
}

/* Enumeration writes ascending flat ids into out[0..cap) and stops at cap.
 * `want` is a bit mask of action types to list (step validation lists only
 * the type of the action it checks); blocks of unwanted types are skipped. */
#define WANT(t) (want & (1u << (t)))
#define PUSH(t, a, b)                                                    \
    do {                                                                 \
        if (out) out[n] = BASE[t] + (a) * P1_SIZE[t] + (b);              \
        if (++n >= cap) return n;                                        \
    } while (0)

static int source_card(const azk_player *pl, int code) {
    if (code == 0) return pl->leader;
    if (code <= AZK_ROW) return pl->garden[code - 1];
    return pl->alley[code - 1 - AZK_ROW];
}

static int push_abilities(const azk_game *g, const azk_cardset *cs, int me, int response, int32_t *out, int n,
                          int cap, unsigned want) {
    if (!WANT(AZK_ACT_ACTIVATE_ABILITY)) return n;
    const azk_player *pl = &g->pl[me];
    for (int code = 0; code <= 2 * AZK_ROW; code++) {
        int c = source_card(pl, code);
        if (c == AZK_NONE) continue;
        const azk_card_def *d = azk_def(cs, g, c);
        int k = 0;
        for (int i = 0; i < d->ability_count && k < AZK_MAX_ACTIVATED; i++) {
            const azk_ability *ab = &cs->abilities[d->ability_first + i];
            if (ab->kind != AZK_AB_ACTIVATED) continue;
            int is_response = (ab->flags & AZK_ABF_RESPONSE) != 0;
            if (is_response == response && azk_ability_usable(g, cs, c, d->ability_first + i))
                PUSH(AZK_ACT_ACTIVATE_ABILITY, code, k);
            k++;
        }
    }
    return n;
}

static int enumerate_main(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap, unsigned want) {
    int n = 0, me = g->active;
    const azk_player *pl = &g->pl[me];
    const azk_player *op = &g->pl[1 - me];
    int ikz = azk_untapped_ikz(g, me);
    int garden_full = row_full(pl->garden), alley_full = row_full(pl->alley);
    for (int t = AZK_ACT_PLAY_ENTITY_TO_GARDEN; t <= AZK_ACT_PLAY_ENTITY_TO_ALLEY; t++) {
        if (!WANT(t)) continue;
        const uint8_t *row = t == AZK_ACT_PLAY_ENTITY_TO_GARDEN ? pl->garden : pl->alley;
        int full = t == AZK_ACT_PLAY_ENTITY_TO_GARDEN ? garden_full : alley_full;
        for (int i = 0; i < pl->hand_n; i++) {
            const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
            if (d->card_type != AZK_CT_ENTITY || d->cost > ikz || !first_of_copies(g, pl, i)) continue;
            for (int s = 0; s < AZK_ROW; s++)
                if (slot_ok(row, full, s)) PUSH(t, i, s);
        }
    }
    for (int i = 0; i < pl->hand_n && WANT(AZK_ACT_PLAY_WEAPON); i++) {
        const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
        if (d->card_type != AZK_CT_WEAPON || d->cost > ikz || !first_of_copies(g, pl, i)) continue;
        PUSH(AZK_ACT_PLAY_WEAPON, i, 0);
        for (int s = 0; s < AZK_ROW; s++)
            if (pl->garden[s] != AZK_NONE) PUSH(AZK_ACT_PLAY_WEAPON, i, s + 1);
    }
    for (int i = 0; i < pl->hand_n && WANT(AZK_ACT_PLAY_SPELL_MAIN); i++) {
        const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
        if (d->card_type != AZK_CT_SPELL || d->cost > ikz || !first_of_copies(g, pl, i)) continue;
        if (spell_playable(g, cs, pl->hand[i], 0)) PUSH(AZK_ACT_PLAY_SPELL_MAIN, i, 0);
    }
    for (int a = 0; a <= AZK_ROW && WANT(AZK_ACT_ATTACK); a++) {
        int c = a == 0 ? pl->leader : pl->garden[a - 1];
        if (c == AZK_NONE || !can_attack(g, cs, c)) continue;
        PUSH(AZK_ACT_ATTACK, a, 0);
        for (int s = 0; s < AZK_ROW; s++) {
            int t = op->garden[s];
            if (t != AZK_NONE && (g->cards[t].flags & AZK_CF_TAPPED)) PUSH(AZK_ACT_ATTACK, a, s + 1);
        }
    }
    if (WANT(AZK_ACT_PORTAL_GATE) && !(g->cards[pl->gate].flags & AZK_CF_TAPPED) && !(azk_status_of(g, cs, pl->gate) & AZK_ST_FROZEN)) {
        for (int a = 0; a < AZK_ROW; a++) {
            int c = pl->alley[a];
            if (c == AZK_NONE || (g->cards[c].flags & AZK_CF_TAPPED)) continue;
            for (int s = 0; s < AZK_ROW; s++)
                if (slot_ok(pl->garden, garden_full, s)) PUSH(AZK_ACT_PORTAL_GATE, a, s);
        }
    }
    n = push_abilities(g, cs, me, 0, out, n, cap, want);
    if (n >= cap) return n;
    if (WANT(AZK_ACT_END_TURN)) PUSH(AZK_ACT_END_TURN, 0, 0);
    return n;
}

static int enumerate_response(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap, unsigned want) {
    int n = 0, me = 1 - g->active;
    const azk_player *pl = &g->pl[me];
    int ikz = azk_untapped_ikz(g, me);
    if (WANT(AZK_ACT_NO_OP)) PUSH(AZK_ACT_NO_OP, 0, 0);
    for (int i = 0; i < pl->hand_n && WANT(AZK_ACT_PLAY_SPELL_RESPONSE); i++) {
        const azk_card_def *d = azk_def(cs, g, pl->hand[i]);
        if (d->card_type != AZK_CT_SPELL || d->cost > ikz || !first_of_copies(g, pl, i)) continue;
        if (spell_playable(g, cs, pl->hand[i], 1)) PUSH(AZK_ACT_PLAY_SPELL_RESPONSE, i, 0);
    }
    return push_abilities(g, cs, me, 1, out, n, cap, want);
}

static int enumerate_defender(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    int n = 0, me = 1 - g->active;
    const azk_player *pl = &g->pl[me];
    PUSH(AZK_ACT_NO_OP, 0, 0);
    for (int s = 0; s < AZK_ROW; s++) {
        int c = pl->garden[s];
        if (c == AZK_NONE || c == g->target || (g->cards[c].flags & AZK_CF_TAPPED)) continue;
        unsigned st = azk_status_of(g, cs, c);
        if ((st & AZK_ST_DEFENDER) && !(st & AZK_ST_FROZEN)) PUSH(AZK_ACT_DECLARE_DEFENDER, s, 0);
    }
    return n;
}

static int enumerate_types(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap, unsigned want) {
    int n = 0;
    if (cap <= 0 || g->result != AZK_RES_ONGOING) return 0;
    switch (g->phase) {
    case AZK_PHASE_MULLIGAN:
        PUSH(AZK_ACT_MULLIGAN_KEEP, 0, 0);
        PUSH(AZK_ACT_MULLIGAN_SHUFFLE, 0, 0);
        return n;
    case AZK_PHASE_PROMPT:
        if (g->prompt.optional) PUSH(AZK_ACT_NO_OP, 0, 0);
        for (int i = 0; i < g->prompt.n; i++) PUSH(AZK_ACT_CHOOSE, i, 0);
        return n;
    case AZK_PHASE_MAIN: return enumerate_main(g, cs, out, cap, want);
    case AZK_PHASE_RESPONSE: return enumerate_response(g, cs, out, cap, want);
    case AZK_PHASE_DEFENDER: return enumerate_defender(g, cs, out, cap);
    default: return 0;
    }
}

int azk_enumerate(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    return enumerate_types(g, cs, out, cap, ~0u);
}

void azk_store_legal(azk_game *g, const int32_t *actions, int n) {
    /* clear only the words that were in use */
    for (uint32_t w = g->legal_words; w; w &= w - 1) g->legal[__builtin_ctz(w)] = 0;
    g->legal_words = 0;
    for (int i = 0; i < n; i++) {
        g->legal[actions[i] >> 6] |= 1ull << (actions[i] & 63);
        g->legal_words |= 1u << (actions[i] >> 6);
    }
    g->legal_n = (uint16_t)n;
}

void azk_refresh_legal(azk_game *g, const azk_cardset *cs) {
    int32_t buf[AZK_NUM_ACTIONS_];
    azk_store_legal(g, buf, azk_enumerate(g, cs, buf, AZK_NUM_ACTIONS_));
}

/* The three readers below use the cache (see game.h); they are exact because
 * every path that changes the hashed state ends in azk_advance or deserialize,
 * both of which refresh it. */
int azk_legal_actions(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    (void)cs;
    int n = 0;
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

azk_status azk_step(azk_game *g, const azk_cardset *cs, int action) {
    if (g->result != AZK_RES_ONGOING) return AZK_TERMINAL;
    if (!azk_is_legal(g, cs, action)) return AZK_ILLEGAL;
    int type = 0, p0 = 0, p1 = 0;
    azk_decode(action, &type, &p0, &p1);
    g->error = 0;
    azk_apply(g, cs, type, p0, p1);
    azk_advance(g, cs);
    return g->error ? (azk_status)g->error : AZK_OK;
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
