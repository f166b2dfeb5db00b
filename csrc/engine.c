/* engine.c — the rules of RULES.md §2–§9: zones, stats, damage, state checks,
 * playing cards, combat, triggers and the turn machine.
 *
 * Structure. `azk_apply` performs one already-validated decision; then
 * `azk_advance` drives the game forward until the next decision with at least
 * two legal answers (RULES §12) or the end: it first runs the effect VM if a
 * program is active, then resolves queued triggers one at a time (D8), and
 * only when both are idle performs the next step of the turn machine
 * (`g->flow`). Every step is explicit data in the struct, so the game can be
 * cloned, hashed or serialized at any decision.
 *
 * Invariants kept here: a card changes zone only through azk_move (which gives
 * it a new incarnation, RULES §2.1, and sends a leaving holder's weapons to the
 * discard pile, RULES §5.3); no function allocates; nothing prints.
 */
#include "game.h"

/* ---------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------- */
/* The log is a ring (game.h): a full log overwrites its oldest event, so
 * the newest (GAME_OVER above all) survive a caller that never drains, and
 * azk_events reports how many were lost. */
void azk_event(azk_game *g, int type, int player, int card, int value) {
    uint32_t p = (player < 0 || player > 1) ? 3u : (uint32_t)player;
    uint32_t c = (card < 0) ? AZK_NONE : (uint32_t)card & 0xFF;
    g->events[g->events_wr++ & (AZK_EVENT_CAP - 1)] =
        (uint32_t)type | (p << 8) | (c << 10) | (((uint32_t)value & 0x3FFF) << 18);
}

/* ---------------------------------------------------------------------------
 * Stats: computed on every read from the card, its weapons, live temporary
 * effects and static abilities, so they never go stale (RULES §8).
 * ------------------------------------------------------------------------- */
static int fx_live(const azk_game *g, const azk_effect *e) {
    return g->cards[e->card].incarnation == e->incarnation;
}

/* granted_status and azk_status_of are static inline in game.h: the legal
 * enumeration asks for statuses several times per decision. */

static int fx_attack(const azk_game *g, int c) {
    int a = 0;
    for (int i = 0; i < g->fx_n; i++) {
        const azk_effect *e = &g->fx[i];
        if (e->card == c && e->kind == AZK_FX_ATTACK && fx_live(g, e)) a += e->amount;
    }
    return a;
}

/* Does static ability `ab` of `src` apply now? Statics work only while the
 * source is in play and not frozen. */
static int static_active(const azk_game *g, const azk_cardset *cs, const azk_ability *ab, int src) {
    uint8_t z = g->cards[src].zone;
    if (!(z == AZK_Z_LEADER || z == AZK_Z_GARDEN || z == AZK_Z_ALLEY || z == AZK_Z_WEAPON)) return 0;
    if (azk_granted_status(g, src) & AZK_ST_FROZEN) return 0;
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

int azk_weapon_count(const azk_game *g, int holder) {
    const azk_player *pl = &g->pl[g->cards[holder].owner];
    int n = 0;
    for (int i = 0; i < pl->weapons_n; i++) n += g->cards[pl->weapons[i]].holder == holder;
    return n;
}

int azk_attack_of(const azk_game *g, const azk_cardset *cs, int c) {
    int a = azk_def(cs, g, c)->attack + fx_attack(g, c);
    self_statics(g, cs, c, &a, NULL);
    const azk_player *pl = &g->pl[g->cards[c].owner];
    for (int i = 0; i < pl->weapons_n; i++)
        if (g->cards[pl->weapons[i]].holder == c) a += azk_weapon_bonus(g, cs, pl->weapons[i]);
    return a;
}

int azk_health_of(const azk_game *g, const azk_cardset *cs, int c) {
    int h = azk_def(cs, g, c)->health;
    self_statics(g, cs, c, NULL, &h);
    return h;
}

int azk_count_untapped_ikz(const azk_game *g, int p) {
    const azk_player *pl = &g->pl[p];
    int n = 0;
    for (int i = 0; i < pl->ikz_area_n; i++) n += !(g->cards[pl->ikz_area[i]].flags & AZK_CF_TAPPED);
    return n;
}

/* ---------------------------------------------------------------------------
 * Zones
 * ------------------------------------------------------------------------- */
/* The lowest health a card of this definition can have: printed health plus
 * every negative static health change (precomputed, cardset.h). Statics are
 * conditional, so this is a bound that lets state checks skip evaluating
 * conditions. */
static inline int min_health(const azk_cardset *cs, const azk_game *g, int c) {
    return cs->facts[g->cards[c].def].min_health;
}
int azk_min_health(const azk_cardset *cs, const azk_game *g, int c) { return min_health(cs, g, c); }

/* at_risk bit of a card in a row (game.h); 0 elsewhere. */
static inline unsigned risk_bit(const azk_card *k) {
    return k->zone == AZK_Z_GARDEN ? 1u << k->pos : k->zone == AZK_Z_ALLEY ? 1u << (AZK_ROW + k->pos) : 0;
}

static void list_remove(azk_game *g, uint8_t *arr, uint8_t *n, int pos) {
    for (int i = pos; i + 1 < *n; i++) {
        arr[i] = arr[i + 1];
        g->cards[arr[i]].pos = (uint8_t)i;
    }
    (*n)--;
}

static void list_insert(azk_game *g, uint8_t *arr, uint8_t *n, int pos, int c) {
    for (int i = *n; i > pos; i--) {
        arr[i] = arr[i - 1];
        g->cards[arr[i]].pos = (uint8_t)i;
    }
    arr[pos] = (uint8_t)c;
    g->cards[c].pos = (uint8_t)pos;
    (*n)++;
}

/* The row hints (game.h: act_src, occ) as card k leaves or enters the
 * place `code` (AZK_CODE_GARDEN / AZK_CODE_ALLEY). */
static inline void row_hints_leave(azk_game *g, const azk_card *k, unsigned code) {
    g->act_src[k->owner] &= (uint16_t)~code;
    g->occ[k->owner] &= (uint16_t)~code;
}
static inline void row_hints_enter(azk_game *g, const azk_cardset *cs, const azk_card *k, unsigned code) {
    if (cs->facts[k->def].flags & AZK_DF_ACTIVATED) g->act_src[k->owner] |= (uint16_t)code;
    g->occ[k->owner] |= (uint16_t)code;
}

static void zone_remove(azk_game *g, int c) {
    azk_card *k = &g->cards[c];
    azk_player *pl = &g->pl[k->owner];
    switch (k->zone) {
    case AZK_Z_DECK: list_remove(g, pl->deck, &pl->deck_n, k->pos); break;
    case AZK_Z_HAND: list_remove(g, pl->hand, &pl->hand_n, k->pos); break;
    case AZK_Z_DISCARD: list_remove(g, pl->discard, &pl->discard_n, k->pos); break;
    case AZK_Z_WEAPON: list_remove(g, pl->weapons, &pl->weapons_n, k->pos); break;
    case AZK_Z_IKZ_AREA:
        list_remove(g, pl->ikz_area, &pl->ikz_area_n, k->pos);
        g->ikz_untapped[k->owner] -= !(k->flags & AZK_CF_TAPPED);
        break;
    case AZK_Z_IKZ_PILE: list_remove(g, pl->ikz_pile, &pl->ikz_pile_n, k->pos); break;
    case AZK_Z_LOOK: list_remove(g, pl->look, &pl->look_n, k->pos); break;
    case AZK_Z_GARDEN: pl->garden[k->pos] = AZK_NONE; row_hints_leave(g, k, AZK_CODE_GARDEN(k->pos)); break;
    case AZK_Z_ALLEY: pl->alley[k->pos] = AZK_NONE; row_hints_leave(g, k, AZK_CODE_ALLEY(k->pos)); break;
    default: break; /* leader, gate, out, aside, resolving: no array */
    }
}

/* Canonical hand position: by definition index, then card index (DESIGN §3). */
static int hand_insert_pos(const azk_game *g, const azk_player *pl, int c) {
    int d = g->cards[c].def;
    int pos = pl->hand_n;
    while (pos > 0) {
        const azk_card *o = &g->cards[pl->hand[pos - 1]];
        if (o->def < d || (o->def == d && pl->hand[pos - 1] < c)) break;
        pos--;
    }
    return pos;
}

/* `slot`: garden/alley slot; deck: 0 = bottom, 1 = top; ignored elsewhere. */
static void zone_add(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_card *k = &g->cards[c];
    azk_player *pl = &g->pl[k->owner];
    k->zone = (uint8_t)zone;
    switch (zone) {
    case AZK_Z_DECK:
        if (slot == 0) list_insert(g, pl->deck, &pl->deck_n, 0, c);
        else list_insert(g, pl->deck, &pl->deck_n, pl->deck_n, c);
        break;
    case AZK_Z_HAND: list_insert(g, pl->hand, &pl->hand_n, hand_insert_pos(g, pl, c), c); break;
    case AZK_Z_DISCARD: list_insert(g, pl->discard, &pl->discard_n, pl->discard_n, c); break;
    case AZK_Z_WEAPON: list_insert(g, pl->weapons, &pl->weapons_n, pl->weapons_n, c); break;
    case AZK_Z_IKZ_AREA: /* enters untapped (azk_move cleared the flags) */
        list_insert(g, pl->ikz_area, &pl->ikz_area_n, pl->ikz_area_n, c);
        g->ikz_untapped[k->owner]++;
        break;
    case AZK_Z_IKZ_PILE: list_insert(g, pl->ikz_pile, &pl->ikz_pile_n, pl->ikz_pile_n, c); break;
    case AZK_Z_LOOK: list_insert(g, pl->look, &pl->look_n, pl->look_n, c); break;
    case AZK_Z_GARDEN:
        pl->garden[slot] = (uint8_t)c;
        k->pos = (uint8_t)slot;
        row_hints_enter(g, cs, k, AZK_CODE_GARDEN(slot));
        break;
    case AZK_Z_ALLEY:
        pl->alley[slot] = (uint8_t)c;
        k->pos = (uint8_t)slot;
        row_hints_enter(g, cs, k, AZK_CODE_ALLEY(slot));
        break;
    default: k->pos = 0; break;
    }
}

/* Move a card to a zone: a new object (RULES §2.1). A holder leaving the
 * garden takes its weapons to the discard pile (RULES §5.3). */
void azk_move(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_card *k = &g->cards[c];
    int was_holder = k->zone == AZK_Z_GARDEN;
    zone_remove(g, c);
    k->incarnation = ++g->next_incarnation;
    k->damage = 0;
    k->flags = 0;
    k->once_used = 0;
    k->holder = AZK_NONE;
    zone_add(g, cs, c, zone, slot);
    if ((zone == AZK_Z_GARDEN || zone == AZK_Z_ALLEY) && min_health(cs, g, c) <= 0)
        g->at_risk[k->owner] |= (uint16_t)risk_bit(k);
    if (was_holder && zone != AZK_Z_GARDEN) {
        azk_player *pl = &g->pl[k->owner];
        for (int i = 0; i < pl->weapons_n;) {
            int w = pl->weapons[i];
            if (g->cards[w].holder == c) {
                azk_move(g, cs, w, AZK_Z_DISCARD, 0);
                azk_event(g, AZK_EV_DISCARDED, k->owner, w, 0);
            } else {
                i++;
            }
        }
    }
}

/* Put an entity into a row slot; an occupied slot is replaced first (§2.3). */
static void place_in_row(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_player *pl = &g->pl[g->cards[c].owner];
    uint8_t *row = zone == AZK_Z_GARDEN ? pl->garden : pl->alley;
    if (row[slot] != AZK_NONE) {
        int old = row[slot];
        azk_move(g, cs, old, AZK_Z_DISCARD, 0);
        azk_event(g, AZK_EV_REPLACED, g->cards[old].owner, old, zone);
    }
    azk_move(g, cs, c, zone, slot);
    if (zone == AZK_Z_GARDEN) g->cards[c].flags |= AZK_CF_COOLDOWN; /* §5.5 */
}

/* The one way a game ends: result and reason together (RULES §9, rules
 * §13). Whatever was in progress (a suspended ability, queued triggers) is
 * abandoned; the finished game accepts no further step. */
static void game_over(azk_game *g, int result, int reason) {
    if (g->result != AZK_RES_ONGOING) return;
    g->result = (uint8_t)result;
    g->end_reason = (uint8_t)reason;
    g->phase = AZK_PHASE_GAME_OVER;
    g->flow = AZK_FLOW_OVER;
    g->vm.active = 0;
    g->vm.waiting = 0;
    g->trig_n = 0;
    if (result == AZK_RES_TRUNCATED) azk_event(g, AZK_EV_TRUNCATED, -1, -1, reason);
    azk_event(g, AZK_EV_GAME_OVER, -1, -1, result);
}

/* An engine bound or cap was reached: the game ends TRUNCATED with the
 * reason (docs/rulings.md R-TRUNC). Called where the bound is hit, so the
 * step stops there; nobody plays on from the partial state. */
void azk_truncate(azk_game *g, int reason) { game_over(g, AZK_RES_TRUNCATED, reason); }

/* Draw n; drawing from an empty deck loses at once (RULES §9). */
void azk_draw(azk_game *g, const azk_cardset *cs, int p, int n) {
    for (int i = 0; i < n && g->result == AZK_RES_ONGOING; i++) {
        azk_player *pl = &g->pl[p];
        if (pl->deck_n == 0) {
            game_over(g, p == 0 ? AZK_RES_WIN_P1 : AZK_RES_WIN_P0, AZK_END_DECK_OUT);
            return;
        }
        int c = pl->deck[pl->deck_n - 1];
        azk_move(g, cs, c, AZK_Z_HAND, 0);
        azk_event(g, AZK_EV_DRAWN, p, c, 0);
    }
}

/* Pay IKZ: regular cards before the token, the token goes out of game (§5.1, D4). */
static void pay_ikz(azk_game *g, const azk_cardset *cs, int p, int n) {
    azk_player *pl = &g->pl[p];
    for (int pass = 0; pass < 2 && n > 0; pass++) {
        for (int i = 0; i < pl->ikz_area_n && n > 0; i++) {
            int c = pl->ikz_area[i];
            int is_token = c == pl->token;
            if ((pass == 0) == is_token || (g->cards[c].flags & AZK_CF_TAPPED)) continue;
            if (is_token) {
                azk_move(g, cs, c, AZK_Z_OUT, 0);
                i--;
            } else {
                g->cards[c].flags |= AZK_CF_TAPPED;
                g->ikz_untapped[p]--;
            }
            n--;
            azk_event(g, AZK_EV_PAID, p, c, 1);
        }
    }
}

void azk_add_effect(azk_game *g, int c, int kind, int duration, int creator, int amount, unsigned status) {
    if (g->fx_n >= AZK_MAX_EFFECTS) { /* compact dead entries first */
        int w = 0;
        for (int i = 0; i < g->fx_n; i++)
            if (fx_live(g, &g->fx[i])) g->fx[w++] = g->fx[i];
        g->fx_n = (uint8_t)w;
        if (g->fx_n >= AZK_MAX_EFFECTS) { /* a bound, never a silent drop */
            azk_truncate(g, AZK_END_EFFECTS);
            return;
        }
    }
    azk_effect *e = &g->fx[g->fx_n++];
    memset(e, 0, sizeof *e);
    e->card = (uint8_t)c;
    e->kind = (uint8_t)kind;
    e->duration = (uint8_t)duration;
    e->creator = (uint8_t)creator;
    e->amount = (int8_t)amount;
    e->status = (uint8_t)status;
    e->incarnation = g->cards[c].incarnation;
    azk_event(g, AZK_EV_EFFECT, creator, c, kind == AZK_FX_ATTACK ? amount : (int)status);
}

/* Drop effects with the given duration (and creator, for START_OF_NEXT_TURN),
 * and every dead one. */
static void expire_effects(azk_game *g, int duration, int creator) {
    int w = 0;
    for (int i = 0; i < g->fx_n; i++) {
        azk_effect *e = &g->fx[i];
        int expire = !fx_live(g, e) || (e->duration == duration && (creator < 0 || e->creator == creator));
        if (!expire) g->fx[w++] = *e;
    }
    memset(&g->fx[w], 0, sizeof(azk_effect) * (size_t)(g->fx_n - w));
    g->fx_n = (uint8_t)w;
}

/* ---------------------------------------------------------------------------
 * Damage and state checks (RULES §6.3, §7, §9)
 * ------------------------------------------------------------------------- */
void azk_deal_damage(azk_game *g, const azk_cardset *cs, int c, int amount, int is_effect) {
    if (amount <= 0 || !azk_on_field(g, c)) return;
    unsigned st = azk_status_of(g, cs, c);
    if (st & AZK_ST_FROZEN) return;                      /* cannot be damaged */
    if (is_effect && (st & AZK_ST_EFFECT_IMMUNE)) return; /* prevented */
    amount -= azk_def(cs, g, c)->carapace;
    if (amount <= 0) return;
    g->cards[c].damage = (int16_t)(g->cards[c].damage + amount > AZK_MAX_DAMAGE ? AZK_MAX_DAMAGE : g->cards[c].damage + amount);
    g->at_risk[g->cards[c].owner] |= (uint16_t)risk_bit(&g->cards[c]);
    azk_event(g, AZK_EV_DAMAGE, g->cards[c].owner, c, amount);
}

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

unsigned azk_count_listen(const azk_game *g, const azk_cardset *cs, int p) {
    unsigned m = 0;
    for (int c = p * AZK_CARDS_PER_PLAYER; c < (p + 1) * AZK_CARDS_PER_PLAYER; c++)
        m |= cs->facts[g->cards[c].def].trigger_mask;
    return m;
}

void azk_rebuild_hints(azk_game *g, const azk_cardset *cs) {
    for (int p = 0; p < AZK_PLAYERS; p++) {
        g->ikz_untapped[p] = (uint8_t)azk_count_untapped_ikz(g, p);
        g->act_src[p] = (uint16_t)azk_count_act_src(g, cs, p);
        g->occ[p] = (uint16_t)azk_count_occ(g, p);
        g->listen[p] = (uint16_t)azk_count_listen(g, cs, p);
        g->at_risk[p] = 0;
        for (int s = 0; s < AZK_ROW; s++) { /* bits 0..4 garden slots, 5..9 alley slots */
            int c = g->pl[p].garden[s];
            if (c != AZK_NONE && g->cards[c].damage >= min_health(cs, g, c)) g->at_risk[p] |= (uint16_t)(1u << s);
            c = g->pl[p].alley[s];
            if (c != AZK_NONE && g->cards[c].damage >= min_health(cs, g, c))
                g->at_risk[p] |= (uint16_t)(1u << (AZK_ROW + s));
        }
    }
}

/* The full check; azk_state_check (game.h) calls it only when a row slot is
 * in the at_risk hint or a leader's damage reached its lowest possible
 * health: otherwise nothing can be destroyed and nobody has lost. */
void azk_state_check_slow(azk_game *g, const azk_cardset *cs) {
    if (g->result != AZK_RES_ONGOING) return;
    for (int changed = 1; changed;) { /* a death can shrink another's static health */
        changed = 0;
        for (int p = 0; p < AZK_PLAYERS; p++) {
            /* only slots in the at_risk hint (game.h), in slot order as before:
             * bits 0..4 garden slots, 5..9 alley slots (each row indexed in
             * its own array: reading past garden[] into alley[] is undefined) */
            for (unsigned risk = g->at_risk[p]; risk; risk &= risk - 1) {
                int k = __builtin_ctz(risk);
                int c = k < AZK_ROW ? g->pl[p].garden[k] : g->pl[p].alley[k - AZK_ROW];
                /* fast path: damage below the lowest health its statics could give;
                 * it stays so until new damage, which sets the bit again */
                if (c == AZK_NONE || g->cards[c].damage < min_health(cs, g, c)) {
                    g->at_risk[p] &= (uint16_t)~(1u << k);
                    continue;
                }
                if (g->cards[c].damage < azk_health_of(g, cs, c)) continue;
                if (azk_status_of(g, cs, c) & AZK_ST_GODMODE) continue;
                azk_move(g, cs, c, AZK_Z_DISCARD, 0);
                azk_event(g, AZK_EV_DESTROYED, p, c, 0);
                changed = 1;
            }
        }
    }
    int dead[AZK_PLAYERS];
    for (int p = 0; p < AZK_PLAYERS; p++) {
        int c = g->pl[p].leader;
        dead[p] = g->cards[c].damage >= min_health(cs, g, c) && /* same fast path */
                  azk_health_of(g, cs, c) - g->cards[c].damage <= 0;
    }
    int dead0 = dead[0], dead1 = dead[1];
    if (dead0 && dead1) game_over(g, AZK_RES_DRAW, AZK_END_LEADER); /* D10 */
    else if (dead0) game_over(g, AZK_RES_WIN_P1, AZK_END_LEADER);
    else if (dead1) game_over(g, AZK_RES_WIN_P0, AZK_END_LEADER);
}

void azk_state_check_all(azk_game *g, const azk_cardset *cs) {
    azk_rebuild_hints(g, cs);
    azk_state_check(g, cs);
}

/* ---------------------------------------------------------------------------
 * Triggers (RULES §8, D8)
 * ------------------------------------------------------------------------- */
static int zone_allows(const azk_game *g, int c, unsigned flags) {
    uint8_t z = g->cards[c].zone;
    if ((flags & AZK_ABF_GARDEN_ONLY) && z != AZK_Z_GARDEN) return 0;
    if ((flags & AZK_ABF_ALLEY_ONLY) && z != AZK_Z_ALLEY) return 0;
    return 1;
}

static void enqueue(azk_game *g, int source, int ability, int ctx_card, int ctx_value) {
    if (g->trig_n >= AZK_MAX_TRIGGERS) {
        azk_truncate(g, AZK_END_TRIGGER_QUEUE);
        return;
    }
    azk_trigger_entry *t = &g->trig[g->trig_n++];
    t->source = (uint8_t)source;
    t->ability = (uint8_t)ability;
    t->controller = g->cards[source].owner;
    t->ctx_card = (uint8_t)(ctx_card < 0 ? AZK_NONE : ctx_card);
    t->source_inc = g->cards[source].incarnation;
    t->ctx_inc = ctx_card < 0 ? 0 : g->cards[ctx_card].incarnation;
    t->ctx_value = (int16_t)ctx_value;
}

/* Queue `source`'s abilities for `trigger` (azk_fire_card in game.h has
 * already seen that the definition listens). Frozen cards have no abilities. */
void azk_fire_card_slow(azk_game *g, const azk_cardset *cs, int source, int trigger, int ctx_card, int ctx_value) {
    const azk_card_def *d = azk_def(cs, g, source);
    if (azk_granted_status(g, source) & AZK_ST_FROZEN) return;
    for (int i = 0; i < d->ability_count; i++) {
        const azk_ability *ab = &cs->abilities[d->ability_first + i];
        if (ab->kind != AZK_AB_TRIGGERED || ab->trigger != trigger) continue;
        if (!zone_allows(g, source, ab->flags)) continue;
        if ((ab->flags & AZK_ABF_ONCE_PER_TURN) && (g->cards[source].once_used & (1u << i))) continue;
        enqueue(g, source, d->ability_first + i, ctx_card, ctx_value);
    }
}

static void fire_with_weapons(azk_game *g, const azk_cardset *cs, int holder, int trigger) {
    azk_fire_card(g, cs, holder, trigger, holder, 0);
    const azk_player *pl = &g->pl[g->cards[holder].owner];
    for (int i = 0; i < pl->weapons_n; i++)
        if (g->cards[pl->weapons[i]].holder == holder) azk_fire_card(g, cs, pl->weapons[i], trigger, holder, 0);
}

/* An event seen by every card of the players in `players` (bit mask), active
 * player first, each in field order (D8). */
static void fire_all(azk_game *g, const azk_cardset *cs, int trigger, unsigned players, int ctx_card, int ctx_value) {
    for (int k = 0; k < AZK_PLAYERS; k++) {
        int p = k == 0 ? g->active : 1 - g->active;
        if (!(players & (1u << p)) || !(g->listen[p] & (1u << trigger))) continue; /* none of p's cards listens */
        const azk_player *pl = &g->pl[p];
        azk_fire_card(g, cs, pl->leader, trigger, ctx_card, ctx_value);
        azk_fire_card(g, cs, pl->gate, trigger, ctx_card, ctx_value);
        for (unsigned m = g->occ[p] & (AZK_CODES_GARDEN | AZK_CODES_ALLEY); m; m &= m - 1) { /* garden, then alley */
            int code = __builtin_ctz(m);
            azk_fire_card(g, cs, azk_row_card(pl, code), trigger,
                          ctx_card, ctx_value);
        }
        /* weapons grouped by holder in field order, each in attachment order */
        for (int h = 0; h <= AZK_ROW; h++) {
            int holder = h == 0 ? pl->leader : pl->garden[h - 1];
            if (holder == AZK_NONE) continue;
            for (int i = 0; i < pl->weapons_n; i++)
                if (g->cards[pl->weapons[i]].holder == holder)
                    azk_fire_card(g, cs, pl->weapons[i], trigger, ctx_card, ctx_value);
        }
    }
}

void azk_fire(azk_game *g, const azk_cardset *cs, int trigger, int ctx_card, int ctx_value) {
    fire_all(g, cs, trigger, 3u, ctx_card, ctx_value);
}

void azk_return_to_hand(azk_game *g, const azk_cardset *cs, int c) {
    int owner = g->cards[c].owner;
    azk_move(g, cs, c, AZK_Z_HAND, 0);
    azk_event(g, AZK_EV_RETURNED, owner, c, 0);
    azk_fire(g, cs, AZK_TRIG_ENTITY_RETURNED, c, 0);
}

/* ---------------------------------------------------------------------------
 * Playing cards (RULES §5)
 * ------------------------------------------------------------------------- */
/* Holder code (0 leader, 1..5 garden slot+1) to card index, AZK_NONE if empty. */
int azk_holder_code_card(const azk_game *g, int p, int code) {
    if (code == 0) return g->pl[p].leader;
    if (code < 1 || code > AZK_ROW) return AZK_NONE;
    return g->pl[p].garden[code - 1];
}

/* Play card `c` (already paid for unless free): entity to `zone` slot, weapon
 * onto holder code, spell onto the resolving zone with its program started. */
void azk_play_card(azk_game *g, const azk_cardset *cs, int c, int zone, int where, int free) {
    int p = g->cards[c].owner;
    const azk_card_def *d = azk_def(cs, g, c);
    (void)free;
    azk_event(g, AZK_EV_PLAYED, p, c, zone);
    if (d->card_type == AZK_CT_ENTITY) {
        int before = g->pl[p].played_entities;
        if (g->pl[p].played_entities < 255) g->pl[p].played_entities++;
        place_in_row(g, cs, c, zone, where);
        azk_fire_card(g, cs, c, AZK_TRIG_ON_PLAY, c, before);
        azk_fire_card(g, cs, c, zone == AZK_Z_GARDEN ? AZK_TRIG_ON_PLAY_GARDEN : AZK_TRIG_ON_PLAY_ALLEY, c, before);
    } else if (d->card_type == AZK_CT_WEAPON) {
        int holder = azk_holder_code_card(g, p, where);
        azk_move(g, cs, c, AZK_Z_WEAPON, 0);
        g->cards[c].holder = (uint8_t)holder;
        azk_fire_card(g, cs, c, AZK_TRIG_ON_PLAY, holder, 0);
        azk_fire_card(g, cs, c, AZK_TRIG_WHEN_EQUIPPING, holder, 0);
    } else if (d->card_type == AZK_CT_SPELL) {
        azk_move(g, cs, c, AZK_Z_RESOLVING, 0);
        int ab = cs->facts[g->cards[c].def].spell_ability;
        if (ab != AZK_NO_ABILITY && cs->abilities[ab].program != AZK_NO_PC) {
            azk_vm_start(g, cs, ab, c, p, -1, 0, c);
        } else {
            azk_move(g, cs, c, AZK_Z_DISCARD, 0);
        }
    }
    azk_state_check(g, cs);
}

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
    if (!zone_allows(g, c, ab->flags)) return 0;
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

/* ---------------------------------------------------------------------------
 * Combat (RULES §6)
 * ------------------------------------------------------------------------- */
static int attack_intact(const azk_game *g) {
    const azk_card *a = &g->cards[g->attacker], *t = &g->cards[g->target];
    int a_ok = a->incarnation == g->attacker_inc && (a->zone == AZK_Z_GARDEN || a->zone == AZK_Z_LEADER);
    int t_ok = t->incarnation == g->target_inc && (t->zone == AZK_Z_GARDEN || t->zone == AZK_Z_LEADER);
    return a_ok && t_ok;
}

static void end_attack(azk_game *g) {
    azk_event(g, AZK_EV_ATTACK_ENDED, g->active, g->attacker, 0);
    g->in_attack = 0;
    g->flow = AZK_FLOW_MAIN;
}

static void combat_damage(azk_game *g, const azk_cardset *cs) {
    int a = azk_attack_of(g, cs, g->attacker), t = azk_attack_of(g, cs, g->target);
    azk_deal_damage(g, cs, g->target, a < 0 ? 0 : a, 0);
    azk_deal_damage(g, cs, g->attacker, t < 0 ? 0 : t, 0);
    azk_state_check(g, cs);
}

/* The shocked condition is used up by the untap step it stops (§7): drop
 * the SHOCKED bit from the card's granted statuses, and effects left empty. */
static void clear_granted_shock(azk_game *g, int c) {
    int w = 0;
    for (int i = 0; i < g->fx_n; i++) {
        azk_effect e = g->fx[i];
        if (e.card == c && e.kind == AZK_FX_STATUS) {
            e.status &= (uint8_t)~AZK_ST_SHOCKED;
            if (e.status == 0) continue; /* it granted only the shock */
        }
        g->fx[w++] = e;
    }
    memset(&g->fx[w], 0, sizeof(azk_effect) * (size_t)(g->fx_n - w));
    g->fx_n = (uint8_t)w;
}

/* ---------------------------------------------------------------------------
 * Turn machine (RULES §3, §4)
 * ------------------------------------------------------------------------- */
/* Clear once-per-turn marks (`once` bits) and card flags (`flags`) on every
 * card that can carry them: a zone change resets both (azk_move), and only
 * cards in the leader, gate, row and weapon zones ever get them (the state
 * checker enforces that for written states), so walking those zones of both
 * players equals walking all 126 cards, at a fifth of the cost. */
static void clear_field_marks(azk_game *g, unsigned once, unsigned flags) {
    uint8_t keep_once = (uint8_t)~once, keep_flags = (uint8_t)~flags;
    for (int p = 0; p < AZK_PLAYERS; p++) {
        const azk_player *pl = &g->pl[p];
        azk_card *k;
        k = &g->cards[pl->leader]; k->once_used &= keep_once; k->flags &= keep_flags;
        k = &g->cards[pl->gate]; k->once_used &= keep_once; k->flags &= keep_flags;
        for (unsigned m = g->occ[p] & (AZK_CODES_GARDEN | AZK_CODES_ALLEY); m; m &= m - 1) {
            int code = __builtin_ctz(m);
            k = &g->cards[azk_row_card(pl, code)];
            k->once_used &= keep_once;
            k->flags &= keep_flags;
        }
        for (int i = 0; i < pl->weapons_n; i++) {
            k = &g->cards[pl->weapons[i]];
            k->once_used &= keep_once;
            k->flags &= keep_flags;
        }
    }
}

static void start_phase(azk_game *g, const azk_cardset *cs) {
    int p = g->active;
    if (g->turn > g->turn_cap) {
        game_over(g, AZK_RES_TRUNCATED, AZK_END_TURN_CAP);
        return;
    }
    azk_event(g, AZK_EV_TURN_START, p, -1, g->turn);
    expire_effects(g, AZK_DUR_START_OF_NEXT_TURN, p); /* 4.1.1, D2 */
    clear_field_marks(g, 0xFFu, 0); /* once/turn is per turn */
    g->pl[0].played_entities = g->pl[1].played_entities = 0;
    /* 4.1.2: p's cards on the field are exactly those in these arrays (game.h
     * invariants), so walk them instead of all of p's cards; each card is
     * handled on its own, so the order does not matter */
    azk_player *pl = &g->pl[p];
    uint8_t field[4 + 2 * AZK_ROW + AZK_WEAPON_CAP + AZK_IKZ_AREA_CAP];
    int m = 0;
    field[m++] = pl->leader;
    field[m++] = pl->gate;
    for (int s = 0; s < AZK_ROW; s++) {
        if (pl->garden[s] != AZK_NONE) field[m++] = pl->garden[s];
        if (pl->alley[s] != AZK_NONE) field[m++] = pl->alley[s];
    }
    for (int i = 0; i < pl->weapons_n; i++) field[m++] = pl->weapons[i];
    for (int i = 0; i < pl->ikz_area_n; i++) field[m++] = pl->ikz_area[i];
    /* Shocked (a card flag, or a status granted by an effect: a card set
     * may grant it) is used up by this untap step whether or not the card is
     * tapped now (§7): a tapped card stays tapped, an untapped one just
     * loses the condition. Granted shocks are rare, so look for one first. */
    int granted_shock = 0;
    for (int i = 0; i < g->fx_n; i++) granted_shock |= g->fx[i].kind == AZK_FX_STATUS && (g->fx[i].status & AZK_ST_SHOCKED);
    for (int i = 0; i < m; i++) {
        int c = field[i];
        azk_card *k = &g->cards[c];
        if ((k->flags & AZK_CF_SHOCKED) || (granted_shock && (azk_granted_status(g, c) & AZK_ST_SHOCKED))) {
            k->flags &= (uint8_t)~AZK_CF_SHOCKED;
            if (granted_shock) clear_granted_shock(g, c);
            continue;
        }
        if (!(k->flags & AZK_CF_TAPPED)) continue;
        k->flags &= (uint8_t)~AZK_CF_TAPPED;
        g->ikz_untapped[p] += k->zone == AZK_Z_IKZ_AREA;
    }
    fire_all(g, cs, AZK_TRIG_START_OF_TURN, 1u << p, -1, 0); /* 4.1.3 */
    g->flow = AZK_FLOW_START_DRAW;
}

static void start_draw(azk_game *g, const azk_cardset *cs) {
    int p = g->active;
    azk_draw(g, cs, p, 1); /* 4.1.4, D3 */
    if (g->result != AZK_RES_ONGOING) return;
    azk_player *pl = &g->pl[p];
    if (pl->ikz_pile_n > 0) { /* 4.1.5 */
        int c = pl->ikz_pile[pl->ikz_pile_n - 1];
        azk_move(g, cs, c, AZK_Z_IKZ_AREA, 0);
        azk_event(g, AZK_EV_IKZ_GAINED, p, c, 0);
    }
    if (g->turn == 2 && g->cards[pl->token].zone == AZK_Z_ASIDE) {
        azk_move(g, cs, pl->token, AZK_Z_IKZ_AREA, 0);
        azk_event(g, AZK_EV_IKZ_GAINED, p, pl->token, 1);
    }
    g->flow = AZK_FLOW_MAIN;
}

static void end_cleanup(azk_game *g, const azk_cardset *cs) {
    for (int p = 0; p < AZK_PLAYERS; p++) { /* 4.3.2: entities lose damage (the rows hold exactly them) */
        for (int s = 0; s < AZK_ROW; s++) {
            if (g->pl[p].garden[s] != AZK_NONE) g->cards[g->pl[p].garden[s]].damage = 0;
            if (g->pl[p].alley[s] != AZK_NONE) g->cards[g->pl[p].alley[s]].damage = 0;
        }
    }
    clear_field_marks(g, 0, AZK_CF_COOLDOWN);
    expire_effects(g, AZK_DUR_END_OF_TURN, -1); /* 4.3.3 */
    for (int p = 0; p < AZK_PLAYERS; p++) {   /* 4.3.4 */
        while (g->pl[p].weapons_n > 0) {
            int w = g->pl[p].weapons[g->pl[p].weapons_n - 1];
            azk_move(g, cs, w, AZK_Z_DISCARD, 0);
            azk_event(g, AZK_EV_DISCARDED, p, w, 0);
        }
    }
    azk_state_check(g, cs); /* static health may have changed */
    if (g->result != AZK_RES_ONGOING) return;
    azk_event(g, AZK_EV_TURN_END, g->active, -1, g->turn);
    g->active = (uint8_t)(1 - g->active); /* 4.3.5 */
    g->turn++;
    g->flow = AZK_FLOW_START;
}

static void mulligan(azk_game *g, const azk_cardset *cs, int p) {
    azk_player *pl = &g->pl[p];
    while (pl->hand_n > 0) azk_move(g, cs, pl->hand[0], AZK_Z_DECK, 0); /* to the bottom */
    azk_draw(g, cs, p, AZK_STARTING_HAND);
    azk_rng_shuffle_u8(&g->rng, pl->deck, pl->deck_n);
    for (int i = 0; i < pl->deck_n; i++) g->cards[pl->deck[i]].pos = (uint8_t)i;
    azk_event(g, AZK_EV_MULLIGAN, p, -1, 1);
}

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
 * Applying one validated decision
 * ------------------------------------------------------------------------- */

int azk_apply(azk_game *g, const azk_cardset *cs, int type, int p0, int p1) {
    int me = azk_current_player(g);
    azk_player *pl = &g->pl[me];
    switch (type) {
    case AZK_ACT_MULLIGAN_KEEP:
    case AZK_ACT_MULLIGAN_SHUFFLE:
        if (type == AZK_ACT_MULLIGAN_SHUFFLE) mulligan(g, cs, me);
        else azk_event(g, AZK_EV_MULLIGAN, me, -1, 0);
        pl->mulligan_done = 1;
        if (g->pl[0].mulligan_done && g->pl[1].mulligan_done) {
            g->turn = 1;
            g->active = g->first_player;
            g->flow = AZK_FLOW_START;
        }
        return AZK_OK;
    case AZK_ACT_CHOOSE:
        g->vm.has_answer = 1;
        g->vm.answer = g->prompt.opt[p0];
        g->vm.waiting = 0;
        return AZK_OK;
    case AZK_ACT_NO_OP:
        if (g->phase == AZK_PHASE_PROMPT) {
            g->vm.has_answer = 1;
            g->vm.answer = -1;
            g->vm.waiting = 0;
        } else if (g->phase == AZK_PHASE_RESPONSE) {
            g->flow = AZK_FLOW_DEFENDER;
        } else if (g->phase == AZK_PHASE_DEFENDER) {
            g->flow = AZK_FLOW_WHEN_ATTACKED;
        }
        return AZK_OK;
    case AZK_ACT_END_TURN:
        g->flow = AZK_FLOW_END;
        return AZK_OK;
    case AZK_ACT_PLAY_ENTITY_TO_GARDEN:
    case AZK_ACT_PLAY_ENTITY_TO_ALLEY:
    case AZK_ACT_PLAY_WEAPON:
    case AZK_ACT_PLAY_SPELL_MAIN:
    case AZK_ACT_PLAY_SPELL_RESPONSE: {
        int c = pl->hand[p0];
        pay_ikz(g, cs, me, azk_def(cs, g, c)->cost);
        int zone = type == AZK_ACT_PLAY_ENTITY_TO_GARDEN ? AZK_Z_GARDEN
                   : type == AZK_ACT_PLAY_ENTITY_TO_ALLEY ? AZK_Z_ALLEY
                                                         : 0;
        azk_play_card(g, cs, c, zone, p1, 0);
        return AZK_OK;
    }
    case AZK_ACT_ATTACK: {
        int a = azk_place_card(&g->pl[me], p0);
        int t = p1 == 0 ? g->pl[1 - me].leader : g->pl[1 - me].garden[p1 - 1];
        g->cards[a].flags |= AZK_CF_TAPPED;
        g->in_attack = 1;
        g->attacker = (uint8_t)a;
        g->target = (uint8_t)t;
        g->attacker_inc = g->cards[a].incarnation;
        g->target_inc = g->cards[t].incarnation;
        g->defender_used = 0;
        azk_event(g, AZK_EV_ATTACK_DECLARED, me, a, t);
        fire_with_weapons(g, cs, a, AZK_TRIG_WHEN_ATTACKING);
        g->flow = AZK_FLOW_RESPONSE;
        return AZK_OK;
    }
    case AZK_ACT_DECLARE_DEFENDER: {
        int d = pl->garden[p0];
        g->cards[d].flags |= AZK_CF_TAPPED;
        g->target = (uint8_t)d;
        g->target_inc = g->cards[d].incarnation;
        g->defender_used = 1;
        azk_event(g, AZK_EV_DEFENDER_DECLARED, me, d, 0);
        g->flow = AZK_FLOW_WHEN_ATTACKED;
        return AZK_OK;
    }
    case AZK_ACT_PORTAL_GATE: {
        int e = pl->alley[p0];
        g->cards[pl->gate].flags |= AZK_CF_TAPPED;
        place_in_row(g, cs, e, AZK_Z_GARDEN, p1); /* not played: no on-play (§5.6) */
        azk_event(g, AZK_EV_PORTALED, me, e, p1);
        azk_fire_card(g, cs, pl->gate, AZK_TRIG_PORTAL, e, azk_def(cs, g, e)->gate_points);
        return AZK_OK;
    }
    case AZK_ACT_ACTIVATE_ABILITY: {
        int c = azk_place_card(&g->pl[me], p0);
        int ab = cs->defs[g->cards[c].def].ability_first;
        const azk_card_def *d = azk_def(cs, g, c);
        int k = 0, idx = -1;
        for (int i = 0; i < d->ability_count; i++) {
            if (cs->abilities[ab + i].kind != AZK_AB_ACTIVATED) continue;
            if (k++ == p1) { idx = ab + i; break; }
        }
        const azk_ability *a = &cs->abilities[idx];
        g->cards[c].once_used |= (uint8_t)(1u << (idx - ab));
        pay_ikz(g, cs, me, a->ikz_cost);
        if (a->flags & AZK_ABF_TAP_COST) g->cards[c].flags |= AZK_CF_TAPPED;
        azk_event(g, AZK_EV_ABILITY, me, c, idx - ab);
        if (a->flags & AZK_ABF_SACRIFICE_COST) {
            azk_move(g, cs, c, AZK_Z_DISCARD, 0);
            azk_event(g, AZK_EV_DISCARDED, me, c, 1);
            azk_state_check(g, cs);
        }
        if (a->program != AZK_NO_PC) azk_vm_start(g, cs, idx, c, me, -1, 0, -1);
        return AZK_OK;
    }
    default:
        AZK_UNREACHABLE(); /* azk_step decodes only legal actions, and every type has a case */
        return AZK_ILLEGAL;
    }
}

/* Is there a legal defender redirect (RULES §6.2 b)? */
static int defender_step_needed(const azk_game *g, const azk_cardset *cs) {
    if (g->defender_used) return 0;
    if (azk_status_of(g, cs, g->attacker) & AZK_ST_INFILTRATE) return 0;
    return 1;
}

/* Drive the game to the next real decision (RULES §12) or the end.
 *
 * State checks (RULES §9) follow every change before anything else happens,
 * and in particular before any decision is offered: no main phase,
 * response, defender choice or prompt is ever asked while a lethally
 * damaged entity is on the field or a leader is at 0 or less (rules §13.4;
 * azk_check_state enforces it at every decision point, -15). The places:
 * here on entry (after the action just applied, e.g. a portal that takes a
 * bonus away), after each turn-machine step that changes cards, after every
 * VM instruction that changes the game and when an ability finishes (vm.c),
 * and inside damage, plays and sacrifices. Steps that only move the machine
 * (queueing triggers, phase changes) need none. */
void azk_advance(azk_game *g, const azk_cardset *cs) {
    int triggers_resolved = 0;
    azk_state_check(g, cs);
    for (;;) {
        if (g->result != AZK_RES_ONGOING) {
            g->phase = AZK_PHASE_GAME_OVER;
            azk_store_legal(g, NULL, 0);
            return;
        }
        if (g->vm.active) {
            if (g->vm.waiting) {
                g->phase = AZK_PHASE_PROMPT;
                azk_refresh_legal(g, cs);
                return;
            }
            azk_vm_run(g, cs);
            continue;
        }
        if (g->trig_n > 0) {
            azk_trigger_entry t = g->trig[0];
            memmove(&g->trig[0], &g->trig[1], sizeof(azk_trigger_entry) * (size_t)(g->trig_n - 1));
            g->trig_n--;
            memset(&g->trig[g->trig_n], 0, sizeof(azk_trigger_entry));
            if (++triggers_resolved > AZK_TRIGGER_LIMIT) {
                azk_truncate(g, AZK_END_TRIGGER_LIMIT);
                continue;
            }
            const azk_card *src = &g->cards[t.source];
            const azk_ability *ab = &cs->abilities[t.ability];
            /* A trigger whose source became a new object, or left the zone its
             * ability works from, does nothing (RULES §2.1). */
            if (src->incarnation != t.source_inc) continue;
            if (!zone_allows(g, t.source, ab->flags)) continue;
            /* a source frozen since the event has no abilities (RULES §7,
             * docs/rulings.md 18); frozen is only ever granted by effects */
            if (g->fx_n && (azk_granted_status(g, t.source) & AZK_ST_FROZEN)) continue;
            int rel = t.ability - azk_def(cs, g, t.source)->ability_first;
            if (ab->flags & AZK_ABF_ONCE_PER_TURN) {
                if (g->cards[t.source].once_used & (1u << rel)) continue;
                g->cards[t.source].once_used |= (uint8_t)(1u << rel);
            }
            int ctx = t.ctx_card;
            if (ctx != AZK_NONE && g->cards[ctx].incarnation != t.ctx_inc) ctx = AZK_NONE;
            azk_vm_start(g, cs, t.ability, t.source, t.controller, ctx == AZK_NONE ? -1 : ctx, t.ctx_value, -1);
            continue;
        }
        switch (g->flow) {
        case AZK_FLOW_MULLIGAN:
            g->phase = AZK_PHASE_MULLIGAN;
            azk_refresh_legal(g, cs);
            return;
        case AZK_FLOW_START:
            start_phase(g, cs);
            azk_state_check(g, cs); /* expired effects and untaps can change statics */
            continue;
        case AZK_FLOW_START_DRAW:
            start_draw(g, cs);
            azk_state_check(g, cs); /* hand, deck and IKZ counts can change statics */
            continue;
        case AZK_FLOW_MAIN:
            g->phase = AZK_PHASE_MAIN;
            break;
        case AZK_FLOW_RESPONSE:
            if (!attack_intact(g)) { end_attack(g); continue; } /* §6.4 */
            g->phase = AZK_PHASE_RESPONSE;
            break;
        case AZK_FLOW_DEFENDER:
            if (!attack_intact(g)) { end_attack(g); continue; }
            if (!defender_step_needed(g, cs)) { g->flow = AZK_FLOW_WHEN_ATTACKED; continue; }
            g->phase = AZK_PHASE_DEFENDER;
            break;
        case AZK_FLOW_WHEN_ATTACKED:
            if (!attack_intact(g)) { end_attack(g); continue; }
            azk_fire_card(g, cs, g->target, AZK_TRIG_WHEN_ATTACKED, g->attacker, 0);
            g->flow = AZK_FLOW_DAMAGE;
            continue;
        case AZK_FLOW_DAMAGE:
            if (!attack_intact(g)) { end_attack(g); continue; }
            combat_damage(g, cs);
            if (g->result != AZK_RES_ONGOING) continue;
            if (g->cards[g->attacker].incarnation == g->attacker_inc && azk_on_field(g, g->attacker))
                fire_with_weapons(g, cs, g->attacker, AZK_TRIG_AFTER_ATTACKING);
            g->flow = AZK_FLOW_AFTER_ATTACK;
            continue;
        case AZK_FLOW_AFTER_ATTACK:
            g->in_attack = 0;
            g->flow = AZK_FLOW_MAIN;
            continue;
        case AZK_FLOW_END:
            fire_all(g, cs, AZK_TRIG_END_OF_TURN, 1u << g->active, -1, 0);
            g->flow = AZK_FLOW_END_CLEANUP;
            continue;
        case AZK_FLOW_END_CLEANUP:
            end_cleanup(g, cs);
            continue;
        default:
            g->phase = AZK_PHASE_GAME_OVER;
            azk_store_legal(g, NULL, 0);
            return;
        }
        /* A decision point: one legal answer is no question (RULES §12).
         * The enumeration is the legal-action cache (game.h); a lone answer
         * is applied and the cache rebuilt at the next decision point. */
        int n = azk_refresh_legal(g, cs);
        if (n == 1) {
            int type = 0, p0 = 0, p1 = 0, w = __builtin_ctz(g->legal_words);
            azk_decode(w * 64 + __builtin_ctzll(g->legal[w]), &type, &p0, &p1);
            if (g->phase == AZK_PHASE_RESPONSE && type == AZK_ACT_NO_OP) {
                g->flow = AZK_FLOW_DEFENDER;
            } else {
                azk_apply(g, cs, type, p0, p1);
            }
            continue;
        }
        /* The defender is asked for a response (again after each one, D7). */
        if (g->phase == AZK_PHASE_RESPONSE) azk_event(g, AZK_EV_RESPONSE_REQUESTED, 1 - g->active, g->attacker, 0);
        return;
    }
}

/* ---------------------------------------------------------------------------
 * Setup (RULES §3)
 * ------------------------------------------------------------------------- */
azk_status azk_game_init(azk_game *g, const azk_cardset *cs, uint64_t seed, int deck0, int deck1) {
    if (!g || !cs || deck0 < 0 || deck1 < 0 || deck0 >= cs->num_decks || deck1 >= cs->num_decks) return AZK_ERR_ARG;
    memset(g, 0, sizeof *g);
    azk_rng_seed(&g->rng, seed, AZK_GAME_RNG_STREAM);
    g->turn_cap = AZK_DEFAULT_TURN_CAP;
    g->decision_cap = AZK_DEFAULT_DECISION_CAP;
    g->vm.source = g->vm.ctx_card = g->vm.spell_card = AZK_NONE;
    memset(g->vm.t, AZK_NONE, sizeof g->vm.t); /* as after any ability: one position, one hash */
    for (int p = 0; p < AZK_PLAYERS; p++) {
        const azk_decklist *dl = &cs->decks[p == 0 ? deck0 : deck1];
        azk_player *pl = &g->pl[p];
        memset(pl->garden, AZK_NONE, sizeof pl->garden);
        memset(pl->alley, AZK_NONE, sizeof pl->alley);
        int base = p * AZK_CARDS_PER_PLAYER;
        for (int i = 0; i < AZK_CARDS_PER_PLAYER; i++) {
            azk_card *k = &g->cards[base + i];
            k->owner = (uint8_t)p;
            k->holder = AZK_NONE;
            k->incarnation = ++g->next_incarnation;
            if (i == 0) { k->def = dl->leader; k->zone = AZK_Z_LEADER; }
            else if (i == 1) { k->def = dl->gate; k->zone = AZK_Z_GATE; }
            else if (i < 2 + AZK_DECK_MAIN) {
                k->def = dl->main[i - 2];
                k->zone = AZK_Z_DECK;
                k->pos = pl->deck_n;
                pl->deck[pl->deck_n++] = (uint8_t)(base + i);
            } else if (i < 2 + AZK_DECK_MAIN + AZK_DECK_IKZ) {
                k->def = dl->ikz[i - 2 - AZK_DECK_MAIN];
                k->zone = AZK_Z_IKZ_PILE;
                k->pos = pl->ikz_pile_n;
                pl->ikz_pile[pl->ikz_pile_n++] = (uint8_t)(base + i);
            } else { k->def = dl->token; k->zone = AZK_Z_ASIDE; }
        }
        pl->leader = (uint8_t)base;
        pl->gate = (uint8_t)(base + 1);
        pl->token = (uint8_t)(base + AZK_CARDS_PER_PLAYER - 1);
    }
    for (int p = 0; p < AZK_PLAYERS; p++) {
        azk_player *pl = &g->pl[p];
        azk_rng_shuffle_u8(&g->rng, pl->deck, pl->deck_n);
        for (int i = 0; i < pl->deck_n; i++) g->cards[pl->deck[i]].pos = (uint8_t)i;
    }
    azk_rebuild_hints(g, cs); /* the zones above were written directly */
    g->first_player = (uint8_t)azk_rng_bounded(&g->rng, 2); /* D1 */
    g->active = g->first_player;
    for (int k = 0; k < AZK_PLAYERS; k++) azk_draw(g, cs, (g->first_player + k) & 1, AZK_STARTING_HAND);
    g->flow = AZK_FLOW_MULLIGAN;
    g->phase = AZK_PHASE_MULLIGAN;
    g->events_rd = g->events_wr; /* setup draws are not news */
    azk_advance(g, cs);
    return AZK_OK;
}

void azk_game_set_turn_cap(azk_game *g, int turns) {
    g->turn_cap = (uint16_t)(turns < 1 ? 1 : turns > AZK_MAX_TURN_CAP ? AZK_MAX_TURN_CAP : turns);
}

void azk_game_set_decision_cap(azk_game *g, int decisions) {
    g->decision_cap = (uint16_t)(decisions < 1 ? 1 : decisions > AZK_MAX_DECISION_CAP ? AZK_MAX_DECISION_CAP : decisions);
    /* a cap the game has already reached ends it now, as the step reaching
     * it would have (found by the Python API fuzz: checker -17) */
    if (g->result == AZK_RES_ONGOING && g->decisions >= g->decision_cap) {
        azk_truncate(g, AZK_END_DECISION_CAP);
        azk_store_legal(g, NULL, 0);
    }
}
