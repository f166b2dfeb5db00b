/* query.c — pure reads of a position, the bottom of the core's layers
 * (csrc/layers.def): stats computed on read (RULES §8), auras and cost
 * modifiers (§18), weapon and IKZ counts, the derived hints' definitions,
 * who decides now, and the selectors and condition programs (the pure
 * subset of the bytecode, pure.h) that auras, statics and legality read.
 *
 * Nothing here changes a game: every function takes a const game. The
 * VM (vm.c) runs the same pure instructions inside abilities through
 * azk_exec_pure. The debug build's assertion reporter lives here too, so
 * every layer may assert.
 */
#include <stdio.h>
#include <string.h>

#include "pure.h"

/* ---------------------------------------------------------------------------
 * Stats: computed on every read from the card, its weapons, live temporary
 * effects and static abilities, so they never go stale (RULES §8).
 * ------------------------------------------------------------------------- */
/* granted_status and azk_status_of are static inline in game.h: the legal
 * enumeration asks for statuses several times per decision. */

static int fx_attack(const azk_game *g, int c) {
    int a = 0;
    if (!azk_fx_names(g, c)) return 0;
    for (int i = 0; i < g->fx_n; i++) {
        const azk_effect *e = &g->fx[i];
        if (e->card == c && e->kind == AZK_FX_ATTACK && azk_fx_live(g, e)) a += e->amount;
    }
    return a;
}

/* Does static ability `ab` of `src` apply now? Statics work only while the
 * source is in play and not frozen. */
static int static_active(const azk_game *g, const azk_cardset *cs, const azk_ability *ab, int src) {
    uint8_t z = g->cards[src].zone;
    if (!(z == AZK_Z_LEADER || z == AZK_Z_GARDEN || z == AZK_Z_ALLEY || z == AZK_Z_WEAPON)) return 0;
    if (azk_granted_status(g, src) & AZK_ST_FROZEN) return 0;
    if (!azk_zone_allows(g, src, ab->flags)) return 0; /* [Garden Only] / [Alley Only] statics */
    if (ab->condition == AZK_NO_PC) return 1;
    return azk_vm_condition(g, cs, ab->condition, src, g->cards[src].owner);
}

/* Sum of a card's own static modifications (target SELF). */
static void self_statics(const azk_game *g, const azk_cardset *cs, int c, int *attack, int *health) {
    if (!(cs->facts[g->cards[c].def].flags & AZK_DF_SELF_STAT)) return;
    const azk_card_def *d = azk_def(cs, g, c);
    for (int i = 0; i < d->ability_count; i++) {
        const azk_ability *ab = &cs->abilities[d->ability_first + i];
        if (ab->kind != AZK_AB_STATIC || ab->static_target != AZK_STT_SELF) continue;
        if (!((attack && ab->attack) || (health && ab->health))) continue; /* skip unneeded conditions */
        if (!static_active(g, cs, ab, c)) continue;
        if (attack) *attack += ab->attack;
        if (health) *health += ab->health;
    }
}

/* A weapon's bonus: printed, unless a static of its controller's field sets it
 * ("+5 instead of +4", D12: set, so two sources never stack), plus its own
 * statics and effects (Dagger's +1). */
int azk_weapon_bonus(const azk_game *g, const azk_cardset *cs, int w) {
    int base = azk_def(cs, g, w)->attack;
    int p = g->cards[w].owner;
    const azk_player *pl = &g->pl[p];
    for (int k = 0; k < 2 * AZK_ROW + 1; k++) {
        int src = k == 0 ? pl->leader : (k <= AZK_ROW ? pl->garden[k - 1] : pl->alley[k - 1 - AZK_ROW]);
        if (src == AZK_NONE || !(cs->facts[g->cards[src].def].flags & AZK_DF_SET_BONUS)) continue;
        const azk_card_def *d = azk_def(cs, g, src);
        for (int i = 0; i < d->ability_count; i++) {
            const azk_ability *ab = &cs->abilities[d->ability_first + i];
            if (ab->kind != AZK_AB_STATIC || !ab->set_bonus || ab->static_target != AZK_STT_SELECTOR) continue;
            if (!azk_selector_match(g, cs, &cs->selectors[ab->selector], p, src, NULL, NULL, w)) continue;
            if (!static_active(g, cs, ab, src)) continue;
            base = ab->set_bonus;
        }
    }
    int bonus = base + fx_attack(g, w);
    self_statics(g, cs, w, &bonus, NULL);
    return bonus;
}

/* ---------------------------------------------------------------------------
 * Auras and cost modifiers (rules §18): static abilities that change other
 * cards. Recomputed on every read like every static; found through the
 * aura_src / cost_src hints (game.h), so a set without them never gets here.
 * Every active aura whose selector (relative to its source's controller)
 * matches adds up: attack and health sum, grants unite, removals unite and
 * win over every grant (§18.3). Static conditions are pure VM programs that
 * read no attack, health or status, so none of this recurses.
 * ------------------------------------------------------------------------- */
typedef struct aura_sum {
    int attack, health, cost;
    unsigned grant, remove;
} aura_sum;

/* Sum the active static abilities aimed at `target` (AZK_STT_AURA or
 * AZK_STT_COST) of both players' sources `src` (aura_src or cost_src) whose
 * selector matches card c: the one walk of auras and cost modifiers; each
 * caller reads the fields of its target. */
static void static_collect(const azk_game *g, const azk_cardset *cs, int c, const uint16_t src_of[AZK_PLAYERS],
                           int target, aura_sum *out) {
    out->attack = out->health = out->cost = 0;
    out->grant = out->remove = 0;
    for (int p = 0; p < AZK_PLAYERS; p++) {
        for (unsigned m = src_of[p]; m; m &= m - 1) {
            int src = azk_place_card(&g->pl[p], __builtin_ctz(m));
            const azk_card_def *d = azk_def(cs, g, src);
            for (int i = 0; i < d->ability_count; i++) {
                const azk_ability *ab = &cs->abilities[d->ability_first + i];
                if (ab->kind != AZK_AB_STATIC || ab->static_target != target) continue;
                if (!azk_selector_match(g, cs, &cs->selectors[ab->selector], p, src, NULL, NULL, c)) continue;
                if (!static_active(g, cs, ab, src)) continue;
                out->attack += ab->attack;
                out->health += ab->health;
                out->cost += ab->cost_change;
                out->grant |= ab->grant;
                out->remove |= ab->remove;
            }
        }
    }
}

/* Sum the active auras, of both players' sources, that apply to card c. */
static void aura_collect(const azk_game *g, const azk_cardset *cs, int c, aura_sum *out) {
    uint8_t z = g->cards[c].zone;
    if (z != AZK_Z_LEADER && z != AZK_Z_GARDEN && z != AZK_Z_ALLEY) { /* auras change field cards only */
        *out = (aura_sum){0};
        return;
    }
    static_collect(g, cs, c, g->aura_src, AZK_STT_AURA, out);
}

unsigned azk_aura_status(const azk_game *g, const azk_cardset *cs, int c, unsigned s) {
    aura_sum a;
    aura_collect(g, cs, c, &a);
    return (s | a.grant) & ~a.remove;
}

static int aura_attack(const azk_game *g, const azk_cardset *cs, int c) {
    if (__builtin_expect(!(g->aura_src[0] | g->aura_src[1]), 1)) return 0;
    aura_sum a;
    aura_collect(g, cs, c, &a);
    return a.attack;
}

static int aura_health(const azk_game *g, const azk_cardset *cs, int c) {
    if (__builtin_expect(!(g->aura_src[0] | g->aura_src[1]), 1)) return 0;
    aura_sum a;
    aura_collect(g, cs, c, &a);
    return a.health;
}

/* Printed cost plus every active cost modifier matching the hand card c,
 * summed, then at least 0 (rules §18.4). */
int azk_cost_modified(const azk_game *g, const azk_cardset *cs, int c) {
    int cost = azk_def(cs, g, c)->cost;
    if (g->cards[c].zone != AZK_Z_HAND) return cost;
    aura_sum sum;
    static_collect(g, cs, c, g->cost_src, AZK_STT_COST, &sum);
    cost += sum.cost;
    return cost < 0 ? 0 : cost;
}

int azk_weapon_count(const azk_game *g, int holder) {
    const azk_player *pl = &g->pl[g->cards[holder].owner];
    int n = 0;
    for (int i = 0; i < pl->weapons_n; i++) n += g->cards[pl->weapons[i]].holder == holder;
    return n;
}

int azk_attack_of(const azk_game *g, const azk_cardset *cs, int c) {
    int a = azk_def(cs, g, c)->attack + fx_attack(g, c) + aura_attack(g, cs, c);
    self_statics(g, cs, c, &a, NULL);
    const azk_player *pl = &g->pl[g->cards[c].owner];
    for (int i = 0; i < pl->weapons_n; i++)
        if (g->cards[pl->weapons[i]].holder == c) a += azk_weapon_bonus(g, cs, pl->weapons[i]);
    return a;
}

int azk_health_of(const azk_game *g, const azk_cardset *cs, int c) {
    int h = azk_def(cs, g, c)->health + aura_health(g, cs, c);
    self_statics(g, cs, c, NULL, &h);
    return h;
}

/* A field card's attack and health (azk_attack_of's and azk_health_of's
 * values) and its weapons (how many it holds, their bonuses summed) in one
 * walk: its definition read once, auras collected once, each self static
 * that changes attack or health tested once (its condition program is the
 * costly part: azk_attack_of and azk_health_of would each run it), each held
 * weapon's bonus computed once (azk_attack_of adds them too). The same sums
 * in the same order of terms, so the same values (tests/c/test_engine.c
 * compares them with the separate reads over random play of any card set).
 * The observation encoder and the greedy bot's evaluation read field cards
 * through it. */
void azk_field_stats(const azk_game *g, const azk_cardset *cs, int c, azk_field_stat *out) {
    const azk_card_def *d = azk_def(cs, g, c);
    int a = d->attack + fx_attack(g, c), h = d->health;
    if (__builtin_expect((g->aura_src[0] | g->aura_src[1]) != 0, 0)) {
        aura_sum s;
        aura_collect(g, cs, c, &s);
        a += s.attack;
        h += s.health;
    }
    self_statics(g, cs, c, &a, &h);
    const azk_player *pl = &g->pl[g->cards[c].owner];
    int n = 0, bonus = 0;
    for (int i = 0; i < pl->weapons_n; i++) {
        int w = pl->weapons[i];
        if (g->cards[w].holder != c) continue;
        int b = azk_weapon_bonus(g, cs, w);
        n++;
        bonus += b;
        a += b;
    }
    out->attack = a;
    out->health = h;
    out->weapons = n;
    out->weapon_bonus = bonus;
}

int azk_count_untapped_ikz(const azk_game *g, int p) {
    const azk_player *pl = &g->pl[p];
    int n = 0;
    for (int i = 0; i < pl->ikz_area_n; i++) n += !(g->cards[pl->ikz_area[i]].flags & AZK_CF_TAPPED);
    return n;
}

/* ---------------------------------------------------------------------------
 * The derived hints' definitions (game.h: occ, act_src, aura_src / cost_src,
 * listen), computed by walking the game: the hints are rebuilt from these
 * and the invariant checker compares them.
 * ------------------------------------------------------------------------- */
unsigned azk_count_occ(const azk_game *g, int p) {
    unsigned m = 1u; /* the leader */
    for (int s = 0; s < AZK_ROW; s++) {
        if (g->pl[p].garden[s] != AZK_NONE) m |= AZK_CODE_GARDEN(s);
        if (g->pl[p].alley[s] != AZK_NONE) m |= AZK_CODE_ALLEY(s);
    }
    return m;
}

/* The occupied places (azk_count_occ) whose card has an activated ability. */
unsigned azk_count_act_src(const azk_game *g, const azk_cardset *cs, int p) {
    unsigned m = 0;
    for (unsigned o = azk_count_occ(g, p); o; o &= o - 1) {
        int code = __builtin_ctz(o);
        if (cs->facts[g->cards[azk_place_card(&g->pl[p], code)].def].flags & AZK_DF_ACTIVATED) m |= 1u << code;
    }
    return m;
}

/* The occupied places whose card's definition has `fact`
 * (AZK_DF_AURA: the aura_src hint; AZK_DF_COST: cost_src). */
unsigned azk_count_fact_src(const azk_game *g, const azk_cardset *cs, int p, unsigned fact) {
    unsigned m = 0;
    for (unsigned o = azk_count_occ(g, p); o; o &= o - 1) {
        int code = __builtin_ctz(o);
        if (cs->facts[g->cards[azk_place_card(&g->pl[p], code)].def].flags & fact) m |= 1u << code;
    }
    return m;
}

unsigned azk_count_listen(const azk_game *g, const azk_cardset *cs, int p) {
    unsigned m = 0;
    for (int c = p * AZK_CARDS_PER_PLAYER; c < (p + 1) * AZK_CARDS_PER_PLAYER; c++)
        m |= cs->facts[g->cards[c].def].trigger_mask;
    return m;
}

/* Holder code (0 leader, 1..5 garden slot+1) to card index, AZK_NONE if empty. */
int azk_holder_code_card(const azk_game *g, int p, int code) {
    if (code == 0) return g->pl[p].leader;
    if (code < 1 || code > AZK_ROW) return AZK_NONE;
    return g->pl[p].garden[code - 1];
}

/* ---------------------------------------------------------------------------
 * Who decides
 * ------------------------------------------------------------------------- */
static int mulligan_chooser(const azk_game *g) {
    return g->pl[g->first_player].mulligan_done ? 1 - g->first_player : g->first_player;
}

/* Which player decides at the current decision point. */
int azk_current_player(const azk_game *g) {
    switch (g->phase) {
    case AZK_PHASE_MULLIGAN: return mulligan_chooser(g);
    case AZK_PHASE_MAIN: return g->active;
    case AZK_PHASE_RESPONSE:
    case AZK_PHASE_DEFENDER: return 1 - g->active;
    case AZK_PHASE_PROMPT: return g->prompt.chooser;
    default: return -1;
    }
}

/* ---------------------------------------------------------------------------
 * Selectors
 * ------------------------------------------------------------------------- */
/* Selector zone bit of each card zone (0: no selector names it). */
static const uint8_t ZONE_BIT[AZK_Z_COUNT] = {
    [AZK_Z_LEADER] = AZK_SZ_LEADER, [AZK_Z_GARDEN] = AZK_SZ_GARDEN, [AZK_Z_ALLEY] = AZK_SZ_ALLEY,
    [AZK_Z_HAND] = AZK_SZ_HAND, [AZK_Z_DISCARD] = AZK_SZ_DISCARD, [AZK_Z_WEAPON] = AZK_SZ_WEAPON,
    [AZK_Z_LOOK] = AZK_SZ_LOOK, [AZK_Z_IKZ_AREA] = AZK_SZ_IKZ_AREA,
};


static inline int sel_match(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                            int source, const int16_t *regs, const uint8_t *tregs, int c) {
    const azk_card *k = &g->cards[c];
    if (s->zones && !(s->zones & ZONE_BIT[k->zone])) return 0;
    if (!(s->side & (k->owner == controller ? AZK_SIDE_SELF : AZK_SIDE_OPP))) return 0;
    return sel_props(g, cs, s, source, regs, tregs, c);
}

int azk_selector_match(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                       int source, const int16_t *regs, const uint8_t *tregs, int c) {
    return sel_match(g, cs, s, controller, source, regs, tregs, c);
}

/* The occ-hint codes (game.h) of the rows a selector zone mask names. */
static inline unsigned row_codes(unsigned z) {
    return ((z & AZK_SZ_GARDEN) ? AZK_CODES_GARDEN : 0u) | ((z & AZK_SZ_ALLEY) ? AZK_CODES_ALLEY : 0u);
}

/* n plus the matches among len cards of one zone array; with need > 0 it
 * may stop once that reaches need (need 0: count them all). */
static inline int count_in(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int source,
                           const int16_t *regs, const uint8_t *tregs, const uint8_t *arr, int len, int n, int need) {
    for (int i = 0; i < len && !(need && n >= need); i++) n += sel_props(g, cs, s, source, regs, tregs, arr[i]);
    return n;
}

/* Count matching cards without building a list (COUNT in conditions is the
 * hottest selector use: requirements are read at every decision point and
 * statics on every stat query). Order does not matter for a count and COUNT
 * never collapses copies, so every zone is walked in place. The zone arrays
 * of a player hold only that player's cards (game.h invariants), so walking
 * the selector's zones of the selector's sides replaces those two tests.
 * need > 0: the count may stop once it reaches need (COUNT_GE). */
static inline int count_upto(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                             int source, const int16_t *regs, const uint8_t *tregs, int need) {
    unsigned z = s->zones ? s->zones : 0xFFu;
    int n = 0;
    for (int k = 0; k < AZK_PLAYERS; k++) {
        if (!(s->side & (k == 0 ? AZK_SIDE_SELF : AZK_SIDE_OPP))) continue;
        int p = k == 0 ? controller : 1 - controller;
        const azk_player *pl = &g->pl[p];
        /* weapons attach only to their owner's cards: none, no holder here */
        if ((s->flags & AZK_SF_HAS_WEAPON) && pl->weapons_n == 0) continue;
        if (z & AZK_SZ_LEADER) n += sel_props(g, cs, s, source, regs, tregs, pl->leader);
        for (unsigned m = g->occ[p] & row_codes(z); m; m &= m - 1) { /* occupied slots (game.h) */
            int code = __builtin_ctz(m);
            n += sel_props(g, cs, s, source, regs, tregs, azk_row_card(pl, code));
        }
        if (need && n >= need) return n;
        if (z & AZK_SZ_WEAPON) n = count_in(g, cs, s, source, regs, tregs, pl->weapons, pl->weapons_n, n, need);
        if (z & AZK_SZ_HAND) n = count_in(g, cs, s, source, regs, tregs, pl->hand, pl->hand_n, n, need);
        if (z & AZK_SZ_DISCARD) n = count_in(g, cs, s, source, regs, tregs, pl->discard, pl->discard_n, n, need);
        if (z & AZK_SZ_LOOK) n = count_in(g, cs, s, source, regs, tregs, pl->look, pl->look_n, n, need);
        if (z & AZK_SZ_IKZ_AREA) n = count_in(g, cs, s, source, regs, tregs, pl->ikz_area, pl->ikz_area_n, n, need);
        if (need && n >= need) return n;
    }
    return n;
}
static int count_matching(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                          int source, const int16_t *regs, const uint8_t *tregs) {
    return count_upto(g, cs, s, controller, source, regs, tregs, 0);
}
/* "At least k match" (COUNT_GE): the count may stop once it reaches k, the
 * answer is the same (selector tests read the game, never change it). */
static int count_at_least(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                          int source, const int16_t *regs, const uint8_t *tregs, int k) {
    return k <= 0 || count_upto(g, cs, s, controller, source, regs, tregs, k) >= k;
}

/* Matching cards in a fixed order: controller first, then opponent; per
 * player leader, garden, alley, weapons, hand, discard, looked-at, IKZ area.
 * `collapse`: identical copies in hand / discard / look count once (only the
 * first is offered, RULES §12). Returns the total count; writes up to cap. */
int azk_sel_collect(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller, int source,
                    const int16_t *regs, const uint8_t *tregs, uint8_t *out, int cap, int collapse) {
    int n = 0;
    for (int k = 0; k < AZK_PLAYERS; k++) {
        int p = k == 0 ? controller : 1 - controller;
        if (!(s->side & (k == 0 ? AZK_SIDE_SELF : AZK_SIDE_OPP))) continue;
        const azk_player *pl = &g->pl[p];
        uint8_t buf[AZK_NUM_CARDS];
        int m = 0;
        unsigned z = s->zones ? s->zones : 0xFFu;
        if (z & AZK_SZ_LEADER) buf[m++] = pl->leader;
        for (unsigned o = g->occ[p] & row_codes(z); o; o &= o - 1) { /* garden slots, then alley slots */
            int code = __builtin_ctz(o);
            buf[m++] = azk_row_card(pl, code);
        }
        if (z & AZK_SZ_WEAPON)
            for (int i = 0; i < pl->weapons_n; i++) buf[m++] = pl->weapons[i];
        int piles_from = m;
        if (z & AZK_SZ_HAND)
            for (int i = 0; i < pl->hand_n; i++) buf[m++] = pl->hand[i];
        if (z & AZK_SZ_DISCARD)
            for (int i = 0; i < pl->discard_n; i++) buf[m++] = pl->discard[i];
        if (z & AZK_SZ_LOOK)
            for (int i = 0; i < pl->look_n; i++) buf[m++] = pl->look[i];
        if (z & AZK_SZ_IKZ_AREA)
            for (int i = 0; i < pl->ikz_area_n; i++) buf[m++] = pl->ikz_area[i];
        uint64_t seen[4] = {0, 0, 0, 0}; /* per zone kind: definitions already offered */
        for (int i = 0; i < m; i++) {
            int c = buf[i];
            if (!sel_props(g, cs, s, source, regs, tregs, c)) continue;
            if (collapse && i >= piles_from) {
                int zk = g->cards[c].zone == AZK_Z_HAND ? 0 : g->cards[c].zone == AZK_Z_DISCARD ? 1
                         : g->cards[c].zone == AZK_Z_LOOK ? 2 : 3;
                uint64_t bit = 1ull << (g->cards[c].def & 63);
                if (seen[zk] & bit) continue;
                seen[zk] |= bit;
            }
            if (out && n < cap) out[n] = (uint8_t)c;
            n++;
        }
    }
    return n;
}

/* The candidates of a CHOOSE from `s` by `controller` (written to opts, at
 * most AZK_NUM_CARDS): the matching cards, identical copies in piles once,
 * less the opponent's stealthed entities on the field (rules §15.4). One
 * definition for CHOOSE itself and for CAN_CHOOSE, the play condition the
 * compiler derives from a mandatory choice (rules §5.4, §8.7), so the two
 * cannot disagree about what a candidate is. */
int azk_choose_candidates(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                          int source, const int16_t *regs, const uint8_t *tregs, uint8_t *opts) {
    int n = azk_sel_collect(g, cs, s, controller, source, regs, tregs, opts, AZK_NUM_CARDS, 1);
    if (n > AZK_NUM_CARDS) n = AZK_NUM_CARDS;
    if (cs->set_facts & AZK_SETF_STEALTH) { /* rules §15.4: not chosen by the opponent's effects */
        int w = 0;
        for (int i = 0; i < n; i++)
            if (!azk_on_field(g, opts[i]) || !azk_stealthed_from(g, cs, opts[i], controller)) opts[w++] = opts[i];
        n = w;
    }
    return n;
}

/* CAN_CHOOSE: does a CHOOSE from `s` have a candidate? Without stealth in the
 * set a candidate is any match (the COUNT_GE walk, no list). */
static int can_choose(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller, int source,
                      const int16_t *regs, const uint8_t *tregs) {
    if (!(cs->set_facts & AZK_SETF_STEALTH)) return count_upto(g, cs, s, controller, source, regs, tregs, 1) >= 1;
    uint8_t opts[AZK_NUM_CARDS];
    return azk_choose_candidates(g, cs, s, controller, source, regs, tregs, opts) > 0;
}

/* ---------------------------------------------------------------------------
 * Pure instructions, shared by the VM and condition programs
 * ------------------------------------------------------------------------- */
static int load_ref(const azk_game *g, const pure_ctx *x, int ref) {
    switch (ref) {
    /* `self` is the object the ability belongs to: once that card has
     * changed zone it is a new object (RULES §2.1) and `self` names nothing,
     * so a program cannot return its card to hand and then play it again
     * through `self` (found by the compiler's self-replay check) */
    case AZK_REF_SELF:
        return x->source != AZK_NONE && g->cards[x->source].incarnation == x->source_inc ? x->source : AZK_NONE;
    case AZK_REF_HOLDER:
        return x->source != AZK_NONE && g->cards[x->source].incarnation == x->source_inc ? g->cards[x->source].holder
                                                                                            : AZK_NONE;
    case AZK_REF_SUBJECT: return x->ctx_card;
    case AZK_REF_OWN_LEADER: return g->pl[x->controller].leader;
    case AZK_REF_OPP_LEADER: return g->pl[1 - x->controller].leader;
    case AZK_REF_ATTACKER: return g->in_attack ? g->attacker : AZK_NONE;
    case AZK_REF_TARGET: return g->in_attack ? g->target : AZK_NONE;
    default: return AZK_NONE;
    }
}

static int ctx_value(const azk_game *g, const azk_cardset *cs, const pure_ctx *x, int which) {
    const azk_player *pl = &g->pl[x->controller];
    switch (which) {
    case AZK_CTXV_TRIGGER_VALUE: return x->ctx_value;
    case AZK_CTXV_HAND_SIZE: return pl->hand_n;
    case AZK_CTXV_DECK_SIZE: return pl->deck_n;
    case AZK_CTXV_DISCARD_SIZE: return pl->discard_n;
    case AZK_CTXV_UNTAPPED_IKZ: return azk_untapped_ikz(g, x->controller);
    case AZK_CTXV_TAPPED_IKZ: return pl->ikz_area_n - azk_untapped_ikz(g, x->controller);
    case AZK_CTXV_SUBJECT_GP: /* printed, so the same on the field and in the discard pile */
        return x->ctx_card != AZK_NONE ? azk_def(cs, g, x->ctx_card)->gate_points : 0;
    default: return 0;
    }
}

/* A card's statistic for the STAT op, as the rules compute
 * it now (docs/rules.md §16.8). */
static int card_stat(const azk_game *g, const azk_cardset *cs, int c, int which) {
    const azk_card_def *d = azk_def(cs, g, c);
    switch (which) {
    case AZK_STAT_ATTACK: return azk_attack_of(g, cs, c);
    case AZK_STAT_HEALTH: return azk_health_of(g, cs, c);
    case AZK_STAT_DAMAGE: return g->cards[c].damage;
    case AZK_STAT_REMAINING: return azk_health_of(g, cs, c) - g->cards[c].damage;
    case AZK_STAT_GP: return d->gate_points;
    case AZK_STAT_COST: return d->cost;
    default: return 0;
    }
}

static int16_t sat16(int v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }

/* Execute pure op at pc; returns the next pc. */
uint16_t azk_exec_pure(const azk_game *g, const azk_cardset *cs, pure_ctx *x, uint16_t pc) {
    const uint8_t *a = &cs->bytecode[pc + 1];
    uint8_t op = cs->bytecode[pc];
    uint16_t next = (uint16_t)(pc + 1 + OPERANDS[op]);
    int16_t *r = x->r;
    switch ((enum azk_opcode)op) {
    case AZK_OP_END: break; /* callers stop at END */
    case AZK_OP_JMP: return U16(a[0], a[1]);
    case AZK_OP_JZ: return r[a[0]] == 0 ? U16(a[1], a[2]) : next;
    case AZK_OP_SETI: r[a[0]] = (int8_t)a[1]; break;
    case AZK_OP_ADDI: r[a[0]] = sat16(r[a[0]] + (int8_t)a[1]); break;
    case AZK_OP_ADD: r[a[0]] = sat16(r[a[0]] + r[a[1]]); break;
    case AZK_OP_SUB: r[a[0]] = sat16(r[a[0]] - r[a[1]]); break;
    case AZK_OP_MIN: if (r[a[1]] < r[a[0]]) r[a[0]] = r[a[1]]; break;
    case AZK_OP_GE: r[a[0]] = r[a[0]] >= r[a[1]]; break;
    case AZK_OP_GEI: r[a[0]] = r[a[0]] >= (int8_t)a[1]; break;
    case AZK_OP_LEI: r[a[0]] = r[a[0]] <= (int8_t)a[1]; break;
    case AZK_OP_NOT: r[a[0]] = !r[a[0]]; break;
    case AZK_OP_COUNT: {
        const azk_selector *s = &cs->selectors[a[1]];
        r[a[0]] = sat16(count_matching(g, cs, s, x->controller, x->source, r, x->t));
        break;
    }
    case AZK_OP_CTX: r[a[0]] = sat16(ctx_value(g, cs, x, a[1])); break;
    case AZK_OP_VALID: r[a[0]] = t_valid(g, x, a[1]); break;
    case AZK_OP_MATCH:
        r[a[0]] = t_valid(g, x, a[1]) &&
                  sel_match(g, cs, &cs->selectors[a[2]], x->controller, x->source, r, x->t, x->t[a[1]]);
        break;
    case AZK_OP_LOAD: set_t(g, x, a[0], load_ref(g, x, a[1])); break;
    case AZK_OP_COUNT_GE: {
        const azk_selector *s = &cs->selectors[a[1]];
        r[a[0]] = (int16_t)count_at_least(g, cs, s, x->controller, x->source, r, x->t, (int8_t)a[2]);
        break;
    }
    case AZK_OP_CAN_CHOOSE:
        r[a[0]] = (int16_t)can_choose(g, cs, &cs->selectors[a[1]], x->controller, x->source, r, x->t);
        break;
    case AZK_OP_MUL: r[a[0]] = sat16((int)r[a[0]] * (int)r[a[1]]); break;
    case AZK_OP_MAX: if (r[a[1]] > r[a[0]]) r[a[0]] = r[a[1]]; break;
    case AZK_OP_ABS: r[a[0]] = sat16(r[a[0]] < 0 ? -(int)r[a[0]] : r[a[0]]); break;
    case AZK_OP_STAT: r[a[0]] = t_valid(g, x, a[1]) ? sat16(card_stat(g, cs, x->t[a[1]], a[2])) : 0; break;
    case AZK_OP_JTAB: /* the verifier checked that b JMPs stand at off */
        return r[a[0]] >= 0 && r[a[0]] < a[1] ? (uint16_t)(U16(a[2], a[3]) + 3 * r[a[0]]) : next;
#define AZK_OP(name, ops, props, doc) AZK_IMPURE_CASE_##props(name)
#include "azk_opcodes.def"
#undef AZK_OP
    case AZK_NUM_OPCODES: /* not an opcode: the verifier rejects it */
        AZK_UNREACHABLE(); /* the VM runs impure ops itself; the verifier keeps them out of conditions */
        break;
    }
    return next;
}

/* Registers as a condition program starts: R all 0, T all empty. */
static const int16_t ZERO_R[AZK_REGS];
static const uint8_t EMPTY_T[AZK_TREGS] = {AZK_NONE, AZK_NONE, AZK_NONE, AZK_NONE};
_Static_assert(AZK_TREGS == 4, "EMPTY_T lists every T register");

int azk_vm_condition(const azk_game *g, const azk_cardset *cs, uint16_t pc, int source, int controller) {
    /* The commonest requirement, "at least k cards match" (the compiler's
     * COUNT_GE r0,sel,k; END), straight to the count: the same result without
     * the interpreter. The second opcode is read only after the first
     * matched, so a verified program (ending in END) is never read past its
     * end. */
    const uint8_t *b = &cs->bytecode[pc];
    if (b[0] == AZK_OP_COUNT_GE && b[1] == 0 && b[4] == AZK_OP_END)
        return count_at_least(g, cs, &cs->selectors[b[2]], controller, source, ZERO_R, EMPTY_T, (int8_t)b[3]);
    int16_t r[AZK_REGS] = {0};
    uint8_t t[AZK_TREGS];
    uint16_t t_inc[AZK_TREGS] = {0};
    memset(t, AZK_NONE, sizeof t);
    pure_ctx x = {r, t, t_inc, source, controller, AZK_NONE, 0, g->cards[source].incarnation};
    for (int steps = 0; steps < AZK_VM_STEP_LIMIT; steps++) {
        if (cs->bytecode[pc] == AZK_OP_END) return r[0] != 0;
        pc = azk_exec_pure(g, cs, &x, pc);
    }
    return 0; /* unreachable for verified programs: conditions have no loops back */
}

#ifdef AZK_DEBUG
#include <stdlib.h>
_Noreturn void azk_assert_fail(const char *what, const char *file, int line) {
    fprintf(stderr, "%s:%d: azuki assertion failed: %s\n", file, line, what);
    abort();
}
#endif
