/* setup.c — building a position from a plan (azk_game_setup, azuki.h).
 *
 * The plan is a flat int32 array in the layout of the AZK_PLAN entries of
 * azk_export.def. It is checked in two passes before anything changes:
 *   1. every word in range on its own (lengths, versions, card and
 *      definition indices, zones, counts within capacity, list entries
 *      owned by their player, unused entries -1), so writing the position
 *      can never index out of bounds;
 *   2. the position, written into a scratch copy of the game, against the
 *      engine's invariant checker (azk_check_state: each card in exactly one
 *      zone, zones and card types agree, weapon holders, IKZ conservation...).
 * Only then is the copy finished (state checks, advance to the first
 * decision, events drained) and stored into the caller's game.
 */
#include "game.h"

/* AZK_PO_name: offset of plan field `name`. */
#define AZK_PLAN(name, n, doc) AZK_PO_##name, AZK_PE_##name = AZK_PO_##name + (n) - 1,
enum azk_plan_offset {
#include "azk_export.def"
    AZK_PLAN_SIZE_
};
#undef AZK_PLAN

/* The same X-macro shape as export.c's export table (another family of the
 * same .def): the lookups they share are azk_layout_lookup / azk_layout_name. */
#define AZK_PLAN(name, n, doc) {AZK_PO_##name, (n), #name},
static const azk_layout_field plan_fields[] = {
#include "azk_export.def"
};
#undef AZK_PLAN
#define NUM_PLAN_FIELDS ((int)(sizeof plan_fields / sizeof plan_fields[0]))

_Static_assert(AZK_PO_VERSION == 0, "the plan starts with its version");

int azk_plan_version(void) { return AZK_PLAN_VERSION; }
int azk_plan_size(void) { return AZK_PLAN_SIZE_; }
int azk_plan_num_fields(void) { return NUM_PLAN_FIELDS; }
int azk_plan_field(int field, int *offset, int *count) {
    return azk_layout_lookup(plan_fields, NUM_PLAN_FIELDS, field, offset, count);
}
const char *azk_plan_field_name(int field) { return azk_layout_name(plan_fields, NUM_PLAN_FIELDS, field); }

/* ---- pass 1: every word in range ------------------------------------------- */
#define WANT(cond, at)       \
    do {                     \
        if (!(cond)) return (at); \
    } while (0)

static int in(int32_t v, int lo, int hi) { return v >= lo && v <= hi; }

/* A list of player p: n in [0, cap], entries < n own cards, the rest -1.
 * Returns -1 when fine, else the index of the bad word. */
static int check_list(const int32_t *plan, int off_n, int off, int cap, int p) {
    int32_t n = plan[off_n + p];
    WANT(in(n, 0, cap), off_n + p);
    for (int i = 0; i < cap; i++) {
        int at = off + p * cap + i;
        int32_t c = plan[at];
        if (i < n) WANT(in(c, p * AZK_CARDS_PER_PLAYER, (p + 1) * AZK_CARDS_PER_PLAYER - 1), at);
        else WANT(c == -1, at);
    }
    return -1;
}

static int check_row(const int32_t *plan, int off, int p) {
    for (int s = 0; s < AZK_ROW; s++) {
        int at = off + p * AZK_ROW + s;
        int32_t c = plan[at];
        WANT(c == -1 || in(c, p * AZK_CARDS_PER_PLAYER, (p + 1) * AZK_CARDS_PER_PLAYER - 1), at);
    }
    return -1;
}

static int check_words(const azk_cardset *cs, const int32_t *plan) {
    WANT(plan[AZK_PO_VERSION] == AZK_PLAN_VERSION, AZK_PO_VERSION);
    WANT(in(plan[AZK_PO_TURN], 1, AZK_MAX_TURN_CAP), AZK_PO_TURN);
    WANT(in(plan[AZK_PO_ACTIVE], 0, 1), AZK_PO_ACTIVE);
    WANT(in(plan[AZK_PO_FIRST_PLAYER], 0, 1), AZK_PO_FIRST_PLAYER);
    WANT(in(plan[AZK_PO_TURN_CAP], 1, AZK_MAX_TURN_CAP), AZK_PO_TURN_CAP);
    WANT(in(plan[AZK_PO_DECISION_CAP], 1, AZK_MAX_DECISION_CAP), AZK_PO_DECISION_CAP);
    for (int c = 0; c < AZK_NUM_CARDS; c++) {
        WANT(in(plan[AZK_PO_CARD_DEF + c], 0, cs->num_defs - 1), AZK_PO_CARD_DEF + c);
        WANT(in(plan[AZK_PO_CARD_ZONE + c], 0, AZK_Z_COUNT - 1), AZK_PO_CARD_ZONE + c);
        /* bits 0..3, and 5 (events: exposed, rules §15.4); bit 4 (poisoned) is transient */
        WANT(in(plan[AZK_PO_CARD_FLAGS + c], 0, 15) || (in(plan[AZK_PO_CARD_FLAGS + c], 32, 47)),
             AZK_PO_CARD_FLAGS + c);
        WANT(in(plan[AZK_PO_CARD_DAMAGE + c], 0, 9999), AZK_PO_CARD_DAMAGE + c);
        WANT(in(plan[AZK_PO_CARD_ONCE_USED + c], 0, 255), AZK_PO_CARD_ONCE_USED + c);
        WANT(plan[AZK_PO_CARD_HOLDER + c] == -1 || in(plan[AZK_PO_CARD_HOLDER + c], 0, AZK_NUM_CARDS - 1),
             AZK_PO_CARD_HOLDER + c);
        /* known deck positions (docs/rules.md §17.5): deck cards only, one bit per player */
        WANT(in(plan[AZK_PO_CARD_SEEN + c], 0, 3) && (plan[AZK_PO_CARD_SEEN + c] == 0 ||
                                                      plan[AZK_PO_CARD_ZONE + c] == AZK_Z_DECK),
             AZK_PO_CARD_SEEN + c);
    }
    for (int p = 0; p < AZK_PLAYERS; p++) {
        int bad;
        WANT(in(plan[AZK_PO_PLAYED_ENTITIES + p], 0, 255), AZK_PO_PLAYED_ENTITIES + p);
        if ((bad = check_list(plan, AZK_PO_DECK_N, AZK_PO_DECK, AZK_DECK_CAP, p)) >= 0) return bad;
        if ((bad = check_list(plan, AZK_PO_HAND_N, AZK_PO_HAND, AZK_HAND_CAP, p)) >= 0) return bad;
        if ((bad = check_list(plan, AZK_PO_DISCARD_N, AZK_PO_DISCARD, AZK_DISCARD_CAP, p)) >= 0) return bad;
        if ((bad = check_list(plan, AZK_PO_WEAPONS_N, AZK_PO_WEAPONS, AZK_WEAPON_CAP, p)) >= 0) return bad;
        if ((bad = check_list(plan, AZK_PO_IKZ_AREA_N, AZK_PO_IKZ_AREA, AZK_IKZ_AREA_CAP, p)) >= 0) return bad;
        if ((bad = check_list(plan, AZK_PO_IKZ_PILE_N, AZK_PO_IKZ_PILE, AZK_DECK_IKZ, p)) >= 0) return bad;
        if ((bad = check_row(plan, AZK_PO_GARDEN, p)) >= 0) return bad;
        if ((bad = check_row(plan, AZK_PO_ALLEY, p)) >= 0) return bad;
    }
    int32_t fx_n = plan[AZK_PO_EFFECTS_N];
    WANT(in(fx_n, 0, AZK_MAX_EFFECTS), AZK_PO_EFFECTS_N);
    for (int i = 0; i < AZK_MAX_EFFECTS; i++) {
        const int offs[] = {AZK_PO_FX_CARD, AZK_PO_FX_KIND, AZK_PO_FX_DURATION, AZK_PO_FX_CREATOR, AZK_PO_FX_AMOUNT,
                            AZK_PO_FX_STATUS};
        if (i >= fx_n) {
            for (int k = 0; k < 6; k++) WANT(plan[offs[k] + i] == -1, offs[k] + i);
            continue;
        }
        WANT(in(plan[AZK_PO_FX_CARD + i], 0, AZK_NUM_CARDS - 1), AZK_PO_FX_CARD + i);
        WANT(in(plan[AZK_PO_FX_KIND + i], AZK_FX_ATTACK, AZK_FX_REMOVE), AZK_PO_FX_KIND + i);
        WANT(in(plan[AZK_PO_FX_DURATION + i], 0, AZK_DUR_COUNT - 1), AZK_PO_FX_DURATION + i);
        WANT(in(plan[AZK_PO_FX_CREATOR + i], 0, 1), AZK_PO_FX_CREATOR + i);
        WANT(in(plan[AZK_PO_FX_AMOUNT + i], INT8_MIN, INT8_MAX), AZK_PO_FX_AMOUNT + i);
        WANT(in(plan[AZK_PO_FX_STATUS + i], 0, (1 << AZK_STI_COUNT) - 1), AZK_PO_FX_STATUS + i);
        /* a status the set's gates do not track (stealth, lifesteal, poisonous where no card of the
         * set has or gives them): refused, not silently ignored by legality and damage */
        WANT(plan[AZK_PO_FX_KIND + i] != AZK_FX_STATUS ||
                 !((unsigned)plan[AZK_PO_FX_STATUS + i] & azk_cardset_untracked_statuses(cs)),
             AZK_PO_FX_STATUS + i);
    }
    return -1;
}

/* ---- writing the position --------------------------------------------------- */
static void fill(azk_game *g, uint8_t *arr, uint8_t *n, const int32_t *src, int count) {
    for (int i = 0; i < count; i++) {
        int c = src[i];
        g->cards[c].pos = (uint8_t)i;
        arr[i] = (uint8_t)c;
    }
    *n = (uint8_t)count;
}

static void write_position(azk_game *g, const int32_t *plan) {
    g->fx_n = 0;
    g->trig_n = 0;
    memset(&g->prompt, 0, sizeof g->prompt);
    memset(&g->vm, 0, sizeof g->vm); /* as azk_game_init leaves it: one position, one hash */
    g->vm.source = g->vm.ctx_card = g->vm.spell_card = AZK_NONE;
    memset(g->vm.t, AZK_NONE, sizeof g->vm.t);
    g->vm_depth = 0; /* no suspended frames */
    memset(g->vm_saved, 0, sizeof g->vm_saved);
    for (int p = 0; p < AZK_PLAYERS; p++) {
        azk_player *pl = &g->pl[p];
        int base = p * AZK_CARDS_PER_PLAYER;
        pl->deck_n = pl->hand_n = pl->discard_n = pl->weapons_n = pl->ikz_area_n = pl->ikz_pile_n = pl->look_n = 0;
        memset(pl->garden, AZK_NONE, sizeof pl->garden);
        memset(pl->alley, AZK_NONE, sizeof pl->alley);
        pl->leader = (uint8_t)base;
        pl->gate = (uint8_t)(base + 1);
        pl->token = (uint8_t)(base + AZK_CARDS_PER_PLAYER - 1);
        for (int c = base; c < base + AZK_CARDS_PER_PLAYER; c++) {
            azk_card *k = &g->cards[c];
            k->def = (uint8_t)plan[AZK_PO_CARD_DEF + c];
            k->owner = (uint8_t)p;
            k->zone = (uint8_t)plan[AZK_PO_CARD_ZONE + c];
            k->pos = 0;
            int32_t h = plan[AZK_PO_CARD_HOLDER + c];
            k->holder = h < 0 ? AZK_NONE : (uint8_t)h;
            k->flags = (uint8_t)plan[AZK_PO_CARD_FLAGS + c];
            k->once_used = (uint8_t)plan[AZK_PO_CARD_ONCE_USED + c];
            k->seen = (uint8_t)plan[AZK_PO_CARD_SEEN + c];
            k->damage = (int16_t)plan[AZK_PO_CARD_DAMAGE + c];
            k->incarnation = ++g->next_incarnation; /* a new object (RULES 2.1) */
        }
        fill(g, pl->deck, &pl->deck_n, plan + AZK_PO_DECK + p * AZK_DECK_CAP, plan[AZK_PO_DECK_N + p]);
        /* the hand in canonical order (definition, then card index): insertion sort */
        int hn = plan[AZK_PO_HAND_N + p];
        int32_t hand[AZK_HAND_CAP];
        for (int i = 0; i < hn; i++) {
            int32_t c = plan[AZK_PO_HAND + p * AZK_HAND_CAP + i];
            int j = i;
            while (j > 0 && (g->cards[hand[j - 1]].def > g->cards[c].def ||
                             (g->cards[hand[j - 1]].def == g->cards[c].def && hand[j - 1] > c))) {
                hand[j] = hand[j - 1];
                j--;
            }
            hand[j] = c;
        }
        fill(g, pl->hand, &pl->hand_n, hand, hn);
        fill(g, pl->discard, &pl->discard_n, plan + AZK_PO_DISCARD + p * AZK_DISCARD_CAP, plan[AZK_PO_DISCARD_N + p]);
        fill(g, pl->weapons, &pl->weapons_n, plan + AZK_PO_WEAPONS + p * AZK_WEAPON_CAP, plan[AZK_PO_WEAPONS_N + p]);
        fill(g, pl->ikz_area, &pl->ikz_area_n, plan + AZK_PO_IKZ_AREA + p * AZK_IKZ_AREA_CAP,
             plan[AZK_PO_IKZ_AREA_N + p]);
        fill(g, pl->ikz_pile, &pl->ikz_pile_n, plan + AZK_PO_IKZ_PILE + p * AZK_DECK_IKZ, plan[AZK_PO_IKZ_PILE_N + p]);
        for (int s = 0; s < AZK_ROW; s++) {
            int32_t c = plan[AZK_PO_GARDEN + p * AZK_ROW + s];
            if (c >= 0) {
                g->cards[c].pos = (uint8_t)s;
                pl->garden[s] = (uint8_t)c;
            }
            c = plan[AZK_PO_ALLEY + p * AZK_ROW + s];
            if (c >= 0) {
                g->cards[c].pos = (uint8_t)s;
                pl->alley[s] = (uint8_t)c;
            }
        }
        pl->played_entities = (uint8_t)plan[AZK_PO_PLAYED_ENTITIES + p];
        pl->mulligan_done = 1;
    }
    for (int i = 0; i < plan[AZK_PO_EFFECTS_N]; i++) {
        azk_effect *e = &g->fx[g->fx_n++];
        memset(e, 0, sizeof *e);
        e->card = (uint8_t)plan[AZK_PO_FX_CARD + i];
        e->kind = (uint8_t)plan[AZK_PO_FX_KIND + i];
        e->duration = (uint8_t)plan[AZK_PO_FX_DURATION + i];
        e->creator = (uint8_t)plan[AZK_PO_FX_CREATOR + i];
        e->amount = (int8_t)plan[AZK_PO_FX_AMOUNT + i];
        e->status = (uint16_t)plan[AZK_PO_FX_STATUS + i];
        e->incarnation = g->cards[e->card].incarnation;
    }
    g->turn = (uint16_t)plan[AZK_PO_TURN];
    g->active = (uint8_t)plan[AZK_PO_ACTIVE];
    g->first_player = (uint8_t)plan[AZK_PO_FIRST_PLAYER];
    g->turn_cap = (uint16_t)plan[AZK_PO_TURN_CAP];
    g->decision_cap = (uint16_t)plan[AZK_PO_DECISION_CAP];
    g->decisions = 0;
    g->in_attack = 0;
    g->attacker = g->target = 0;
    g->defender_used = 0;
    g->attacker_inc = g->target_inc = 0;
    g->flow = AZK_FLOW_MAIN;
    g->phase = AZK_PHASE_MAIN;
    g->result = AZK_RES_ONGOING;
    g->end_reason = AZK_END_NONE;
}

azk_status azk_game_setup(azk_game *g, const azk_cardset *cs, const int32_t *plan, size_t len, int *detail) {
    if (detail) *detail = 0;
    if (!g || !cs || !plan || len != (size_t)AZK_PLAN_SIZE_) return AZK_ERR_ARG;
    int bad = check_words(cs, plan);
    if (bad >= 0) {
        if (detail) *detail = bad;
        return AZK_ERR_ARG;
    }
    azk_game tmp;
    memcpy(&tmp, g, sizeof tmp);
    tmp.events_rd = tmp.events_wr; /* setup is not news */
    write_position(&tmp, plan);
    int inv = azk_check_state(&tmp, cs, 0); /* the legal cache is built by azk_advance below */
    if (inv != 0) {
        if (detail) *detail = inv;
        return AZK_ERR_ARG;
    }
    azk_state_check_all(&tmp, cs); /* rebuilds the derived hints, then the state checks */
    azk_advance(&tmp, cs);
    tmp.events_rd = tmp.events_wr;
    memcpy(g, &tmp, sizeof tmp);
    return AZK_OK;
}
