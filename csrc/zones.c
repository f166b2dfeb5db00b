/* zones.c — the rule primitives that change a game (docs/rules.md §2, §5,
 * §7-§9): zones and moves, draws and IKZ payment, temporary effects, damage,
 * state checks, the trigger queue, the derived hints (game.h) with their
 * mutators, playing an entity or weapon and the portal (both used by the
 * turn machine and by the VM's PLAY_FREE / PORTAL ops).
 *
 * Layer (csrc/layers.def): above the pure reads (query.c: stats, auras,
 * selectors), below the effect VM (vm.c: abilities change the game only
 * through these primitives). One call goes up, listed there: damage and
 * destruction run replacement effects through azk_vm_run_replacement.
 *
 * Invariants kept here: a card changes zone only through azk_move (which
 * gives it a new incarnation, rules §2.1, sends a leaving holder's weapons to
 * the discard pile, §5.3, and keeps the row hints); the tapped flag changes
 * only through azk_set_tapped (which keeps the untapped-IKZ count); a game
 * ends only through azk_game_over; no function allocates; nothing prints.
 */
#include "game.h"

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

/* at_risk bit of a card in a row: its place code (game.h); 0 elsewhere. */
static inline unsigned risk_bit(const azk_card *k) {
    return k->zone == AZK_Z_GARDEN ? AZK_CODE_GARDEN(k->pos) : k->zone == AZK_Z_ALLEY ? AZK_CODE_ALLEY(k->pos) : 0;
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
    g->aura_src[k->owner] &= (uint16_t)~code;
    g->cost_src[k->owner] &= (uint16_t)~code;
}
static inline void row_hints_enter(azk_game *g, const azk_cardset *cs, const azk_card *k, unsigned code) {
    unsigned fl = cs->facts[k->def].flags;
    g->occ[k->owner] |= (uint16_t)code;
    if (__builtin_expect(fl & (AZK_DF_ACTIVATED | AZK_DF_AURA | AZK_DF_COST), 0)) {
        if (fl & AZK_DF_ACTIVATED) g->act_src[k->owner] |= (uint16_t)code;
        if (fl & AZK_DF_AURA) g->aura_src[k->owner] |= (uint16_t)code;
        if (fl & AZK_DF_COST) g->cost_src[k->owner] |= (uint16_t)code;
    }
}

AZK_ALWAYS_INLINE static inline void zone_remove(azk_game *g, int c) {
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

/* Insert c at its canonical hand position: by definition index, then card
 * index (DESIGN §3). One pass from the end, as insertion sort: each card
 * that sorts after c moves up one place. */
static inline void hand_insert(azk_game *g, azk_player *pl, int c) {
    int d = g->cards[c].def;
    int pos = pl->hand_n;
    while (pos > 0) {
        int o = pl->hand[pos - 1];
        const azk_card *k = &g->cards[o];
        if (k->def < d || (k->def == d && o < c)) break;
        pl->hand[pos] = (uint8_t)o;
        g->cards[o].pos = (uint8_t)pos;
        pos--;
    }
    pl->hand[pos] = (uint8_t)c;
    g->cards[c].pos = (uint8_t)pos;
    pl->hand_n++;
}

/* `slot`: garden/alley slot; deck: 0 = bottom, 1 = top; ignored elsewhere. */
AZK_ALWAYS_INLINE static inline void zone_add(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_card *k = &g->cards[c];
    azk_player *pl = &g->pl[k->owner];
    k->zone = (uint8_t)zone;
    switch (zone) {
    case AZK_Z_DECK:
        if (slot == 0) list_insert(g, pl->deck, &pl->deck_n, 0, c);
        else list_insert(g, pl->deck, &pl->deck_n, pl->deck_n, c);
        break;
    case AZK_Z_HAND: hand_insert(g, pl, c); break;
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
 * garden takes its weapons to the discard pile (RULES §5.3). Inline for the
 * hottest caller with a known zone (azk_draw: the zone switches fold away);
 * azk_move is the one out-of-line copy for everyone else. */
AZK_ALWAYS_INLINE static inline void move_card(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_card *k = &g->cards[c];
    int was_holder = k->zone == AZK_Z_GARDEN;
    zone_remove(g, c);
    k->incarnation = ++g->next_incarnation;
    k->damage = 0;
    k->flags = 0;
    k->once_used = 0;
    k->seen = 0;
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

void azk_move(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) { move_card(g, cs, c, zone, slot); }

/* Put an entity into a row slot; an occupied slot is replaced first (§2.3). */
void azk_place_in_row(azk_game *g, const azk_cardset *cs, int c, int zone, int slot) {
    azk_player *pl = &g->pl[g->cards[c].owner];
    uint8_t *row = zone == AZK_Z_GARDEN ? pl->garden : pl->alley;
    if (row[slot] != AZK_NONE) {
        int old = row[slot];
        azk_move(g, cs, old, AZK_Z_DISCARD, 0);
        azk_event(g, AZK_EV_REPLACED, g->cards[old].owner, old, zone);
    }
    if (zone == AZK_Z_GARDEN) move_card(g, cs, c, AZK_Z_GARDEN, slot); /* two inline copies: a known row */
    else move_card(g, cs, c, AZK_Z_ALLEY, slot);
    if (zone == AZK_Z_GARDEN) {
        g->cards[c].flags |= AZK_CF_COOLDOWN; /* §5.5 */
        int p = g->cards[c].owner; /* rules §15.2: "whenever another entity enters your garden" */
        if (g->listen[p] & (1u << AZK_TRIG_ALLY_ENTERS)) azk_fire_all(g, cs, AZK_TRIG_ALLY_ENTERS, 1u << p, c, 0);
    }
}

/* The one way a game ends: result and reason together (RULES §9, rules
 * §13). Whatever was in progress (a suspended ability, queued triggers) is
 * abandoned; the finished game accepts no further step. */
void azk_game_over(azk_game *g, int result, int reason) {
    if (g->result != AZK_RES_ONGOING) return;
    g->result = (uint8_t)result;
    g->end_reason = (uint8_t)reason;
    g->phase = AZK_PHASE_GAME_OVER;
    g->flow = AZK_FLOW_OVER;
    g->vm.active = 0;
    g->vm.waiting = 0;
    g->trig_n = 0;
    /* frames suspended by trigger_ability are abandoned too */
    g->vm_depth = 0;
    memset(g->vm_saved, 0, sizeof g->vm_saved);
    if (result == AZK_RES_TRUNCATED) azk_event(g, AZK_EV_TRUNCATED, -1, -1, reason);
    azk_event(g, AZK_EV_GAME_OVER, -1, -1, result);
}

/* An engine bound or cap was reached: the game ends TRUNCATED with the
 * reason (docs/rulings.md R-TRUNC). Called where the bound is hit, so the
 * step stops there; nobody plays on from the partial state. */
void azk_truncate(azk_game *g, int reason) { azk_game_over(g, AZK_RES_TRUNCATED, reason); }

/* Draw n; drawing from an empty deck loses at once (RULES §9). */
void azk_draw(azk_game *g, const azk_cardset *cs, int p, int n) {
    for (int i = 0; i < n && g->result == AZK_RES_ONGOING; i++) {
        azk_player *pl = &g->pl[p];
        if (pl->deck_n == 0) {
            azk_game_over(g, p == 0 ? AZK_RES_WIN_P1 : AZK_RES_WIN_P0, AZK_END_DECK_OUT);
            return;
        }
        int c = pl->deck[pl->deck_n - 1];
        /* a deck card the opponent knew (put there in public, docs/rules.md
         * §17.5) stays known to it in hand: revealed. Drawing is the one way
         * from the deck to a hand (a search reveals what it finds anyway). */
        int opp_knew = g->cards[c].seen >> (1 - p) & 1;
        move_card(g, cs, c, AZK_Z_HAND, 0);
        if (opp_knew) g->cards[c].flags |= AZK_CF_REVEALED;
        azk_event(g, AZK_EV_DRAWN, p, c, 0);
        /* on_draw (rules §15.2): draws of the game, not the opening hands (turn 0) */
        if (g->turn && (g->listen[p] & (1u << AZK_TRIG_ON_DRAW))) azk_fire_all(g, cs, AZK_TRIG_ON_DRAW, 1u << p, c, 0);
    }
}

/* Card c (the top of its owner's IKZ pile, or the token) enters the IKZ
 * area untapped (RULES §4.1.5, D4). */
void azk_gain_ikz(azk_game *g, const azk_cardset *cs, int c, int is_token) {
    move_card(g, cs, c, AZK_Z_IKZ_AREA, 0);
    azk_event(g, AZK_EV_IKZ_GAINED, g->cards[c].owner, c, is_token);
}

/* Pay IKZ: regular cards before the token, the token goes out of game (§5.1, D4). */
void azk_pay_ikz(azk_game *g, const azk_cardset *cs, int p, int n) {
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
                azk_set_tapped(g, c, 1);
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
            if (azk_fx_live(g, &g->fx[i])) g->fx[w++] = g->fx[i];
        g->fx_n = (uint8_t)w;
        azk_fx_hint_rebuild(g);
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
    e->status = (uint16_t)status;
    e->incarnation = g->cards[c].incarnation;
    g->fx_cards[c >> 6] |= 1ull << (c & 63);
    azk_event(g, AZK_EV_EFFECT, creator, c, kind == AZK_FX_ATTACK ? amount : (int)status);
}

/* Drop effects with the given duration (and creator, for START_OF_NEXT_TURN),
 * and every dead one. */
void azk_expire_effects(azk_game *g, int duration, int creator) {
    int w = 0;
    for (int i = 0; i < g->fx_n; i++) {
        azk_effect *e = &g->fx[i];
        int expire = !azk_fx_live(g, e) || (e->duration == duration && (creator < 0 || e->creator == creator));
        if (!expire) g->fx[w++] = *e;
    }
    memset(&g->fx[w], 0, sizeof(azk_effect) * (size_t)(g->fx_n - w));
    g->fx_n = (uint8_t)w;
    azk_fx_hint_rebuild(g);
}

void azk_fx_hint_rebuild(azk_game *g) {
    memset(g->fx_cards, 0, sizeof g->fx_cards);
    for (int i = 0; i < g->fx_n; i++) g->fx_cards[g->fx[i].card >> 6] |= 1ull << (g->fx[i].card & 63);
}

/* ---------------------------------------------------------------------------
 * Damage and state checks (RULES §6.3, §7, §9)
 * ------------------------------------------------------------------------- */
void azk_deal_damage(azk_game *g, const azk_cardset *cs, int c, int amount, int is_effect) {
    azk_deal_damage_from(g, cs, c, amount, is_effect, -1);
}

/* Replacement effects (rules §15.5): REPLACEMENT abilities of the cards on
 * the field. Applied in one place per event (azk_destroy, damage below), in
 * a fixed order: the affected card's own abilities first, then the other
 * cards of its controller, then the opponent's, each side in field order
 * (leader, gate, garden slots, alley slots, weapons in attachment order),
 * each card's abilities in printed order. Each applies at most once per
 * event; a once-per-turn one marks its source (once_used). A replacement's
 * own statements are not replaced again (g->replacing). */
static int replacement_applies(const azk_game *g, const azk_cardset *cs, const azk_ability *ab, int rel, int src,
                               int c, int event) {
    if (ab->kind != AZK_AB_REPLACEMENT || ab->trigger != event) return 0;
    if ((ab->flags & AZK_ABF_ONCE_PER_TURN) && (g->cards[src].once_used & (1u << rel))) return 0;
    if (!azk_zone_allows(g, src, ab->flags)) return 0;
    if (ab->static_target == AZK_STT_SELF) return src == c;
    return azk_selector_match(g, cs, &cs->selectors[ab->selector], g->cards[src].owner, src, NULL, NULL, c);
}

/* Apply the replacements of `src` to the event; *amount: damage still to be
 * dealt (ON_DAMAGED) or 1 (ON_DESTROYED). Returns 1 when the whole event was
 * replaced (the caller stops). */
static int apply_source(azk_game *g, const azk_cardset *cs, int src, int c, int event, int *amount) {
    if (!(cs->facts[g->cards[src].def].flags & AZK_DF_REPLACE)) return 0;
    if (azk_granted_status(g, src) & AZK_ST_FROZEN) return 0; /* frozen: no abilities (RULES §7) */
    const azk_card_def *d = azk_def(cs, g, src);
    uint16_t inc = g->cards[src].incarnation, cinc = g->cards[c].incarnation;
    for (int i = 0; i < d->ability_count; i++) {
        const azk_ability *ab = &cs->abilities[d->ability_first + i];
        if (!replacement_applies(g, cs, ab, i, src, c, event)) continue;
        if (ab->flags & AZK_ABF_ONCE_PER_TURN) g->cards[src].once_used |= (uint8_t)(1u << i);
        /* logged here when it only prevents (azk_vm_start logs a program's start) */
        if (ab->program == AZK_NO_PC) azk_event(g, AZK_EV_ABILITY, g->cards[src].owner, src, d->ability_first + i);
        if (ab->amount) *amount -= ab->amount;
        int whole = *amount <= 0 || ab->program != AZK_NO_PC;
        if (ab->program != AZK_NO_PC) azk_vm_run_replacement(g, cs, d->ability_first + i, src, c, *amount);
        if (whole) return 1;
        /* the statements moved the source or the card: stop here */
        if (g->cards[src].incarnation != inc || g->cards[c].incarnation != cinc) return 1;
    }
    return 0;
}

static int apply_replacements(azk_game *g, const azk_cardset *cs, int c, int event, int *amount) {
    if (g->replacing || g->result != AZK_RES_ONGOING) return 0;
    g->replacing = 1;
    int done = apply_source(g, cs, c, c, event, amount);
    for (int k = 0; k < AZK_PLAYERS && !done; k++) {
        int p = k == 0 ? g->cards[c].owner : 1 - g->cards[c].owner;
        const azk_player *pl = &g->pl[p];
        uint8_t order[2 + 2 * AZK_ROW + AZK_WEAPON_CAP];
        int m = 0;
        order[m++] = pl->leader;
        order[m++] = pl->gate;
        for (unsigned o = g->occ[p] & (AZK_CODES_GARDEN | AZK_CODES_ALLEY); o; o &= o - 1)
            order[m++] = (uint8_t)azk_row_card(pl, __builtin_ctz(o));
        for (int i = 0; i < pl->weapons_n; i++) order[m++] = pl->weapons[i];
        for (int i = 0; i < m && !done; i++)
            if (order[i] != c && azk_on_field(g, order[i])) done = apply_source(g, cs, order[i], c, event, amount);
    }
    g->replacing = 0;
    return done;
}

/* Damage (rules §6.3, §7, §15.4): frozen and effect-immune prevent it,
 * carapace reduces it, then replacements prevent some or all of it; what
 * is left is dealt. The dealer's lifesteal heals its controller's leader by
 * the amount dealt; its poisonous marks a damaged entity for destruction at
 * the next state check. */
void azk_deal_damage_from(azk_game *g, const azk_cardset *cs, int c, int amount, int is_effect, int source) {
    if (amount <= 0 || !azk_on_field(g, c)) return;
    unsigned st = azk_status_of(g, cs, c);
    if (st & AZK_ST_FROZEN) return;                      /* cannot be damaged */
    if (is_effect && (st & AZK_ST_EFFECT_IMMUNE)) return; /* prevented */
    amount -= azk_def(cs, g, c)->carapace;
    if (amount <= 0) return;
    if (cs->set_facts & AZK_SETF_REPLACE) {
        uint16_t inc = g->cards[c].incarnation;
        if (apply_replacements(g, cs, c, AZK_TRIG_ON_DAMAGED, &amount) || amount <= 0) return;
        if (g->cards[c].incarnation != inc || g->result != AZK_RES_ONGOING) return;
    }
    g->cards[c].damage = (int16_t)(g->cards[c].damage + amount > AZK_MAX_DAMAGE ? AZK_MAX_DAMAGE : g->cards[c].damage + amount);
    g->at_risk[g->cards[c].owner] |= (uint16_t)risk_bit(&g->cards[c]);
    azk_event(g, AZK_EV_DAMAGE, g->cards[c].owner, c, amount);
    azk_fire_card(g, cs, c, AZK_TRIG_ON_DAMAGED, c, amount);
    if (source >= 0 && (cs->set_facts & AZK_SETF_DAMAGE_KW)) {
        unsigned ss = azk_status_of(g, cs, source);
        if ((ss & AZK_ST_POISONOUS) && risk_bit(&g->cards[c])) {
            g->cards[c].flags |= AZK_CF_POISONED;
            g->at_risk[g->cards[c].owner] |= (uint16_t)risk_bit(&g->cards[c]);
        }
        if (ss & AZK_ST_LIFESTEAL) {
            azk_card *l = &g->cards[g->pl[g->cards[source].owner].leader];
            int heal = amount < l->damage ? amount : l->damage;
            if (heal > 0) {
                l->damage = (int16_t)(l->damage - heal);
                azk_event(g, AZK_EV_DAMAGE, l->owner, g->pl[l->owner].leader, -heal);
            }
        }
    }
}

/* Destroy entity c (rules §15.3): the one path of state checks, poison and
 * the DESTROY statement. Godmode stops it before anything else (it is
 * never destroyed, so nothing is replaced); then the replacements of the
 * "destroyed" event; if none replaced it (or its statements left it where
 * it was, the same object), it goes to the discard pile. Its own
 * on_destroyed abilities trigger on the card in the discard pile (a new
 * object, RULES §2.1) with its last-known attack as the value; every other
 * listener's entity_destroyed too. */
int azk_destroy(azk_game *g, const azk_cardset *cs, int c) {
    azk_card *k = &g->cards[c];
    if (k->zone != AZK_Z_GARDEN && k->zone != AZK_Z_ALLEY) return 0;
    k->flags &= (uint8_t)~AZK_CF_POISONED;
    if (azk_status_of(g, cs, c) & AZK_ST_GODMODE) return 0;
    uint16_t inc = k->incarnation;
    if (cs->set_facts & AZK_SETF_REPLACE) {
        int one = 1;
        apply_replacements(g, cs, c, AZK_TRIG_ON_DESTROYED, &one);
        if (k->incarnation != inc || g->result != AZK_RES_ONGOING) return 0; /* replaced */
        /* still here, the same object: the event happens after all (rules §15.5) */
    }
    int p = k->owner;
    /* last-known information only when someone will read it (the starter set never does) */
    int self_hears = (cs->facts[k->def].trigger_mask & (1u << AZK_TRIG_ON_DESTROYED)) &&
                     !(azk_granted_status(g, c) & AZK_ST_FROZEN); /* frozen: no abilities (RULES §7) */
    int others_hear = ((g->listen[0] | g->listen[1]) & (1u << AZK_TRIG_ENTITY_DESTROYED)) != 0;
    int last_attack = self_hears || others_hear ? azk_attack_of(g, cs, c) : 0;
    move_card(g, cs, c, AZK_Z_DISCARD, 0);
    azk_event(g, AZK_EV_DESTROYED, p, c, 0);
    if (self_hears) azk_fire_card_slow(g, cs, c, AZK_TRIG_ON_DESTROYED, c, last_attack);
    if (others_hear) azk_fire(g, cs, AZK_TRIG_ENTITY_DESTROYED, c, last_attack);
    return 1;
}

void azk_rebuild_hints(azk_game *g, const azk_cardset *cs) {
    azk_fx_hint_rebuild(g);
    for (int p = 0; p < AZK_PLAYERS; p++) {
        g->ikz_untapped[p] = (uint8_t)azk_count_untapped_ikz(g, p);
        g->act_src[p] = (uint16_t)azk_count_act_src(g, cs, p);
        g->occ[p] = (uint16_t)azk_count_occ(g, p);
        g->listen[p] = azk_count_listen(g, cs, p);
        g->aura_src[p] = (uint16_t)azk_count_fact_src(g, cs, p, AZK_DF_AURA);
        g->cost_src[p] = (uint16_t)azk_count_fact_src(g, cs, p, AZK_DF_COST);
        g->at_risk[p] = p == 0 && g->pending_end ? AZK_RISK_END : 0;
        for (unsigned o = g->occ[p] & (AZK_CODES_GARDEN | AZK_CODES_ALLEY); o; o &= o - 1) {
            int code = __builtin_ctz(o), c = azk_row_card(&g->pl[p], code);
            if (g->cards[c].damage >= min_health(cs, g, c) || (g->cards[c].flags & AZK_CF_POISONED))
                g->at_risk[p] |= (uint16_t)(1u << code);
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
            /* only places in the at_risk hint (game.h), garden slots then
             * alley slots (the place-code order) */
            for (unsigned risk = g->at_risk[p] & (AZK_CODES_GARDEN | AZK_CODES_ALLEY); risk; risk &= risk - 1) {
                int code = __builtin_ctz(risk);
                int c = azk_row_card(&g->pl[p], code);
                /* fast path: damage below the lowest health its statics could give;
                 * it stays so until new damage, which sets the bit again */
                if (c == AZK_NONE || (g->cards[c].damage < min_health(cs, g, c) &&
                                      !(g->cards[c].flags & AZK_CF_POISONED))) {
                    g->at_risk[p] &= (uint16_t)~(1u << code);
                    continue;
                }
                if (g->cards[c].flags & AZK_CF_POISONED) { /* rules §15.4: destroyed, whatever its damage */
                    changed |= azk_destroy(g, cs, c);
                    if (g->result != AZK_RES_ONGOING) return;
                    continue;
                }
                if (g->cards[c].damage < azk_health_of(g, cs, c)) continue;
                changed |= azk_destroy(g, cs, c); /* godmode: nothing (it stays at risk) */
                if (g->result != AZK_RES_ONGOING) return;
            }
        }
    }
    g->at_risk[0] &= (uint16_t)~AZK_RISK_END; /* pending_end is read below */
    int dead[AZK_PLAYERS];
    for (int p = 0; p < AZK_PLAYERS; p++) {
        int c = g->pl[p].leader;
        dead[p] = g->cards[c].damage >= min_health(cs, g, c) && /* same fast path */
                  azk_health_of(g, cs, c) - g->cards[c].damage <= 0;
    }
    int dead0 = dead[0], dead1 = dead[1];
    if (g->pending_end) { /* rules §15.6: win / lose statements, judged with the leaders (D10) */
        unsigned pe = g->pending_end;
        g->pending_end = 0;
        dead0 |= (pe & (1u << 1)) || (pe & (1u << 2)); /* p1 won or p0 lost */
        dead1 |= (pe & (1u << 0)) || (pe & (1u << 3)); /* p0 won or p1 lost */
    }
    int reason = dead[0] | dead[1] ? AZK_END_LEADER : AZK_END_EFFECT;
    if (dead0 && dead1) azk_game_over(g, AZK_RES_DRAW, reason); /* D10 */
    else if (dead0) azk_game_over(g, AZK_RES_WIN_P1, reason);
    else if (dead1) azk_game_over(g, AZK_RES_WIN_P0, reason);
}

void azk_state_check_all(azk_game *g, const azk_cardset *cs) {
    azk_rebuild_hints(g, cs);
    azk_state_check(g, cs);
}

/* ---------------------------------------------------------------------------
 * Triggers (RULES §8, D8)
 * ------------------------------------------------------------------------- */

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
    if (trigger == AZK_TRIG_ALLY_ENTERS && source == ctx_card) return; /* "another" entity */
    for (int i = 0; i < d->ability_count; i++) {
        const azk_ability *ab = &cs->abilities[d->ability_first + i];
        if (ab->kind != AZK_AB_TRIGGERED || ab->trigger != trigger) continue;
        if (!azk_zone_allows(g, source, ab->flags)) continue;
        if ((ab->flags & AZK_ABF_ONCE_PER_TURN) && (g->cards[source].once_used & (1u << i))) continue;
        enqueue(g, source, d->ability_first + i, ctx_card, ctx_value);
    }
}

void azk_fire_with_weapons(azk_game *g, const azk_cardset *cs, int holder, int trigger) {
    azk_fire_card(g, cs, holder, trigger, holder, 0);
    const azk_player *pl = &g->pl[g->cards[holder].owner];
    for (int i = 0; i < pl->weapons_n; i++)
        if (g->cards[pl->weapons[i]].holder == holder) azk_fire_card(g, cs, pl->weapons[i], trigger, holder, 0);
}

/* An event seen by every card of the players in `players` (bit mask), active
 * player first, each in field order (D8). */
void azk_fire_all(azk_game *g, const azk_cardset *cs, int trigger, unsigned players, int ctx_card, int ctx_value) {
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
    azk_fire_all(g, cs, trigger, 3u, ctx_card, ctx_value);
}

void azk_return_to_hand(azk_game *g, const azk_cardset *cs, int c) {
    int owner = g->cards[c].owner;
    move_card(g, cs, c, AZK_Z_HAND, 0);
    g->cards[c].flags |= AZK_CF_REVEALED; /* it left the field in public: both players know it (obs.c) */
    azk_event(g, AZK_EV_RETURNED, owner, c, 0);
    azk_fire(g, cs, AZK_TRIG_ENTITY_RETURNED, c, 0);
}

/* Shuffle player p's deck: afterwards nobody knows where any card lies
 * (docs/rules.md §17.3). The mulligan and the SHUFFLE instruction share it. */
void azk_shuffle_deck(azk_game *g, int p) {
    azk_player *pl = &g->pl[p];
    azk_rng_shuffle_u8(&g->rng, pl->deck, pl->deck_n);
    for (int i = 0; i < pl->deck_n; i++) {
        g->cards[pl->deck[i]].pos = (uint8_t)i;
        g->cards[pl->deck[i]].seen = 0;
    }
}

/* Put card c on top (bottom = 0) or at the bottom (bottom = 1) of its owner's
 * deck, from hand, field, discard pile or look zone (docs/rules.md §17.4).
 * Whoever knew the card where it was knows it where it lies now (§17.5):
 * both players for a card from the field or the discard pile or a revealed
 * hand card, its owner only for a hidden hand card or a looked-at card. */
void azk_put_on_deck(azk_game *g, const azk_cardset *cs, int c, int bottom) {
    azk_card *k = &g->cards[c];
    int owner = k->owner;
    unsigned knew;
    switch (k->zone) {
    case AZK_Z_HAND: knew = (1u << owner) | ((k->flags & AZK_CF_REVEALED) ? 1u << (1 - owner) : 0u); break;
    case AZK_Z_LOOK: knew = 1u << owner; break;
    default: knew = 3u; break; /* field, discard pile: public */
    }
    azk_move(g, cs, c, AZK_Z_DECK, bottom ? 0 : 1);
    k->seen = (uint8_t)knew;
    azk_event(g, AZK_EV_PUT_ON_DECK, owner, c, bottom);
}

/* ---------------------------------------------------------------------------
 * Playing cards (RULES §5)
 * ------------------------------------------------------------------------- */
/* Attach weapon c to its owner's holder at holder code `where` (0 leader,
 * 1..5 garden slot + 1): the one attach path, for a played weapon (RULES
 * §5.3) and the attach effect (docs/rules.md §16.7, not a play). Returns the
 * holder's card index. */
int azk_attach_weapon(azk_game *g, const azk_cardset *cs, int c, int where) {
    int holder = azk_holder_code_card(g, g->cards[c].owner, where);
    move_card(g, cs, c, AZK_Z_WEAPON, 0);
    g->cards[c].holder = (uint8_t)holder;
    return holder;
}

/* Play entity or weapon `c` (already paid for unless free): an entity to
 * `zone` slot `where`, a weapon onto holder code `where`, and their on-play
 * triggers queued. The turn machine and the VM's PLAY_FREE op both come
 * here; a spell is played only from hand, by the turn machine (engine.c
 * play_spell), because playing it starts its program. */
void azk_play_card(azk_game *g, const azk_cardset *cs, int c, int zone, int where) {
    int p = g->cards[c].owner;
    const azk_card_def *d = azk_def(cs, g, c);
    AZK_ASSERT(d->card_type == AZK_CT_ENTITY || d->card_type == AZK_CT_WEAPON);
    azk_event(g, AZK_EV_PLAYED, p, c, zone);
    if (d->card_type == AZK_CT_ENTITY) {
        int before = g->pl[p].played_entities;
        if (g->pl[p].played_entities < 255) g->pl[p].played_entities++;
        azk_place_in_row(g, cs, c, zone, where);
        azk_fire_card(g, cs, c, AZK_TRIG_ON_PLAY, c, before);
        azk_fire_card(g, cs, c, zone == AZK_Z_GARDEN ? AZK_TRIG_ON_PLAY_GARDEN : AZK_TRIG_ON_PLAY_ALLEY, c, before);
    } else {
        int holder = azk_attach_weapon(g, cs, c, where);
        azk_fire_card(g, cs, c, AZK_TRIG_ON_PLAY, holder, 0);
        azk_fire_card(g, cs, c, AZK_TRIG_WHEN_EQUIPPING, holder, 0);
    }
    azk_state_check(g, cs);
}

/* The one portal code path: the gate action (tap_gate) and the portal
 * effect (docs/rules.md §16.6, the VM's PORTAL op, which does not tap the
 * gate). Alley entity e goes to garden slot `slot` (replacing, §2.3), is not
 * played and gets cooldown; the gate's portal ability triggers with e's GP. */
void azk_portal(azk_game *g, const azk_cardset *cs, int e, int slot, int tap_gate) {
    int me = g->cards[e].owner;
    azk_player *pl = &g->pl[me];
    if (tap_gate) azk_set_tapped(g, pl->gate, 1);
    azk_place_in_row(g, cs, e, AZK_Z_GARDEN, slot);
    azk_event(g, AZK_EV_PORTALED, me, e, slot);
    azk_fire_card(g, cs, pl->gate, AZK_TRIG_PORTAL, e, azk_def(cs, g, e)->gate_points);
}
