/* export.c — reading a position through the public API (azuki.h).
 *
 * The flat export (azk_export) writes the whole position as int32 words in
 * the layout declared by the AZK_EXPORT entries of azk_export.def, and a few
 * accessors answer single questions (a card's definition, attack, health,
 * statuses; game fields; event unpacking). Bindings read positions through
 * these only: no binding knows the game struct.
 */
#include "game.h"

/* ---- the layout, from azk_export.def ------------------------------------- */
/* AZK_XO_name: the offset of field `name`; AZK_XE_name: its last word. */
#define AZK_EXPORT(name, n, doc) AZK_XO_##name, AZK_XE_##name = AZK_XO_##name + (n) - 1,
enum azk_export_offset {
#include "azk_export.def"
    AZK_EXPORT_SIZE_
};
#undef AZK_EXPORT

/* The same X-macro shape as setup.c's plan table (another family of the same
 * .def): the lookups they share are azk_layout_lookup / azk_layout_name. */
#define AZK_EXPORT(name, n, doc) {AZK_XO_##name, (n), #name},
static const azk_layout_field export_fields[] = {
#include "azk_export.def"
};
#undef AZK_EXPORT
#define NUM_EXPORT_FIELDS ((int)(sizeof export_fields / sizeof export_fields[0]))

_Static_assert(AZK_XO_VERSION == 0, "the export starts with its version");

int azk_export_version(void) { return AZK_EXPORT_VERSION; }
int azk_export_size(void) { return AZK_EXPORT_SIZE_; }
int azk_export_num_fields(void) { return NUM_EXPORT_FIELDS; }
int azk_export_field(int field, int *offset, int *count) {
    return azk_layout_lookup(export_fields, NUM_EXPORT_FIELDS, field, offset, count);
}
const char *azk_export_field_name(int field) { return azk_layout_name(export_fields, NUM_EXPORT_FIELDS, field); }

/* ---- accessors ------------------------------------------------------------- */
int azk_num_cards(void) { return AZK_NUM_CARDS; }
int azk_active_player(const azk_game *g) { return g->active; }
int azk_first_player(const azk_game *g) { return g->first_player; }
int azk_turn_cap(const azk_game *g) { return g->turn_cap; }
int azk_decision_cap(const azk_game *g) { return g->decision_cap; }

static int card_ok(const azk_game *g, const azk_cardset *cs, int c) {
    return c >= 0 && c < AZK_NUM_CARDS && (!cs || g->cards[c].def < cs->num_defs);
}
int azk_card_definition(const azk_game *g, int card) { return card_ok(g, NULL, card) ? g->cards[card].def : -1; }
int azk_card_attack(const azk_game *g, const azk_cardset *cs, int card) {
    return card_ok(g, cs, card) ? azk_attack_of(g, cs, card) : 0;
}
int azk_card_health(const azk_game *g, const azk_cardset *cs, int card) {
    return card_ok(g, cs, card) ? azk_health_of(g, cs, card) : 0;
}
int azk_card_statuses(const azk_game *g, const azk_cardset *cs, int card) {
    return card_ok(g, cs, card) ? (int)azk_status_of(g, cs, card) : -1;
}
int azk_card_cost(const azk_game *g, const azk_cardset *cs, int card) {
    return card_ok(g, cs, card) ? azk_cost_of(g, cs, card) : -1;
}

int azk_event_unpack(uint32_t e, int *type, int *player, int *card, int *value) {
    int p = (int)((e >> 8) & 3u), c = (int)((e >> 10) & 0xFFu), v = (int)((e >> 18) & 0x3FFFu);
    if (v & 0x2000) v -= 0x4000;
    if (type) *type = (int)(e & 0xFFu);
    if (player) *player = p == 3 ? -1 : p;
    if (card) *card = c == AZK_NONE ? -1 : c;
    if (value) *value = v;
    return 0;
}

/* ---- the export ------------------------------------------------------------ */
static inline int32_t card_or_none(int c) { return c == AZK_NONE ? -1 : c; }

/* The card a SLOT / HOLDER prompt places: PLAY_FREE's T[a] (vm.c), else -1
 * (also read by obs.c). */
int azk_placing_card(const azk_game *g, const azk_cardset *cs) {
    const azk_vm_frame *f = &g->vm;
    if (!f->active || !f->waiting || f->pc + 1 >= cs->bytecode_len) return -1;
    uint8_t op = cs->bytecode[f->pc]; /* MOVE, PORTAL and ATTACH place T[a] too */
    if (op != AZK_OP_PLAY_FREE && op != AZK_OP_MOVE && op != AZK_OP_PORTAL && op != AZK_OP_ATTACH) return -1;
    int reg = cs->bytecode[f->pc + 1];
    if (reg >= AZK_TREGS) return -1;
    int c = f->t[reg];
    return c < AZK_NUM_CARDS ? c : -1;
}

/* player p's array of capacity cap: n entries, the rest -1 */
static void put_list(int32_t *dst, int p, int cap, const uint8_t *arr, int n) {
    dst += p * cap;
    if (n > cap) n = cap;
    for (int i = 0; i < cap; i++) dst[i] = i < n ? card_or_none(arr[i]) : -1;
}

int azk_export(const azk_game *g, const azk_cardset *cs, int32_t *out, int cap) {
    if (!g || !cs || !out || cap < AZK_EXPORT_SIZE_) return -1;
    int32_t *o = out;
    o[AZK_XO_VERSION] = AZK_EXPORT_VERSION;
    o[AZK_XO_SIZE] = AZK_EXPORT_SIZE_;
    o[AZK_XO_NUM_CARDS] = AZK_NUM_CARDS;
    o[AZK_XO_CARDS_PER_PLAYER] = AZK_CARDS_PER_PLAYER;
    o[AZK_XO_PLAYERS] = AZK_PLAYERS;
    o[AZK_XO_TURN] = g->turn;
    o[AZK_XO_TURN_CAP] = g->turn_cap;
    o[AZK_XO_DECISIONS] = g->decisions;
    o[AZK_XO_DECISION_CAP] = g->decision_cap;
    o[AZK_XO_ACTIVE] = g->active;
    o[AZK_XO_FIRST_PLAYER] = g->first_player;
    o[AZK_XO_PHASE] = g->phase;
    o[AZK_XO_RESULT] = g->result;
    o[AZK_XO_END_REASON] = g->end_reason;
    o[AZK_XO_CURRENT_PLAYER] = azk_current_player(g);
    o[AZK_XO_WINNER] = azk_winner(g);
    o[AZK_XO_RNG + 0] = (int32_t)(uint32_t)g->rng.state;
    o[AZK_XO_RNG + 1] = (int32_t)(uint32_t)(g->rng.state >> 32);
    o[AZK_XO_RNG + 2] = (int32_t)(uint32_t)g->rng.inc;
    o[AZK_XO_RNG + 3] = (int32_t)(uint32_t)(g->rng.inc >> 32);
    o[AZK_XO_TRIGGERS_N] = g->trig_n;
    o[AZK_XO_IN_ATTACK] = g->in_attack != 0;
    o[AZK_XO_ATTACKER] = g->in_attack ? g->attacker : -1;
    o[AZK_XO_TARGET] = g->in_attack ? g->target : -1;
    o[AZK_XO_DEFENDER_USED] = g->defender_used != 0;

    for (int c = 0; c < AZK_NUM_CARDS; c++) {
        const azk_card *k = &g->cards[c];
        int ok = k->def < cs->num_defs; /* a valid game always; never read past the set */
        o[AZK_XO_CARD_DEF + c] = k->def;
        o[AZK_XO_CARD_OWNER + c] = k->owner;
        o[AZK_XO_CARD_ZONE + c] = k->zone;
        o[AZK_XO_CARD_POS + c] = k->pos;
        o[AZK_XO_CARD_HOLDER + c] = card_or_none(k->holder);
        o[AZK_XO_CARD_FLAGS + c] = k->flags;
        o[AZK_XO_CARD_DAMAGE + c] = k->damage;
        o[AZK_XO_CARD_ONCE_USED + c] = k->once_used;
        o[AZK_XO_CARD_INCARNATION + c] = k->incarnation;
        o[AZK_XO_CARD_SEEN + c] = k->seen;
        o[AZK_XO_CARD_ATTACK + c] = ok ? azk_attack_of(g, cs, c) : 0;
        o[AZK_XO_CARD_HEALTH + c] = ok ? azk_health_of(g, cs, c) : 0;
        o[AZK_XO_CARD_STATUSES + c] = ok ? (int32_t)azk_status_of(g, cs, c) : 0;
    }

    for (int p = 0; p < AZK_PLAYERS; p++) {
        const azk_player *pl = &g->pl[p];
        o[AZK_XO_DECK_N + p] = pl->deck_n;
        o[AZK_XO_HAND_N + p] = pl->hand_n;
        o[AZK_XO_DISCARD_N + p] = pl->discard_n;
        o[AZK_XO_WEAPONS_N + p] = pl->weapons_n;
        o[AZK_XO_IKZ_AREA_N + p] = pl->ikz_area_n;
        o[AZK_XO_IKZ_PILE_N + p] = pl->ikz_pile_n;
        o[AZK_XO_LOOK_N + p] = pl->look_n;
        o[AZK_XO_LEADER + p] = pl->leader;
        o[AZK_XO_GATE + p] = pl->gate;
        o[AZK_XO_TOKEN + p] = pl->token;
        o[AZK_XO_PLAYED_ENTITIES + p] = pl->played_entities;
        o[AZK_XO_MULLIGAN_DONE + p] = pl->mulligan_done != 0;
        put_list(o + AZK_XO_DECK, p, AZK_DECK_CAP, pl->deck, pl->deck_n);
        put_list(o + AZK_XO_HAND, p, AZK_HAND_CAP, pl->hand, pl->hand_n);
        put_list(o + AZK_XO_DISCARD, p, AZK_DISCARD_CAP, pl->discard, pl->discard_n);
        put_list(o + AZK_XO_WEAPONS, p, AZK_WEAPON_CAP, pl->weapons, pl->weapons_n);
        put_list(o + AZK_XO_GARDEN, p, AZK_ROW, pl->garden, AZK_ROW);
        put_list(o + AZK_XO_ALLEY, p, AZK_ROW, pl->alley, AZK_ROW);
        put_list(o + AZK_XO_IKZ_AREA, p, AZK_IKZ_AREA_CAP, pl->ikz_area, pl->ikz_area_n);
        put_list(o + AZK_XO_IKZ_PILE, p, AZK_DECK_IKZ, pl->ikz_pile, pl->ikz_pile_n);
        put_list(o + AZK_XO_LOOK, p, AZK_LOOK_CAP, pl->look, pl->look_n);
    }

    int fx_n = g->fx_n < AZK_MAX_EFFECTS ? g->fx_n : AZK_MAX_EFFECTS;
    o[AZK_XO_EFFECTS_N] = fx_n;
    for (int i = 0; i < AZK_MAX_EFFECTS; i++) {
        const azk_effect *e = &g->fx[i];
        int used = i < fx_n;
        o[AZK_XO_FX_CARD + i] = used ? e->card : -1;
        o[AZK_XO_FX_KIND + i] = used ? e->kind : -1;
        o[AZK_XO_FX_DURATION + i] = used ? e->duration : -1;
        o[AZK_XO_FX_CREATOR + i] = used ? e->creator : -1;
        o[AZK_XO_FX_AMOUNT + i] = used ? e->amount : -1;
        o[AZK_XO_FX_STATUS + i] = used ? e->status : -1;
        o[AZK_XO_FX_LIVE + i] = used ? (e->card < AZK_NUM_CARDS && g->cards[e->card].incarnation == e->incarnation) : -1;
    }

    int pending = g->phase == AZK_PHASE_PROMPT;
    const azk_prompt *q = &g->prompt;
    int n = pending ? (q->n < AZK_MAX_OPTIONS ? q->n : AZK_MAX_OPTIONS) : 0;
    o[AZK_XO_PROMPT_PENDING] = pending;
    o[AZK_XO_PROMPT_KIND] = pending ? q->kind : -1;
    o[AZK_XO_PROMPT_CHOOSER] = pending ? q->chooser : -1;
    o[AZK_XO_PROMPT_N] = n;
    o[AZK_XO_PROMPT_OPTIONAL] = pending && q->optional;
    for (int i = 0; i < AZK_MAX_OPTIONS; i++) o[AZK_XO_PROMPT_OPT + i] = i < n ? q->opt[i] : -1;
    o[AZK_XO_PROMPT_SOURCE] = g->vm.active && g->vm.source < AZK_NUM_CARDS ? g->vm.source : -1;
    int placing = pending ? azk_placing_card(g, cs) : -1;
    o[AZK_XO_PROMPT_PLACING] = placing;
    o[AZK_XO_PROMPT_PLACING_OWNER] = placing >= 0 ? g->cards[placing].owner : pending ? q->chooser : -1;
    o[AZK_XO_PROMPT_PC] = pending ? g->vm.pc : -1;
    return AZK_EXPORT_SIZE_;
}
