/* engine.c — the turn machine (docs/rules.md §3, §4), combat (§6) and the
 * one entry point that changes a game, azk_step (with azk_game_init).
 *
 * Structure. `azk_apply` performs one already-validated decision; then
 * `azk_advance` drives the game forward until the next decision with at least
 * two legal answers (rules §12) or the end: it first runs the effect VM if a
 * program is active, then resolves queued triggers one at a time (D8), and
 * only when both are idle performs the next step of the turn machine
 * (`g->flow`). Every step is explicit data in the struct, so the game can be
 * cloned, hashed or serialized at any decision.
 *
 * Layer (csrc/layers.def): the top of the rules. It uses the pure reads
 * (query.c), the primitives (zones.c), the VM (vm.c), legality (actions.c,
 * for the one-answer rule, §12) and, in debug builds, the invariant checker
 * (state.c); nothing below calls into it. Playing a spell is here (it
 * starts the spell's program). No function allocates; nothing prints.
 */
#include "game.h"
#include "action_space.h"

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
    azk_deal_damage_from(g, cs, g->target, a < 0 ? 0 : a, 0, g->attacker);
    azk_deal_damage_from(g, cs, g->attacker, t < 0 ? 0 : t, 0, g->target);
    azk_state_check(g, cs);
}

/* The shocked condition is used up by the untap step it stops (§7): drop
 * the SHOCKED bit from the card's granted statuses, and effects left empty. */
static void clear_granted_shock(azk_game *g, int c) {
    int w = 0;
    for (int i = 0; i < g->fx_n; i++) {
        azk_effect e = g->fx[i];
        if (e.card == c && e.kind == AZK_FX_STATUS) {
            e.status &= (uint16_t)~AZK_ST_SHOCKED;
            if (e.status == 0) continue; /* it granted only the shock */
        }
        g->fx[w++] = e;
    }
    memset(&g->fx[w], 0, sizeof(azk_effect) * (size_t)(g->fx_n - w));
    g->fx_n = (uint8_t)w;
    azk_fx_hint_rebuild(g);
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
        azk_game_over(g, AZK_RES_TRUNCATED, AZK_END_TURN_CAP);
        return;
    }
    azk_event(g, AZK_EV_TURN_START, p, -1, g->turn);
    azk_expire_effects(g, AZK_DUR_START_OF_NEXT_TURN, p); /* 4.1.1, D2 */
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
        azk_set_tapped(g, c, 0);
    }
    azk_fire_all(g, cs, AZK_TRIG_START_OF_TURN, 1u << p, -1, 0); /* 4.1.3 */
    g->flow = AZK_FLOW_START_DRAW;
}

static void start_draw(azk_game *g, const azk_cardset *cs) {
    int p = g->active;
    azk_draw(g, cs, p, 1); /* 4.1.4, D3 */
    if (g->result != AZK_RES_ONGOING) return;
    azk_player *pl = &g->pl[p];
    if (pl->ikz_pile_n > 0) { /* 4.1.5 */
        azk_gain_ikz(g, cs, pl->ikz_pile[pl->ikz_pile_n - 1], 0);
    }
    if (g->turn == 2 && g->cards[pl->token].zone == AZK_Z_ASIDE) azk_gain_ikz(g, cs, pl->token, 1);
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
    azk_expire_effects(g, AZK_DUR_END_OF_TURN, -1); /* 4.3.3 */
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
    azk_shuffle_deck(g, p); /* a shuffled deck: nobody knows where anything is */
    azk_event(g, AZK_EV_MULLIGAN, p, -1, 1);
}

/* ---------------------------------------------------------------------------
 * Applying one validated decision (azk_step has checked it is legal)
 * ------------------------------------------------------------------------- */
/* A spell played from hand (rules §5.4): it goes onto the resolving zone
 * and its program starts (vm.c moves it to the discard pile when the program
 * ends); a spell without a program goes straight to the discard pile. Only
 * the turn machine plays spells: an effect plays entities and weapons only
 * (the PLAY_FREE op, azk_play_card in zones.c), so starting a program stays
 * above the VM. */
static void play_spell(azk_game *g, const azk_cardset *cs, int c) {
    int p = g->cards[c].owner;
    azk_event(g, AZK_EV_PLAYED, p, c, 0);
    azk_move(g, cs, c, AZK_Z_RESOLVING, 0);
    int ab = cs->facts[g->cards[c].def].spell_ability;
    if (ab != AZK_NO_ABILITY && cs->abilities[ab].program != AZK_NO_PC) {
        azk_vm_start(g, cs, ab, c, p, -1, 0, c);
    } else {
        azk_move(g, cs, c, AZK_Z_DISCARD, 0);
    }
    azk_state_check(g, cs);
}

/* Main phase (rules §4.2, §5): play a card from hand, paying its IKZ first. */
static void apply_play(azk_game *g, const azk_cardset *cs, int me, int type, int p0, int p1) {
    azk_player *pl = &g->pl[me];
    int c = pl->hand[p0];
    azk_pay_ikz(g, cs, me, azk_cost_of(g, cs, c)); /* the cost as modified now (rules §18.4) */
    int zone = type == AZK_ACT_PLAY_ENTITY_TO_GARDEN ? AZK_Z_GARDEN : type == AZK_ACT_PLAY_ENTITY_TO_ALLEY ? AZK_Z_ALLEY : 0;
    if (azk_def(cs, g, c)->card_type == AZK_CT_SPELL) play_spell(g, cs, c);
    else azk_play_card(g, cs, c, zone, p1);
}

/* Rules §6.1: the attacker taps, "when attacking" abilities trigger, and
 * the response window opens. */
static void apply_attack(azk_game *g, const azk_cardset *cs, int me, int p0, int p1) {
    int a = azk_place_card(&g->pl[me], p0);
    int t = p1 == 0 ? g->pl[1 - me].leader : g->pl[1 - me].garden[p1 - 1];
    azk_set_tapped(g, a, 1);
    if (cs->set_facts & AZK_SETF_STEALTH) g->cards[a].flags |= AZK_CF_EXPOSED; /* stealth ends (§15.4) */
    g->in_attack = 1;
    g->attacker = (uint8_t)a;
    g->target = (uint8_t)t;
    g->attacker_inc = g->cards[a].incarnation;
    g->target_inc = g->cards[t].incarnation;
    g->defender_used = 0;
    azk_event(g, AZK_EV_ATTACK_DECLARED, me, a, t);
    azk_fire_with_weapons(g, cs, a, AZK_TRIG_WHEN_ATTACKING);
    g->flow = AZK_FLOW_RESPONSE;
}

/* Rules §5.6: tap the gate, move the alley entity to the chosen garden slot
 * (not played: no on-play), then the gate's extra effect with its GP. */
static void apply_portal(azk_game *g, const azk_cardset *cs, int me, int p0, int p1) {
    azk_portal(g, cs, g->pl[me].alley[p0], p1, 1);
}

/* Rules §8: the p1-th activated ability of the card at place p0; costs are
 * paid (IKZ, TAP, sacrifice) before the effect runs. */
static void apply_activate(azk_game *g, const azk_cardset *cs, int me, int p0, int p1) {
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
    azk_pay_ikz(g, cs, me, a->ikz_cost);
    if (a->flags & AZK_ABF_TAP_COST) azk_set_tapped(g, c, 1);
    /* one ABILITY event per use, its value the ability's index in the card set (as every other
     * ABILITY event): azk_vm_start logs a program's start, so only a program-less ability is logged here */
    if (a->program == AZK_NO_PC) azk_event(g, AZK_EV_ABILITY, me, c, idx);
    if (a->flags & AZK_ABF_SACRIFICE_COST) {
        azk_move(g, cs, c, AZK_Z_DISCARD, 0);
        azk_event(g, AZK_EV_DISCARDED, me, c, 1);
        azk_state_check(g, cs);
    }
    if (a->program != AZK_NO_PC) azk_vm_start(g, cs, idx, c, me, -1, 0, -1);
}

/* Rules §3.4: keep, or mulligan; when both have chosen, turn 1 begins. */
static void apply_mulligan(azk_game *g, const azk_cardset *cs, int me, int shuffle) {
    if (shuffle) mulligan(g, cs, me);
    else azk_event(g, AZK_EV_MULLIGAN, me, -1, 0);
    g->pl[me].mulligan_done = 1;
    if (g->pl[0].mulligan_done && g->pl[1].mulligan_done) {
        g->turn = 1;
        g->active = g->first_player;
        g->flow = AZK_FLOW_START;
        azk_fire_all(g, cs, AZK_TRIG_GAME_START, 3u, -1, 0); /* rules §15.2: first player's cards first */
    }
}

/* A pending prompt's answer: option value, or -1 for NO_OP (declined). The
 * VM takes it when it resumes (vm.c). */
static void answer_prompt(azk_game *g, int value) {
    g->vm.has_answer = 1;
    g->vm.answer = (int16_t)value;
    g->vm.waiting = 0;
}

static void pass_response(azk_game *g);
static void pass_defender(azk_game *g);
static void apply_defender(azk_game *g, int me, int p0);

static void apply_decision(azk_game *g, const azk_cardset *cs, int type, int p0, int p1) {
    int me = azk_current_player(g);
    switch (type) {
    case AZK_ACT_MULLIGAN_KEEP: apply_mulligan(g, cs, me, 0); break;
    case AZK_ACT_MULLIGAN_SHUFFLE: apply_mulligan(g, cs, me, 1); break;
    case AZK_ACT_CHOOSE: answer_prompt(g, g->prompt.opt[p0]); break;
    case AZK_ACT_NO_OP: /* decline a prompt, or pass a response-window step */
        if (g->phase == AZK_PHASE_PROMPT) answer_prompt(g, -1);
        else if (g->phase == AZK_PHASE_RESPONSE) pass_response(g);
        else if (g->phase == AZK_PHASE_DEFENDER) pass_defender(g);
        break;
    case AZK_ACT_END_TURN: g->flow = AZK_FLOW_END; break; /* rules §4.2: the only way to pass the turn */
    case AZK_ACT_PLAY_ENTITY_TO_GARDEN:
    case AZK_ACT_PLAY_ENTITY_TO_ALLEY:
    case AZK_ACT_PLAY_WEAPON:
    case AZK_ACT_PLAY_SPELL_MAIN:
    case AZK_ACT_PLAY_SPELL_RESPONSE: apply_play(g, cs, me, type, p0, p1); break;
    case AZK_ACT_ATTACK: apply_attack(g, cs, me, p0, p1); break;
    case AZK_ACT_DECLARE_DEFENDER: apply_defender(g, me, p0); break;
    case AZK_ACT_PORTAL_GATE: apply_portal(g, cs, me, p0, p1); break;
    case AZK_ACT_ACTIVATE_ABILITY: apply_activate(g, cs, me, p0, p1); break;
    default: AZK_UNREACHABLE(); break; /* azk_step decodes only legal actions, and every type has a case */
    }
}

/* Decisions that change cards without a state check of their own (RULES
 * §9): taps (attacker, defender, gate, TAP costs), a portal's move, paid
 * costs, a mulligan's new hand. Plays check after the card has moved
 * (azk_play_card); answers, passes and END_TURN change no card. */
static const uint8_t CHECK_AFTER[AZK_ACT_COUNT] = {
    [AZK_ACT_MULLIGAN_KEEP] = 1, [AZK_ACT_MULLIGAN_SHUFFLE] = 1, [AZK_ACT_ATTACK] = 1,
    [AZK_ACT_DECLARE_DEFENDER] = 1, [AZK_ACT_PORTAL_GATE] = 1, [AZK_ACT_ACTIVATE_ABILITY] = 1,
};

/* Apply one validated decision, then the state checks it calls for. */
void azk_apply(azk_game *g, const azk_cardset *cs, int type, int p0, int p1) {
    apply_decision(g, cs, type, p0, p1);
    if (CHECK_AFTER[type]) azk_state_check(g, cs);
}

/* ---------------------------------------------------------------------------
 * The response window (docs/rules.md §6.2), all of its flow in one place.
 * The attack declared (apply_attack) opens it at step (a); each step asks
 * the defender only when it has a choice (rules §12; what it may do in each
 * step is enumerated in actions.c, enumerate_response / the DEFENDER phase):
 *   (a) responses: [Response] spells and abilities, any number, each
 *       resolving at once (D7); NO_OP passes to (b);
 *   (b) defender: tap an untapped, non-frozen defender in the garden that is
 *       not the target, to become the target; skipped against infiltrate and
 *       after one redirect; NO_OP passes to (c);
 *   (c) "when attacked" abilities of the current target, then damage (§6.3).
 * At every step the attack ends if attacker or target has left (§6.4).
 * ------------------------------------------------------------------------- */
static void pass_response(azk_game *g) { g->flow = AZK_FLOW_DEFENDER; }  /* (a) -> (b) */
static void pass_defender(azk_game *g) { g->flow = AZK_FLOW_WHEN_ATTACKED; } /* (b) -> (c) */

/* (b): the chosen defender taps and becomes the target. */
static void apply_defender(azk_game *g, int me, int p0) {
    int d = g->pl[me].garden[p0];
    azk_set_tapped(g, d, 1);
    g->target = (uint8_t)d;
    g->target_inc = g->cards[d].incarnation;
    g->defender_used = 1;
    azk_event(g, AZK_EV_DEFENDER_DECLARED, me, d, 0);
    g->flow = AZK_FLOW_WHEN_ATTACKED;
}

/* Is step (b) open: no redirect yet, and the attacker lacks infiltrate? */
static int defender_step_open(const azk_game *g, const azk_cardset *cs) {
    return !g->defender_used && !(azk_status_of(g, cs, g->attacker) & AZK_ST_INFILTRATE);
}

/* One step of the window: 1 when it stops at a decision point (phase set),
 * 0 when the machine moved on. */
static int response_window_step(azk_game *g, const azk_cardset *cs) {
    if (!attack_intact(g)) { /* §6.4 */
        end_attack(g);
        return 0;
    }
    switch (g->flow) {
    case AZK_FLOW_RESPONSE: g->phase = AZK_PHASE_RESPONSE; return 1;
    case AZK_FLOW_DEFENDER:
        if (!defender_step_open(g, cs)) { pass_defender(g); return 0; }
        g->phase = AZK_PHASE_DEFENDER;
        return 1;
    default: /* AZK_FLOW_WHEN_ATTACKED: (c) */
        azk_fire_card(g, cs, g->target, AZK_TRIG_WHEN_ATTACKED, g->attacker, 0);
        g->flow = AZK_FLOW_DAMAGE;
        return 0;
    }
}

/* ---------------------------------------------------------------------------
 * Driving the game to the next decision
 * ------------------------------------------------------------------------- */
/* Resolve the next queued trigger (rules §8, D8): start its program, unless
 * it no longer applies. */
static void resolve_next_trigger(azk_game *g, const azk_cardset *cs, int *resolved) {
    azk_trigger_entry t = g->trig[0];
    memmove(&g->trig[0], &g->trig[1], sizeof(azk_trigger_entry) * (size_t)(g->trig_n - 1));
    g->trig_n--;
    memset(&g->trig[g->trig_n], 0, sizeof(azk_trigger_entry));
    if (++*resolved > AZK_TRIGGER_LIMIT) { /* a bound: the game ends (rules §13.3) */
        azk_truncate(g, AZK_END_TRIGGER_LIMIT);
        return;
    }
    const azk_card *src = &g->cards[t.source];
    const azk_ability *ab = &cs->abilities[t.ability];
    /* A trigger whose source became a new object, or left the zone its
     * ability works from, does nothing (RULES §2.1). */
    if (src->incarnation != t.source_inc) return;
    if (!azk_zone_allows(g, t.source, ab->flags)) return;
    /* a source frozen since the event has no abilities (RULES §7,
     * docs/rulings.md 18); frozen is only ever granted by effects */
    if (g->fx_n && (azk_granted_status(g, t.source) & AZK_ST_FROZEN)) return;
    int rel = t.ability - azk_def(cs, g, t.source)->ability_first;
    if (ab->flags & AZK_ABF_ONCE_PER_TURN) {
        if (g->cards[t.source].once_used & (1u << rel)) return;
        g->cards[t.source].once_used |= (uint8_t)(1u << rel);
    }
    int ctx = t.ctx_card;
    if (ctx != AZK_NONE && g->cards[ctx].incarnation != t.ctx_inc) ctx = AZK_NONE;
    azk_vm_start(g, cs, t.ability, t.source, t.controller, ctx == AZK_NONE ? -1 : ctx, t.ctx_value, -1);
}

/* One step of the turn machine (g->flow): 1 when it stops at a decision
 * point (phase set), 0 when it moved on. */
static int flow_step(azk_game *g, const azk_cardset *cs) {
    switch (g->flow) {
    case AZK_FLOW_MULLIGAN: g->phase = AZK_PHASE_MULLIGAN; return 1;
    case AZK_FLOW_START:
        start_phase(g, cs);
        azk_state_check(g, cs); /* expired effects and untaps can change statics */
        return 0;
    case AZK_FLOW_START_DRAW:
        start_draw(g, cs);
        azk_state_check(g, cs); /* hand, deck and IKZ counts can change statics */
        return 0;
    case AZK_FLOW_MAIN: g->phase = AZK_PHASE_MAIN; return 1;
    case AZK_FLOW_RESPONSE:
    case AZK_FLOW_DEFENDER:
    case AZK_FLOW_WHEN_ATTACKED: return response_window_step(g, cs);
    case AZK_FLOW_DAMAGE: /* rules §6.3 */
        if (!attack_intact(g)) { end_attack(g); return 0; } /* §6.4 */
        combat_damage(g, cs);
        if (g->result != AZK_RES_ONGOING) return 0;
        if (g->cards[g->attacker].incarnation == g->attacker_inc && azk_on_field(g, g->attacker))
            azk_fire_with_weapons(g, cs, g->attacker, AZK_TRIG_AFTER_ATTACKING);
        g->flow = AZK_FLOW_AFTER_ATTACK;
        return 0;
    case AZK_FLOW_AFTER_ATTACK:
        g->in_attack = 0;
        g->flow = AZK_FLOW_MAIN;
        return 0;
    case AZK_FLOW_END: /* rules §4.3 step 1 */
        azk_fire_all(g, cs, AZK_TRIG_END_OF_TURN, 1u << g->active, -1, 0);
        g->flow = AZK_FLOW_END_CLEANUP;
        return 0;
    case AZK_FLOW_END_CLEANUP: end_cleanup(g, cs); return 0;
    default: /* AZK_FLOW_OVER only with a result, which azk_advance saw first */
        AZK_UNREACHABLE();
        azk_game_over(g, AZK_RES_TRUNCATED, AZK_END_TURN_CAP);
        return 0;
    }
}

/* At a decision point: build the legal-action cache (game.h). One legal
 * answer is no question (rules §12): apply it and return 0 to go on; else
 * return 1, the player decides. */
static int decision_point(azk_game *g, const azk_cardset *cs) {
    int n = azk_refresh_legal(g, cs);
    if (n == 1 && g->phase != AZK_PHASE_MULLIGAN) {
        int type = 0, p0 = 0, p1 = 0, w = __builtin_ctz(g->legal_words);
        azk_decode_inline(w * 64 + __builtin_ctzll(g->legal[w]), &type, &p0, &p1);
        azk_apply(g, cs, type, p0, p1);
        return 0;
    }
    /* the defender is asked for a response, again after each one (D7) */
    if (g->phase == AZK_PHASE_RESPONSE) azk_event(g, AZK_EV_RESPONSE_REQUESTED, 1 - g->active, g->attacker, 0);
    return 1;
}

/* Drive the game to the next real decision (RULES §12) or the end: run the
 * VM if an ability is active, else resolve the next queued trigger, else
 * take the next step of the turn machine.
 *
 * State checks (RULES §9) follow every change before anything else happens,
 * and in particular before any decision is offered: no main phase,
 * response, defender choice or prompt is ever asked while a lethally
 * damaged entity is on the field or a leader is at 0 or less (rules §13.4;
 * azk_check_state enforces it at every decision point, -15). The places:
 * after each decision that changes cards (azk_apply, CHECK_AFTER: e.g. a
 * portal that takes a bonus away), after each turn-machine step that
 * changes cards (flow_step), after every VM instruction that changes the
 * game and when an ability finishes (vm.c), and inside damage, plays and
 * sacrifices. Steps that only move the machine need none. */
void azk_advance(azk_game *g, const azk_cardset *cs) {
    int triggers_resolved = 0;
    for (;;) {
        if (g->result != AZK_RES_ONGOING) {
            g->phase = AZK_PHASE_GAME_OVER;
            azk_clear_legal(g);
            return;
        }
        if (g->vm.active) {
            if (g->vm.waiting) { /* a prompt: always a real question (the VM asks only then) */
                g->phase = AZK_PHASE_PROMPT;
                azk_refresh_legal(g, cs);
                return;
            }
            azk_vm_run(g, cs);
        } else if (g->trig_n > 0) {
            resolve_next_trigger(g, cs, &triggers_resolved);
        } else if (flow_step(g, cs) && decision_point(g, cs)) {
            return;
        }
    }
}

/* ---------------------------------------------------------------------------
 * The entry point (azuki.h): one decision, applied and advanced
 * ------------------------------------------------------------------------- */
azk_status azk_step(azk_game *g, const azk_cardset *cs, int action) {
    if (g->result != AZK_RES_ONGOING) return AZK_TERMINAL;
    if (action < 0 || action >= AZK_NUM_ACTIONS_ || !azk_legal_bit(g, action)) return AZK_ILLEGAL;
    int type = 0, p0 = 0, p1 = 0;
    azk_decode_inline(action, &type, &p0, &p1);
    azk_apply(g, cs, type, p0, p1);
    azk_advance(g, cs);
    /* Every game ends (rules §13): a card set can loop through decisions
     * inside one turn, where the turn cap never fires. The decision that
     * reaches the cap is applied in full (a game it decides keeps its
     * result); if the game goes on, it ends TRUNCATED there. */
    if (++g->decisions >= g->decision_cap && g->result == AZK_RES_ONGOING) {
        azk_truncate(g, AZK_END_DECISION_CAP);
        azk_advance(g, cs); /* settles the finished game (phase, empty legal set) */
    }
    AZK_ASSERT(azk_check_invariants(g, cs) == 0); /* debug builds: every step keeps every invariant */
    return AZK_OK;
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
    azk_state_check(g, cs); /* the opening hands could matter to a card set's statics */
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
        azk_clear_legal(g);
    }
}
