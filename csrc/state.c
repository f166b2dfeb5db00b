/* state.c — services over the flat game struct: simple accessors, hash,
 * clone, serialization, the invariant checker, the event log and render().
 *
 * Layer (csrc/layers.def): above legality (the checker compares the cached
 * legal set with azk_enumerate) and below the turn machine, whose debug
 * build runs the checker after every step; it never advances a game.
 *
 * Serialized form (little-endian host layout; the version changes whenever
 * the struct does):
 *
 *   offset  size  field
 *   0       4     magic "AZKS"
 *   4       2     format version (AZK_STATE_VERSION)
 *   6       2     reserved, 0
 *   8       4     payload size = AZK_HASHED_BYTES
 *   12      4     reserved, 0
 *   16      8     card-set hash (azk_cardset_hash)
 *   24      N     payload: the game struct up to the event log
 *   24+N    8     checksum: azk hash of bytes [0, 24+N)
 *
 * Deserialization rejects anything that is not exactly this, then runs the
 * invariant checker on the decoded state before touching the caller's game,
 * so corrupt or hostile bytes yield AZK_ERR_CORRUPT and change nothing.
 */
#include <stdio.h>

#include "game.h"

#define AZK_STATE_MAGIC 0x534B5A41u /* "AZKS" */
#define AZK_STATE_VERSION 5 /* 2: end_reason, decision counter and cap; 3: 16-bit effect statuses; 4: azk_card.seen; 5: VM frame stack (trigger_ability); events (3 keywords move the condition bits; pending_end, replacing) */
#define AZK_HEADER_BYTES 24

size_t azk_game_size(void) { return sizeof(azk_game); }
int azk_phase(const azk_game *g) { return g->phase; }
int azk_is_terminal(const azk_game *g) { return g->result != AZK_RES_ONGOING; }
int azk_result(const azk_game *g) { return g->result; }
int azk_turn(const azk_game *g) { return g->turn; }
int azk_winner(const azk_game *g) {
    return g->result == AZK_RES_WIN_P0 ? 0 : g->result == AZK_RES_WIN_P1 ? 1 : -1;
}
void azk_game_clone(azk_game *dst, const azk_game *src) { memcpy(dst, src, sizeof *dst); }

const char *azk_status_name(azk_status s) {
    static const char *names[] = {"OK", "ILLEGAL", "TERMINAL", "ERR_ARG", "ERR_CORRUPT", "ERR_CARDSET", "ERR_LIMIT"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "UNKNOWN";
}

/* ---- hashing: 4 independent multiply-xorshift lanes over 8-byte words ------ */
static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t azk_hash_bytes(const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    uint64_t lane[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0x27D4EB2F165667C5ULL};
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * k, 8);
            lane[k] = (lane[k] ^ w) * 0x9E3779B97F4A7C15ULL;
            lane[k] ^= lane[k] >> 29;
        }
    }
    uint64_t tail = 0x84222325CBF29CE4ULL;
    for (; i < len; i += 8) {
        uint64_t w = 0;
        memcpy(&w, p + i, len - i < 8 ? len - i : 8);
        tail = mix64(tail ^ w);
    }
    uint64_t h = (uint64_t)len;
    for (int k = 0; k < 4; k++) h = mix64(h ^ lane[k]) + (uint64_t)k;
    return mix64(h ^ tail);
}

uint64_t azk_hash(const azk_game *g) { return azk_hash_bytes(g, AZK_HASHED_BYTES); }

/* Only the set's data: the derived tables are a function of it. */
uint64_t azk_cardset_hash(const azk_cardset *cs) { return azk_hash_bytes(cs, AZK_CARDSET_HASHED_BYTES); }

/* ---- invariants ------------------------------------------------------------ */
typedef struct inv_entry { int code; const char *name, *message; } inv_entry;
#define AZK_INV(name, code, doc) {code, #name, doc},
static const inv_entry invariants[] = {
#include "azk_invariants.def"
};
#undef AZK_INV
static const inv_entry *inv_find(int code) {
    for (size_t i = 0; i < sizeof invariants / sizeof *invariants; i++)
        if (invariants[i].code == code) return &invariants[i];
    return NULL;
}
const char *azk_invariant_name(int code) { return code == 0 ? "OK" : inv_find(code) ? inv_find(code)->name : NULL; }
const char *azk_invariant_message(int code) {
    return code == 0 ? "every invariant holds" : inv_find(code) ? inv_find(code)->message : NULL;
}

#define INV(cond, code)            \
    do {                           \
        if (!(cond)) return (code); \
    } while (0)

static int check_list(const azk_game *g, const uint8_t *arr, int n, int cap, int p, int zone, int *seen) {
    if (n > cap) return -1;
    for (int i = 0; i < n; i++) {
        int c = arr[i];
        if (c >= AZK_NUM_CARDS) return -2;
        const azk_card *k = &g->cards[c];
        if (k->owner != p || k->zone != zone || k->pos != i || seen[c]) return -3;
        seen[c] = 1;
    }
    return 0;
}

/* The game as a whole: enums in range, the turn machine, result and end reason, caps, RNG. */
static int check_game(const azk_game *g, const azk_cardset *cs) {
    INV(azk_cardset_facts_ok(cs), AZK_INV_CARDSET_FACTS); /* derived tables match the set (azk_cardset_finish ran last) */
    INV(g->result < AZK_RES_COUNT && g->phase < AZK_PHASE_COUNT && g->flow <= AZK_FLOW_OVER, AZK_INV_ENUM_RANGE);
    INV(g->active < 2 && g->first_player < 2, AZK_INV_PLAYER_RANGE);
    INV((g->result == AZK_RES_ONGOING) == (g->phase != AZK_PHASE_GAME_OVER), AZK_INV_RESULT_PHASE);
    /* the turn machine's position agrees with the decision being asked:
     * azk_advance sets these phases from the flow (found by fuzz_state: a
     * MAIN phase over a finished flow ended the game without a result) */
    INV((g->result == AZK_RES_ONGOING) == (g->flow != AZK_FLOW_OVER), AZK_INV_RESULT_FLOW);
    INV(g->phase != AZK_PHASE_MULLIGAN || g->flow == AZK_FLOW_MULLIGAN, AZK_INV_PHASE_FLOW);
    INV(g->phase != AZK_PHASE_MAIN || g->flow == AZK_FLOW_MAIN, AZK_INV_PHASE_FLOW);
    INV(g->phase != AZK_PHASE_RESPONSE || g->flow == AZK_FLOW_RESPONSE, AZK_INV_PHASE_FLOW);
    INV(g->phase != AZK_PHASE_DEFENDER || g->flow == AZK_FLOW_DEFENDER, AZK_INV_PHASE_FLOW);
    /* why it ended agrees with the result (rules §13) */
    INV(g->end_reason < AZK_END_COUNT, AZK_INV_END_REASON);
    /* events (rules §15.5, §15.6): transient flags, never left set at a decision or after the end */
    INV(g->replacing == 0 && (g->pending_end == 0 || g->result != AZK_RES_ONGOING) && g->pending_end < 16,
        AZK_INV_END_REASON);
    if (g->result == AZK_RES_ONGOING) INV(g->end_reason == AZK_END_NONE, AZK_INV_END_REASON);
    else if (g->result == AZK_RES_TRUNCATED)
        INV(g->end_reason >= AZK_END_TURN_CAP && g->end_reason != AZK_END_EFFECT, AZK_INV_END_REASON);
    else INV(g->end_reason == AZK_END_LEADER || g->end_reason == AZK_END_EFFECT ||
                 (g->end_reason == AZK_END_DECK_OUT && g->result != AZK_RES_DRAW), AZK_INV_END_REASON);
    /* a PCG32 stream: found by fuzz_state, state 0 with increment 0 stays 0
     * and the mulligan's bounded shuffle rejected forever */
    INV(g->rng.inc & 1u, AZK_INV_RNG_STREAM);
    /* every game ends: an ongoing game is below its decision cap */
    INV(g->decision_cap >= 1 && g->decision_cap <= AZK_MAX_DECISION_CAP && g->turn_cap >= 1 &&
            g->turn_cap <= AZK_MAX_TURN_CAP && (g->result != AZK_RES_ONGOING || g->decisions < g->decision_cap), AZK_INV_CAPS);
    return 0;
}

/* Every card record, and the card types each zone may hold. */
static int check_cards(const azk_game *g, const azk_cardset *cs) {
    for (int c = 0; c < AZK_NUM_CARDS; c++) {
        const azk_card *k = &g->cards[c];
        INV(k->def < cs->num_defs && k->owner == c / AZK_CARDS_PER_PLAYER && k->zone < AZK_Z_COUNT, AZK_INV_CARD_RECORD);
        INV(k->zone == AZK_Z_WEAPON ? k->holder < AZK_NUM_CARDS : k->holder == AZK_NONE, AZK_INV_WEAPON_HOLDER_FIELD);
        /* every zone holds only the card types that can ever be there */
        int t = cs->defs[k->def].card_type;
        int main_card = t == AZK_CT_ENTITY || t == AZK_CT_WEAPON || t == AZK_CT_SPELL;
        switch (k->zone) {
        case AZK_Z_LEADER: INV(t == AZK_CT_LEADER, AZK_INV_LEADER_GATE_TYPE); break;
        case AZK_Z_GATE: INV(t == AZK_CT_GATE, AZK_INV_LEADER_GATE_TYPE); break;
        case AZK_Z_IKZ_PILE: case AZK_Z_IKZ_AREA: case AZK_Z_ASIDE: INV(t == AZK_CT_IKZ, AZK_INV_IKZ_ZONE_TYPE); break;
        case AZK_Z_RESOLVING: INV(t == AZK_CT_SPELL, AZK_INV_SPECIAL_ZONE_TYPE); break;
        case AZK_Z_OUT: INV(t == AZK_CT_IKZ || main_card, AZK_INV_SPECIAL_ZONE_TYPE); break;
        default: INV(main_card, AZK_INV_MAIN_ZONE_TYPE); break; /* deck, hand, discard, rows, weapons, look */
        }
        /* once-per-turn marks and cooldown live only where abilities and
         * entities work from; a zone change clears them (azk_move), and the
         * turn machine's per-turn resets walk only these zones */
        int marked_zone = k->zone == AZK_Z_LEADER || k->zone == AZK_Z_GATE || k->zone == AZK_Z_GARDEN ||
                          k->zone == AZK_Z_ALLEY || k->zone == AZK_Z_WEAPON;
        INV(marked_zone || (k->once_used == 0 && !(k->flags & AZK_CF_COOLDOWN)), AZK_INV_MARKS_ON_FIELD);
        /* deck-position knowledge: only on deck cards, one bit per player */
        INV(k->seen < (1u << AZK_PLAYERS) && (k->seen == 0 || k->zone == AZK_Z_DECK), AZK_INV_SEEN_IN_DECK);
    }
    return 0;
}

/* Each player's fixed cards and zone arrays (marking the cards they hold in `seen`). */
static int check_players(const azk_game *g, const azk_cardset *cs, int *seen) {
    for (int p = 0; p < AZK_PLAYERS; p++) {
        const azk_player *pl = &g->pl[p];
        int base = p * AZK_CARDS_PER_PLAYER;
        INV(pl->leader == base && pl->gate == base + 1 && pl->token == base + AZK_CARDS_PER_PLAYER - 1, AZK_INV_FIXED_CARDS);
        INV(g->cards[pl->leader].zone == AZK_Z_LEADER && g->cards[pl->gate].zone == AZK_Z_GATE, AZK_INV_LEADER_GATE_ZONE);
        seen[pl->leader] = seen[pl->gate] = 1;
        INV(check_list(g, pl->deck, pl->deck_n, AZK_DECK_CAP, p, AZK_Z_DECK, seen) == 0, AZK_INV_DECK_LIST);
        INV(check_list(g, pl->hand, pl->hand_n, AZK_HAND_CAP, p, AZK_Z_HAND, seen) == 0, AZK_INV_HAND_LIST);
        INV(check_list(g, pl->discard, pl->discard_n, AZK_DISCARD_CAP, p, AZK_Z_DISCARD, seen) == 0, AZK_INV_DISCARD_LIST);
        INV(check_list(g, pl->weapons, pl->weapons_n, AZK_WEAPON_CAP, p, AZK_Z_WEAPON, seen) == 0, AZK_INV_WEAPON_LIST);
        INV(check_list(g, pl->ikz_area, pl->ikz_area_n, AZK_IKZ_AREA_CAP, p, AZK_Z_IKZ_AREA, seen) == 0, AZK_INV_IKZ_AREA_LIST);
        INV(check_list(g, pl->ikz_pile, pl->ikz_pile_n, AZK_DECK_IKZ, p, AZK_Z_IKZ_PILE, seen) == 0, AZK_INV_IKZ_PILE_LIST);
        INV(check_list(g, pl->look, pl->look_n, AZK_LOOK_CAP, p, AZK_Z_LOOK, seen) == 0, AZK_INV_LOOK_LIST);
        for (int s = 0; s < AZK_ROW; s++) {
            for (int r = 0; r < 2; r++) {
                int c = r == 0 ? pl->garden[s] : pl->alley[s];
                if (c == AZK_NONE) continue;
                INV(c < AZK_NUM_CARDS && !seen[c], AZK_INV_ROW_INDEX);
                const azk_card *k = &g->cards[c];
                INV(k->owner == p && k->zone == (r == 0 ? AZK_Z_GARDEN : AZK_Z_ALLEY) && k->pos == s, AZK_INV_ROW_RECORD);
                INV(cs->defs[k->def].card_type == AZK_CT_ENTITY, AZK_INV_ROW_TYPE);
                seen[c] = 1;
            }
        }
        for (int i = 1; i < pl->hand_n; i++) { /* canonical hand order */
            const azk_card *a = &g->cards[pl->hand[i - 1]], *b = &g->cards[pl->hand[i]];
            INV(a->def < b->def || (a->def == b->def && pl->hand[i - 1] < pl->hand[i]), AZK_INV_HAND_ORDER);
        }
        for (int i = 0; i < pl->weapons_n; i++) { /* holders: own leader or own garden entity */
            int h = g->cards[pl->weapons[i]].holder;
            INV(h == pl->leader || (g->cards[h].owner == p && g->cards[h].zone == AZK_Z_GARDEN), AZK_INV_WEAPON_HOLDER);
            INV(cs->defs[g->cards[pl->weapons[i]].def].card_type == AZK_CT_WEAPON, AZK_INV_WEAPON_TYPE);
        }
        for (int i = 0; i < pl->ikz_area_n; i++)
            INV(cs->defs[g->cards[pl->ikz_area[i]].def].card_type == AZK_CT_IKZ, AZK_INV_IKZ_AREA_TYPE);
        INV(pl->ikz_area_n + pl->ikz_pile_n + (g->cards[pl->token].zone == AZK_Z_ASIDE) +
                (g->cards[pl->token].zone == AZK_Z_OUT) == AZK_DECK_IKZ + 1, AZK_INV_IKZ_CONSERVED);
    }
    return 0;
}

/* Every physical card in exactly one zone; at most one spell resolving. */
static int check_conservation(const azk_game *g, int *seen) {
    for (int c = 0; c < AZK_NUM_CARDS; c++) { /* conservation: each card in exactly one zone */
        uint8_t z = g->cards[c].zone;
        if (z == AZK_Z_OUT || z == AZK_Z_ASIDE || z == AZK_Z_RESOLVING) {
            INV(!seen[c], AZK_INV_SPECIAL_ZONE_ONCE);
            seen[c] = 1;
        }
        INV(seen[c], AZK_INV_CONSERVATION);
    }
    int resolving = 0; /* spells resolve one at a time, inside the one VM frame (RULES §5.4) */
    for (int c = 0; c < AZK_NUM_CARDS; c++)
        if (g->cards[c].zone == AZK_Z_RESOLVING) {
            resolving++;
            /* a game that ended mid-spell keeps the spell where it was */
            /* (the outermost frame: vm_saved[0] under a trigger_ability run, docs/rules.md §16.3) */
            INV(g->result != AZK_RES_ONGOING ||
                    (g->vm.active && (g->vm_depth ? g->vm_saved[0].spell_card : g->vm.spell_card) == c),
                AZK_INV_ONE_RESOLVING);
        }
    INV(resolving <= 1, AZK_INV_ONE_RESOLVING);
    return 0;
}

/* Is pc an instruction of ability ab's program (walking it from its start)? */
static int pc_in_program(const azk_cardset *cs, int ab, uint16_t want) {
    uint16_t pc = cs->abilities[ab].program;
    if (pc == AZK_NO_PC) return 0;
    while (pc < cs->bytecode_len && cs->bytecode[pc] < AZK_NUM_OPCODES) {
        if (pc == want) return 1;
        if (pc > want) break;
        pc = (uint16_t)(pc + 1 + azk_op_operands(cs->bytecode[pc]));
    }
    return 0;
}

/* Effects, the trigger queue, the VM frame, the prompt and the combat context: every index in range. */
static int check_queues(const azk_game *g, const azk_cardset *cs) {
    /* effects, triggers, VM, prompt: every index in range */
    INV(g->fx_n <= AZK_MAX_EFFECTS && g->trig_n <= AZK_MAX_TRIGGERS, AZK_INV_QUEUE_COUNTS);
    for (int i = 0; i < g->fx_n; i++)
        INV(g->fx[i].card < AZK_NUM_CARDS && g->fx[i].kind <= AZK_FX_REMOVE && g->fx[i].duration < AZK_DUR_COUNT &&
                g->fx[i].creator < 2, AZK_INV_EFFECT_RECORD);
    for (int i = 0; i < g->trig_n; i++) {
        const azk_trigger_entry *t = &g->trig[i];
        INV(t->source < AZK_NUM_CARDS && t->ability < cs->num_abilities && t->controller < 2, AZK_INV_TRIGGER_RECORD);
        INV(t->ctx_card == AZK_NONE || t->ctx_card < AZK_NUM_CARDS, AZK_INV_TRIGGER_CONTEXT);
        INV(cs->abilities[t->ability].program != AZK_NO_PC, AZK_INV_TRIGGER_PROGRAM);
        /* only the source's own triggered abilities are queued, under its
         * owner (azk_fire_card); found by fuzz_state: a foreign ability index
         * made the once-per-turn bit shift negative */
        const azk_card_def *sd = &cs->defs[g->cards[t->source].def];
        INV(t->ability >= sd->ability_first && t->ability < sd->ability_first + sd->ability_count &&
                t->ability - sd->ability_first < AZK_MAX_CARD_ABILITIES && cs->abilities[t->ability].kind == AZK_AB_TRIGGERED &&
                t->controller == g->cards[t->source].owner, AZK_INV_TRIGGER_OWN_ABILITY);
    }
    /* the frames trigger_ability suspended (docs/rules.md
     * §16.3): each a running ability, not waiting, without an answer, and
     * checked like the running one below; unused ones are all zero */
    INV(g->vm_depth < AZK_VM_DEPTH && (g->vm_depth == 0 || g->vm.active || g->result != AZK_RES_ONGOING),
        AZK_INV_VM_STACK);
    for (int i = 0; i < AZK_VM_DEPTH - 1; i++) {
        const azk_vm_frame *sf = &g->vm_saved[i];
        if (i >= g->vm_depth) {
            static const azk_vm_frame zero;
            INV(memcmp(sf, &zero, sizeof zero) == 0, AZK_INV_VM_STACK);
            continue;
        }
        INV(sf->active && !sf->waiting && !sf->has_answer && sf->ability < cs->num_abilities &&
                sf->source < AZK_NUM_CARDS && sf->controller < 2 && sf->pc < cs->bytecode_len &&
                sf->each_n <= AZK_MAX_EACH && sf->each_i <= sf->each_n &&
                (sf->ctx_card == AZK_NONE || sf->ctx_card < AZK_NUM_CARDS) &&
                (sf->spell_card == AZK_NONE || sf->spell_card < AZK_NUM_CARDS) &&
                (i == 0 || sf->spell_card == AZK_NONE),
            AZK_INV_VM_STACK);
        for (int j = 0; j < AZK_TREGS; j++) INV(sf->t[j] == AZK_NONE || sf->t[j] < AZK_NUM_CARDS, AZK_INV_VM_STACK);
        for (int j = 0; j < sf->each_n; j++) INV(sf->each[j] < AZK_NUM_CARDS, AZK_INV_VM_STACK);
        /* it resumes after its RUN_ABILITY: an instruction of its own program */
        INV(pc_in_program(cs, sf->ability, sf->pc), AZK_INV_VM_STACK);
    }
    const azk_vm_frame *f = &g->vm;
    if (f->active) {
        INV(f->ability < cs->num_abilities && f->source < AZK_NUM_CARDS && f->controller < 2, AZK_INV_VM_FRAME);
        INV(f->pc < cs->bytecode_len && f->each_n <= AZK_MAX_EACH && f->each_i <= f->each_n, AZK_INV_VM_PC);
        INV(f->ctx_card == AZK_NONE || f->ctx_card < AZK_NUM_CARDS, AZK_INV_VM_CONTEXT);
        INV(f->spell_card == AZK_NONE || f->spell_card < AZK_NUM_CARDS, AZK_INV_VM_SPELL);
        for (int i = 0; i < AZK_TREGS; i++) INV(f->t[i] == AZK_NONE || f->t[i] < AZK_NUM_CARDS, AZK_INV_VM_TREGS);
        for (int i = 0; i < f->each_n; i++) INV(f->each[i] < AZK_NUM_CARDS, AZK_INV_VM_EACH);
        /* the pc must be an instruction of the running ability's program */
        uint16_t pc = cs->abilities[f->ability].program;
        INV(pc != AZK_NO_PC, AZK_INV_VM_ABILITY_PROGRAM);
        int ok = 0;
        while (pc < cs->bytecode_len && cs->bytecode[pc] < AZK_NUM_OPCODES) {
            if (pc == f->pc) { ok = 1; break; }
            if (pc > f->pc) break;
            pc = (uint16_t)(pc + 1 + azk_op_operands(cs->bytecode[pc]));
        }
        INV(ok, AZK_INV_VM_PC_BOUNDARY);
    }
    INV((g->phase == AZK_PHASE_PROMPT) == (f->active && f->waiting), AZK_INV_PROMPT_PHASE);
    if (g->phase == AZK_PHASE_PROMPT) {
        INV(g->prompt.kind < AZK_PK_COUNT && g->prompt.chooser < 2 && g->prompt.n <= AZK_MAX_OPTIONS, AZK_INV_PROMPT_RANGE);
        INV(g->prompt.n + g->prompt.optional >= 2, AZK_INV_PROMPT_CHOICE);
        /* the prompt is one the instruction at pc asks, and every option is in
         * range for its kind (found by fuzz_state: a CARD option of 126 reached
         * the VM's target registers) */
        const azk_prompt *q = &g->prompt;
        uint8_t op = cs->bytecode[f->pc];
        int want_op = q->kind == AZK_PK_CARD ? AZK_OP_CHOOSE
                      : q->kind == AZK_PK_YES_NO ? AZK_OP_MAY
                      : q->kind == AZK_PK_NUMBER ? AZK_OP_CHOOSE_NUM
                      : q->kind == AZK_PK_BOTTOM_ORDER ? AZK_OP_BOTTOM_LOOKED
                      : q->kind == AZK_PK_MODE ? AZK_OP_CHOOSE_MODE
                      : q->kind == AZK_PK_SEARCH ? AZK_OP_SEARCH
                      : q->kind == AZK_PK_TOP_ORDER ? AZK_OP_TOP_LOOKED
                                                      : AZK_OP_PLAY_FREE;
        /* MOVE and PORTAL ask for a slot, ATTACH for a holder */
        if ((q->kind == AZK_PK_SLOT && (op == AZK_OP_MOVE || op == AZK_OP_PORTAL)) ||
            (q->kind == AZK_PK_HOLDER && op == AZK_OP_ATTACH))
            want_op = op;
        INV(op == want_op, AZK_INV_PROMPT_OPCODE);
        INV((q->kind != AZK_PK_CARD && q->kind != AZK_PK_SEARCH) || q->n > 0, AZK_INV_PROMPT_CARD_OPTIONS); /* CHOOSE / SEARCH ask only with options */
        for (int i = 0; i < q->n; i++) {
            int o = q->opt[i], ok = 0;
            switch (q->kind) {
            case AZK_PK_CARD: case AZK_PK_BOTTOM_ORDER: ok = o < AZK_NUM_CARDS; break;
            case AZK_PK_YES_NO: ok = o <= 1; break;
            case AZK_PK_NUMBER: ok = o < AZK_MAX_OPTIONS; break;
            case AZK_PK_SLOT: ok = o < 16 && (o & 7) < AZK_ROW; break;
            case AZK_PK_HOLDER: ok = o <= AZK_ROW; break;
            case AZK_PK_MODE: ok = o < AZK_MAX_MODES; break;
            case AZK_PK_SEARCH: ok = o < AZK_NUM_CARDS; break;
            case AZK_PK_TOP_ORDER: ok = o < AZK_NUM_CARDS; break;
            }
            INV(ok, AZK_INV_PROMPT_OPTION_RANGE);
        }
    }
    /* an answer is consumed in the step that gives it (found by fuzz_state) */
    INV(!f->has_answer || g->result != AZK_RES_ONGOING, AZK_INV_ANSWER_CONSUMED);
    INV(!f->has_answer || (f->answer >= -1 && f->answer < AZK_NUM_CARDS), AZK_INV_ANSWER_RANGE);
    if (g->in_attack) INV(g->attacker < AZK_NUM_CARDS && g->target < AZK_NUM_CARDS, AZK_INV_COMBAT_RANGE);
    return 0;
}

/* The caches outside the hashed bytes: the legal-action set and the derived hints. */
static int check_caches(const azk_game *g, const azk_cardset *cs) {
    /* the cache is exactly a fresh enumeration */
    int32_t buf[AZK_NUM_ACTIONS_];
    int n = azk_enumerate(g, cs, buf, AZK_NUM_ACTIONS_);
    INV(n == g->legal_n, AZK_INV_LEGAL_COUNT);
    uint64_t fresh[AZK_LEGAL_WORDS] = {0};
    for (int i = 0; i < n; i++) fresh[buf[i] >> 6] |= 1ull << (buf[i] & 63);
    INV(memcmp(fresh, g->legal, sizeof fresh) == 0, AZK_INV_LEGAL_SET);
    uint32_t words = 0;
    for (int w = 0; w < AZK_LEGAL_WORDS; w++) words |= (uint32_t)(fresh[w] != 0) << w;
    INV(words == g->legal_words, AZK_INV_LEGAL_WORDS);
    for (int p = 0; p < AZK_PLAYERS; p++) /* the state-check hint is a superset */
        for (int code = 1; code <= 2 * AZK_ROW; code++) {
            int c = azk_row_card(&g->pl[p], code);
            if (c != AZK_NONE && g->cards[c].damage >= azk_min_health(cs, g, c))
                INV(g->at_risk[p] & (1u << code), AZK_INV_AT_RISK_HINT);
        }
    for (int i = 0; i < g->fx_n; i++) /* the effect-records hint is a superset */
        INV(azk_fx_names(g, g->fx[i].card), AZK_INV_FX_HINT);
    for (int p = 0; p < AZK_PLAYERS; p++) /* the untapped-IKZ hint is exact */
        INV(g->ikz_untapped[p] == azk_count_untapped_ikz(g, p) && g->act_src[p] == azk_count_act_src(g, cs, p) &&
                g->occ[p] == azk_count_occ(g, p) && g->listen[p] == azk_count_listen(g, cs, p) &&
                g->aura_src[p] == azk_count_fact_src(g, cs, p, AZK_DF_AURA) &&
                g->cost_src[p] == azk_count_fact_src(g, cs, p, AZK_DF_COST),
            AZK_INV_HINTS_EXACT);
    return 0;
}

/* State checks came before the decision now asked (rules §9, §13.4). */
static int check_decision_state(const azk_game *g, const azk_cardset *cs) {
    /* State checks come before every question (RULES §9, rules §13): no
     * decision is offered while an entity without godmode has damage >= its
     * health or a leader is at 0 or less. Statics read the derived hints,
     * so this runs with the full check only (verified just above;
     * deserialize rebuilds them, then runs the full check). */
    if (g->result == AZK_RES_ONGOING) {
        for (int p = 0; p < AZK_PLAYERS; p++) {
            int l = g->pl[p].leader;
            INV(azk_health_of(g, cs, l) - g->cards[l].damage > 0, AZK_INV_LETHAL_AT_DECISION);
            for (int k = 0; k < 2 * AZK_ROW; k++) {
                int c = k < AZK_ROW ? g->pl[p].garden[k] : g->pl[p].alley[k - AZK_ROW];
                if (c != AZK_NONE) /* events: poison is resolved by the state check before any decision */
                    INV(!(g->cards[c].flags & AZK_CF_POISONED), AZK_INV_LETHAL_AT_DECISION);
                if (c == AZK_NONE || g->cards[c].damage < azk_health_of(g, cs, c)) continue;
                INV(azk_status_of(g, cs, c) & AZK_ST_GODMODE, AZK_INV_LETHAL_AT_DECISION);
            }
        }
    }
    return 0;
}

/* 0 when every invariant of game.h holds, else the code of the first one
 * violated (azk_invariants.def). Also bounds-checks every index, so a state
 * that passes can be played without any out-of-range access. Each part
 * relies on the ones before it having passed. */
int azk_check_state(const azk_game *g, const azk_cardset *cs, int check_legal_cache) {
    int seen[AZK_NUM_CARDS] = {0}, r;
    if ((r = check_game(g, cs)) || (r = check_cards(g, cs)) || (r = check_players(g, cs, seen)) ||
        (r = check_conservation(g, seen)) || (r = check_queues(g, cs)))
        return r;
    /* the caches and the decision-point rule need the derived hints, which
     * deserialize rebuilds only after the checks above passed */
    if (check_legal_cache && ((r = check_caches(g, cs)) || (r = check_decision_state(g, cs)))) return r;
    return 0;
}

/* The full check, caches included (azuki.h). */
int azk_check_invariants(const azk_game *g, const azk_cardset *cs) { return azk_check_state(g, cs, 1); }

/* ---- serialization --------------------------------------------------------- */
size_t azk_serialized_size(void) { return AZK_HEADER_BYTES + AZK_HASHED_BYTES + 8; }

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

size_t azk_serialize(const azk_game *g, const azk_cardset *cs, uint8_t *out, size_t cap) {
    size_t n = azk_serialized_size();
    if (!out || cap < n) return 0;
    memset(out, 0, AZK_HEADER_BYTES);
    put32(out, AZK_STATE_MAGIC);
    uint16_t ver = AZK_STATE_VERSION;
    memcpy(out + 4, &ver, 2);
    put32(out + 8, (uint32_t)AZK_HASHED_BYTES);
    put64(out + 16, azk_cardset_hash(cs));
    memcpy(out + AZK_HEADER_BYTES, g, AZK_HASHED_BYTES);
    put64(out + AZK_HEADER_BYTES + AZK_HASHED_BYTES, azk_hash_bytes(out, AZK_HEADER_BYTES + AZK_HASHED_BYTES));
    return n;
}

azk_status azk_deserialize(azk_game *g, const azk_cardset *cs, const uint8_t *in, size_t len) {
    if (!g || !cs || !in) return AZK_ERR_ARG;
    if (len != azk_serialized_size()) return AZK_ERR_CORRUPT;
    uint32_t magic, size, r2;
    uint16_t ver, r1;
    uint64_t set_hash, sum;
    memcpy(&magic, in, 4);
    memcpy(&ver, in + 4, 2);
    memcpy(&r1, in + 6, 2);
    memcpy(&size, in + 8, 4);
    memcpy(&r2, in + 12, 4);
    memcpy(&set_hash, in + 16, 8);
    memcpy(&sum, in + AZK_HEADER_BYTES + AZK_HASHED_BYTES, 8);
    if (magic != AZK_STATE_MAGIC || ver != AZK_STATE_VERSION || r1 || r2 || size != AZK_HASHED_BYTES)
        return AZK_ERR_CORRUPT;
    if (sum != azk_hash_bytes(in, AZK_HEADER_BYTES + AZK_HASHED_BYTES)) return AZK_ERR_CORRUPT;
    if (set_hash != azk_cardset_hash(cs)) return AZK_ERR_CARDSET;
    azk_game tmp;
    memset(&tmp, 0, sizeof tmp);
    memcpy(&tmp, in + AZK_HEADER_BYTES, AZK_HASHED_BYTES);
    if (azk_check_state(&tmp, cs, 0) != 0) return AZK_ERR_CORRUPT;
    azk_rebuild_hints(&tmp, cs); /* first: enumeration reads them */
    azk_refresh_legal(&tmp, cs);
    if (azk_check_state(&tmp, cs, 1) != 0) return AZK_ERR_CORRUPT; /* with hints: §9 at a decision point */
    memcpy(g, &tmp, sizeof tmp);
    return AZK_OK;
}

/* ---- events ---------------------------------------------------------------- */
#define AZK_EV_NAME_(name) #name,
static const char *const event_names[AZK_EV_COUNT] = {AZK_EVENT_LIST(AZK_EV_NAME_)};
#undef AZK_EV_NAME_
const char *azk_event_name(int type) { return type >= 0 && type < AZK_EV_COUNT ? event_names[type] : NULL; }
int azk_num_event_types(void) { return AZK_EV_COUNT; }

int azk_events(azk_game *g, uint32_t *out, int cap) {
    if (cap <= 0) return 0;
    int k = 0;
    uint32_t unread = g->events_wr - g->events_rd;
    if (unread > AZK_EVENT_CAP) { /* never a silent loss: say how many went, first */
        uint32_t lost = unread - AZK_EVENT_CAP;
        if (out) out[0] = (uint32_t)AZK_EV_EVENTS_DROPPED | (3u << 8) | ((uint32_t)AZK_NONE << 10) |
                          ((lost > 0x1FFF ? 0x1FFFu : lost) << 18);
        g->events_rd = g->events_wr - AZK_EVENT_CAP;
        unread = AZK_EVENT_CAP;
        k = 1;
    }
    int n = (int)unread < cap - k ? (int)unread : cap - k;
    for (int i = 0; i < n; i++, g->events_rd++)
        if (out) out[k + i] = g->events[g->events_rd & (AZK_EVENT_CAP - 1)];
    return k + n;
}

#define AZK_END(name, doc) #name,
static const char *const end_reason_names[AZK_END_COUNT] = {
#include "azk_enums.def"
};
#undef AZK_END
const char *azk_end_reason_name(int r) { return r >= 0 && r < AZK_END_COUNT ? end_reason_names[r] : NULL; }
int azk_num_end_reasons(void) { return AZK_END_COUNT; }
int azk_end_reason(const azk_game *g) { return g->end_reason; }
int azk_decisions(const azk_game *g) { return g->decisions; }

/* ---- render ---------------------------------------------------------------- */
typedef struct sbuf { char *p; int n, cap; } sbuf;
static void sb(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void sb(sbuf *b, const char *fmt, ...) {
    if (b->n >= b->cap - 1) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p + b->n, (size_t)(b->cap - b->n), fmt, ap);
    va_end(ap);
    if (w > 0) b->n = b->n + w < b->cap - 1 ? b->n + w : b->cap - 1;
}

/* Name tables from the one declaration (azk_enums.def): a new entry can
 * never outgrow them. Statuses print lower-case, as the Python API names them. */
#define AZK_PHASE(name, doc) #name,
static const char *const phase_names[AZK_PHASE_COUNT] = {
#include "azk_enums.def"
};
#undef AZK_PHASE
#define AZK_PROMPT(name, doc) #name,
static const char *const prompt_names[AZK_PK_COUNT] = {
#include "azk_enums.def"
};
#undef AZK_PROMPT
#define AZK_RESULT(name, doc) #name,
static const char *const result_names[AZK_RES_COUNT] = {
#include "azk_enums.def"
};
#undef AZK_RESULT
#define AZK_STATUS(name, doc) #name,
static const char *const status_names[AZK_STI_COUNT] = {
#include "azk_enums.def"
};
#undef AZK_STATUS

static void card_str(sbuf *b, const azk_game *g, const azk_cardset *cs, int c) {
    const azk_card_def *d = azk_def(cs, g, c);
    const azk_card *k = &g->cards[c];
    sb(b, "%s %s", d->id, d->name);
    if (d->card_type == AZK_CT_ENTITY || d->card_type == AZK_CT_LEADER)
        sb(b, " [%d/%d", azk_attack_of(g, cs, c), azk_health_of(g, cs, c) - k->damage);
    else if (d->card_type == AZK_CT_WEAPON)
        sb(b, " [+%d", azk_weapon_bonus(g, cs, c));
    else
        sb(b, " [");
    if (k->flags & AZK_CF_TAPPED) sb(b, " tapped");
    if (k->flags & AZK_CF_COOLDOWN) sb(b, " cooldown");
    unsigned st = azk_status_of(g, cs, c);
    for (int i = 0; i < AZK_STI_COUNT; i++)
        if (st & (1u << i)) {
            sb(b, " ");
            for (const char *q = status_names[i]; *q; q++) sb(b, "%c", *q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
        }
    sb(b, "]");
}

/* The text board. Names and numbers are the API's own (docs/python_api.md):
 * players p0/p1, 0-based slots as in location strings (p0.garden[2]), and
 * the phase, prompt-kind, result and end-reason names of azk_enums.def. */
int azk_render(const azk_game *g, const azk_cardset *cs, char *out, int cap) {
    if (!out || cap <= 0) return 0;
    sbuf b = {out, 0, cap};
    out[0] = 0;
    sb(&b, "turn %d  active p%d  phase %s  to act %s%c  decisions %d\n", g->turn, g->active,
       g->phase < AZK_PHASE_COUNT ? phase_names[g->phase] : "?", azk_current_player(g) < 0 ? "-" : "p",
       azk_current_player(g) < 0 ? ' ' : (char)('0' + azk_current_player(g)), g->decisions);
    for (int k = 0; k < AZK_PLAYERS; k++) {
        int p = k == 0 ? 1 - g->active : g->active;
        const azk_player *pl = &g->pl[p];
        sb(&b, "p%d.leader ", p);
        card_str(&b, g, cs, pl->leader);
        sb(&b, "  p%d.gate %s%s\n", p, azk_def(cs, g, pl->gate)->name,
           (g->cards[pl->gate].flags & AZK_CF_TAPPED) ? " (tapped)" : "");
        sb(&b, "   IKZ %d/%d untapped, pile %d  deck %d  hand %d  discard %d\n", azk_count_untapped_ikz(g, p),
           pl->ikz_area_n, pl->ikz_pile_n, pl->deck_n, pl->hand_n, pl->discard_n);
        for (int r = 0; r < 2; r++) {
            for (int s = 0; s < AZK_ROW; s++) {
                int c = r == 0 ? pl->garden[s] : pl->alley[s];
                sb(&b, "   p%d.%s[%d]: ", p, r == 0 ? "garden" : "alley", s);
                if (c == AZK_NONE) { sb(&b, "-\n"); continue; }
                card_str(&b, g, cs, c);
                for (int i = 0; i < pl->weapons_n; i++)
                    if (g->cards[pl->weapons[i]].holder == c) {
                        sb(&b, " + ");
                        card_str(&b, g, cs, pl->weapons[i]);
                    }
                sb(&b, "\n");
            }
        }
        for (int i = 0, n = 0; i < pl->weapons_n; i++)
            if (g->cards[pl->weapons[i]].holder == pl->leader) {
                sb(&b, "   p%d.leader.weapons[%d]: ", p, n++);
                card_str(&b, g, cs, pl->weapons[i]);
                sb(&b, "\n");
            }
        sb(&b, "   hand:");
        for (int i = 0; i < pl->hand_n; i++) sb(&b, " %s", azk_def(cs, g, pl->hand[i])->id);
        sb(&b, "\n");
    }
    if (g->in_attack) {
        sb(&b, "attack: ");
        card_str(&b, g, cs, g->attacker);
        sb(&b, " -> ");
        card_str(&b, g, cs, g->target);
        sb(&b, "\n");
    }
    if (g->phase == AZK_PHASE_PROMPT)
        sb(&b, "prompt %s for p%d, %d options%s\n", g->prompt.kind < AZK_PK_COUNT ? prompt_names[g->prompt.kind] : "?",
           g->prompt.chooser, g->prompt.n, g->prompt.optional ? " (optional)" : "");
    if (g->result != AZK_RES_ONGOING)
        sb(&b, "result %s (%s)\n", g->result < AZK_RES_COUNT ? result_names[g->result] : "?",
           azk_end_reason_name(g->end_reason) ? azk_end_reason_name(g->end_reason) : "?");
    return b.n;
}
