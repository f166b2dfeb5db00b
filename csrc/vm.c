/* vm.c — the effect VM: runs card abilities compiled from JSON (DESIGN §2).
 *
 * Instruction encoding (one program = a contiguous run of instructions):
 *
 *     +--------+---------+---------+-----+
 *     | opcode | operand | operand | ... |    operand count fixed per opcode
 *     +--------+---------+---------+-----+    (azk_opcodes.def, column 2)
 *       u8       u8        u8
 *
 *   Registers: R[0..7] int16 values, T[0..3] card references (card index +
 *   incarnation, so a reference to a card that changed zone is dead, RULES
 *   §2.1). Jump targets are absolute u16 pcs, little endian (lo, hi).
 *
 * The single frame lives in the game struct (g->vm), so clone / hash /
 * serialize work while an ability waits for a player. A choice suspends the
 * VM at the choosing instruction (vm.waiting, a prompt is posted); the answer
 * arrives through CHOOSE/NO_OP and the same instruction re-executes with
 * vm.has_answer set. A choice with no legal answer gives "nothing", one with
 * exactly one mandatory answer is taken without asking (RULES §12).
 *
 * Bounds: AZK_VM_STEP_LIMIT instructions per program (then the program is
 * abandoned and the step reports AZK_ERR_LIMIT); FOREACH loops do not nest.
 * The verifier rejects anything the interpreter would need to check.
 *
 * Layer (csrc/layers.def): above the primitives (zones.c), through which
 * every instruction changes the game, and the pure reads (query.c, which
 * runs the pure instructions: pure.h); below the turn machine, which starts
 * and drives it. Nothing below calls it but the replacement path.
 */
#include <limits.h>

#include "pure.h"


/* Status masks are 16 bits wide wherever they are stored: the keyword set
 * (azk_card_def.keywords), a temporary effect (azk_effect.status) and GRANT's
 * operand (kind STATUS, two bytes): room for 16 keywords + conditions
 * (docs/extending.md, "Status bits"). */
_Static_assert(AZK_KWI_COUNT <= 8 * sizeof(((azk_card_def *)0)->keywords), "keywords fit azk_card_def.keywords");
_Static_assert(AZK_STI_COUNT <= 8 * sizeof(((azk_effect *)0)->status), "statuses fit azk_effect.status");
_Static_assert(AZK_STI_COUNT <= 8 * AZK_OPB_STATUS, "statuses fit GRANT's STATUS operand");


int azk_op_operands(int op) { return op >= 0 && op < AZK_NUM_OPCODES ? OPERANDS[op] : 0; }
int azk_op_props(int op) { return op >= 0 && op < AZK_NUM_OPCODES ? PROPS[op] : 0; }
int azk_op_kind(int op, int i) {
    return op >= 0 && op < AZK_NUM_OPCODES && i >= 0 && i < AZK_OP_MAX_OPERANDS ? KINDS[op][i] : AZK_OPK__;
}
int azk_operand_bytes(int kind) { return kind >= 0 && kind < AZK_OPK_COUNT ? KIND_BYTES[kind] : 0; }



/* ---------------------------------------------------------------------------
 * The interpreter
 * ------------------------------------------------------------------------- */
/* Cards an effect may move between zones: main-deck cards (entities,
 * weapons, spells) that are not resolving. Leaders, gates and IKZ cards never
 * change zone through effects, whatever a card program asks (the verifier
 * cannot know what a selector or reference will name at run time). */
static int movable(const azk_game *g, const azk_cardset *cs, int c) {
    uint8_t t = azk_def(cs, g, c)->card_type, z = g->cards[c].zone;
    return (t == AZK_CT_ENTITY || t == AZK_CT_WEAPON || t == AZK_CT_SPELL) &&
           z != AZK_Z_RESOLVING && z != AZK_Z_OUT && z != AZK_Z_ASIDE;
}

/* Move the top n cards of player p's deck, one at a time, to zone z (the
 * discard pile for a mill, the look zone for a look), each with event ev
 * credited to p; a short deck gives what it has (RULES §9). */
static void deck_top_to(azk_game *g, const azk_cardset *cs, int p, int n, uint8_t z, uint8_t ev) {
    azk_player *pl = &g->pl[p];
    for (int i = 0; i < n && pl->deck_n > 0; i++) {
        int c = pl->deck[pl->deck_n - 1];
        azk_move(g, cs, c, z, 0);
        azk_event(g, ev, p, c, 0);
    }
}

static void clear_frame(azk_vm_frame *f) {
    memset(f, 0, sizeof *f);
    f->source = f->ctx_card = f->spell_card = AZK_NONE;
    memset(f->t, AZK_NONE, sizeof f->t);
}

/* azk_vm_start's body: inlined into azk_vm_start (the turn machine's three
 * calls, which LTO inlines as before the extended language) and into the
 * replacement path, so the exported function keeps its callers. */
AZK_ALWAYS_INLINE static inline void vm_start(azk_game *g, const azk_cardset *cs, int ability, int source,
                                              int controller, int ctx_card, int ctx_value, int spell_card) {
    azk_vm_frame *f = &g->vm;
    clear_frame(f);
    f->active = 1;
    f->ability = (uint8_t)ability;
    f->source = (uint8_t)source;
    f->source_inc = g->cards[source].incarnation;
    f->controller = (uint8_t)controller;
    f->ctx_card = (uint8_t)(ctx_card < 0 ? AZK_NONE : ctx_card);
    f->ctx_inc = ctx_card < 0 ? 0 : g->cards[ctx_card].incarnation;
    f->ctx_value = (int16_t)ctx_value;
    f->spell_card = (uint8_t)(spell_card < 0 ? AZK_NONE : spell_card);
    f->pc = cs->abilities[ability].program;
    azk_event(g, AZK_EV_ABILITY, controller, source, ability);
}
void azk_vm_start(azk_game *g, const azk_cardset *cs, int ability, int source, int controller, int ctx_card,
                  int ctx_value, int spell_card) {
    vm_start(g, cs, ability, source, controller, ctx_card, ctx_value, spell_card);
}

/* The end of an ability. Inlined into both copies of the VM loop (vm_run),
 * as it was into the one before (bench/README.md). */
AZK_ALWAYS_INLINE static inline void finish(azk_game *g, const azk_cardset *cs) {
    azk_vm_frame *f = &g->vm;
    if (g->replacing) { /* a replacement's statements (azk_vm_run_replacement): the outer ability goes on */
        clear_frame(f);
        return;
    }
    azk_player *pl = &g->pl[f->controller];
    while (pl->look_n > 0) { /* never strand looked-at cards: to the bottom, seen by their owner */
        int c = pl->look[0];
        azk_move(g, cs, c, AZK_Z_DECK, 0);
        g->cards[c].seen = (uint8_t)(1u << g->cards[c].owner);
    }
    if (f->spell_card != AZK_NONE && g->cards[f->spell_card].zone == AZK_Z_RESOLVING)
        azk_move(g, cs, f->spell_card, AZK_Z_DISCARD, 0);
    clear_frame(f);
    memset(&g->prompt, 0, sizeof g->prompt);
    azk_state_check(g, cs);
}

/* azk_vm_run for a replacement's statements: a second, out-of-line entry,
 * so that azk_vm_run keeps one caller (the turn machine) and LTO can inline
 * it there as before the extended language (bench/README.md). */
static void vm_run_cold(azk_game *g, const azk_cardset *cs);

/* A replacement's statements (rules §15.5) run at once, in the middle of
 * whatever is happening (a damage step, a state check, another ability's
 * instruction): as a VM of their own, the interrupted VM put back afterwards:
 * its running frame, its prompt and the frames trigger_ability suspended
 * under it (§16.3). The stack is set aside, not shared: the replacement's
 * END must finish the replacement, not resume the interrupted ability's
 * caller (which then lost its frame, and a resolving spell stayed in
 * AZK_Z_RESOLVING: invariant ONE_RESOLVING). The verifier keeps asking
 * instructions out of them, so they never suspend; g->replacing (set by the
 * caller) keeps finish() from touching the interrupted ability's looked-at
 * cards. */
void azk_vm_run_replacement(azk_game *g, const azk_cardset *cs, int ability, int source, int ctx_card,
                            int ctx_value) {
    azk_vm_frame saved = g->vm;
    azk_prompt saved_prompt = g->prompt;
    azk_vm_frame saved_stack[AZK_VM_DEPTH - 1];
    int depth = g->vm_depth;
    memcpy(saved_stack, g->vm_saved, (size_t)depth * sizeof saved_stack[0]);
    memset(g->vm_saved, 0, (size_t)depth * sizeof saved_stack[0]); /* unused frames are zero (VM_STACK) */
    g->vm_depth = 0;
    vm_start(g, cs, ability, source, g->cards[source].owner, ctx_card, ctx_value, -1);
    vm_run_cold(g, cs);
    AZK_ASSERT(!g->vm.waiting && g->vm_depth == 0);
    if (g->result != AZK_RES_ONGOING) return; /* the game ended meanwhile: nothing to resume */
    g->vm = saved;
    g->prompt = saved_prompt;
    memcpy(g->vm_saved, saved_stack, (size_t)depth * sizeof saved_stack[0]);
    g->vm_depth = (uint8_t)depth;
}

/* Suspend on a prompt. More options than a prompt holds is an engine
 * bound, not a silent cut: the game ends TRUNCATED (rules §13). The caller
 * returns either way; azk_advance sees the finished game. */
static void ask(azk_game *g, int kind, int optional, const uint8_t *opts, int n) {
    azk_prompt *p = &g->prompt;
    if (n > AZK_MAX_OPTIONS) {
        azk_event(g, AZK_EV_OPTIONS_TRUNCATED, g->vm.controller, -1, n);
        azk_truncate(g, AZK_END_OPTIONS);
        return;
    }
    memset(p, 0, sizeof *p);
    p->kind = (uint8_t)kind;
    p->chooser = g->vm.controller;
    p->optional = (uint8_t)optional;
    p->n = (uint8_t)n;
    memcpy(p->opt, opts, (size_t)n);
    g->vm.waiting = 1;
    azk_event(g, AZK_EV_PROMPT, g->vm.controller, -1, kind);
}

/* Take the pending answer, if any: 1 and *v set when answered. */
static int take_answer(azk_vm_frame *f, int *v) {
    if (!f->has_answer) return 0;
    f->has_answer = 0;
    *v = f->answer;
    f->answer = 0;
    return 1;
}

static int valid_on_field(const azk_game *g, const pure_ctx *x, int i) {
    return t_valid(g, x, i) && azk_on_field(g, x->t[i]);
}

/* Options for placing card c by PLAY_FREE: entity slot codes (garden s, alley
 * 8+s) or weapon holder codes (0 leader, 1..5 garden). */
static int placement_options(const azk_game *g, const azk_cardset *cs, int c, int where, uint8_t *opts, int *kind) {
    const azk_player *pl = &g->pl[g->cards[c].owner];
    const azk_card_def *d = azk_def(cs, g, c);
    int n = 0;
    if (d->card_type == AZK_CT_WEAPON) {
        *kind = AZK_PK_HOLDER;
        opts[n++] = 0;
        for (int s = 0; s < AZK_ROW; s++)
            if (pl->garden[s] != AZK_NONE) opts[n++] = (uint8_t)(s + 1);
        return n;
    }
    if (d->card_type != AZK_CT_ENTITY) return 0;
    *kind = AZK_PK_SLOT;
    for (int z = 0; z < AZK_PRI_COUNT; z++) {
        if (!(where & (1 << z))) continue;
        const uint8_t *row = z == AZK_PRI_GARDEN ? pl->garden : pl->alley;
        int full = 1;
        for (int s = 0; s < AZK_ROW; s++) full &= row[s] != AZK_NONE;
        for (int s = 0; s < AZK_ROW; s++)
            if (full || row[s] == AZK_NONE) opts[n++] = (uint8_t)(z * 8 + s);
    }
    return n;
}

/* The ability `which` (operand kind TRIG) of card c's definition: its first
 * triggered ability on that trigger, its spell ability (AZK_TRIG_COUNT) or
 * its first activated ability (AZK_TRIG_COUNT + 1); -1 if none has a program. */
static int find_ability(const azk_game *g, const azk_cardset *cs, int c, int code) {
    const azk_card_def *d = azk_def(cs, g, c);
    int which = code & ((1 << AZK_TRIG_NTH_SHIFT) - 1), nth = code >> AZK_TRIG_NTH_SHIFT;
    for (int i = 0; i < d->ability_count; i++) {
        const azk_ability *ab = &cs->abilities[d->ability_first + i];
        if (ab->program == AZK_NO_PC) continue;
        int hit = which < AZK_TRIG_COUNT ? ab->kind == AZK_AB_TRIGGERED && ab->trigger == which
                  : which == AZK_TRIG_COUNT ? ab->kind == AZK_AB_SPELL
                                            : ab->kind == AZK_AB_ACTIVATED;
        if (hit && nth-- == 0) return d->ability_first + i;
    }
    return -1; /* the card has no such ability (or fewer of that kind): nothing (§16.3) */
}
_Static_assert(AZK_TRIG_COUNT + 1 < (1 << AZK_TRIG_NTH_SHIFT) &&
                   (AZK_MAX_CARD_ABILITIES - 1) << AZK_TRIG_NTH_SHIFT <= 0xFF,
               "RUN_ABILITY's TRIG byte holds every kind code and ability index");

/* The context the pure instructions read, for the running frame. */
static pure_ctx frame_ctx(const azk_game *g, azk_vm_frame *f) {
    pure_ctx x = {f->r, f->t, f->t_inc, f->source, f->controller, f->ctx_card, f->ctx_value, f->source_inc};
    if (f->ctx_card != AZK_NONE && g->cards[f->ctx_card].incarnation != f->ctx_inc) x.ctx_card = AZK_NONE;
    return x;
}

/* RUN_ABILITY (docs/rules.md §16.3): suspend the running frame (resuming at
 * `resume`) and run ability `ab` in a fresh one, as the running ability's
 * own: same source (`self`), same controller, no trigger context. The
 * instruction count carries over, so AZK_VM_STEP_LIMIT bounds the whole run.
 * Returns 0 when the stack is full: the game ends TRUNCATED (VM_DEPTH). */
static int push_frame(azk_game *g, const azk_cardset *cs, int ab, uint16_t resume) {
    azk_vm_frame *f = &g->vm;
    if (g->vm_depth + 1 >= AZK_VM_DEPTH) {
        azk_truncate(g, AZK_END_VM_DEPTH);
        return 0;
    }
    f->pc = resume;
    g->vm_saved[g->vm_depth++] = *f;
    uint8_t source = f->source, controller = f->controller;
    uint16_t source_inc = f->source_inc, steps = f->steps;
    clear_frame(f);
    f->active = 1;
    f->ability = (uint8_t)ab;
    f->source = source;
    f->source_inc = source_inc;
    f->controller = controller;
    f->steps = steps;
    f->pc = cs->abilities[ab].program;
    azk_event(g, AZK_EV_ABILITY, controller, source, ab);
    return 1;
}

/* END of a nested frame: the suspended one resumes where it stopped. */
static void pop_frame(azk_game *g) {
    uint16_t steps = g->vm.steps;
    g->vm = g->vm_saved[--g->vm_depth];
    g->vm.steps = steps;
    memset(&g->vm_saved[g->vm_depth], 0, sizeof g->vm_saved[0]);
}

/* Empty slot codes (garden s, alley 8 + s) of player p's rows named by
 * `where` (PLACE: bit AZK_PRI_GARDEN, AZK_PRI_ALLEY): where MOVE may put an entity. */
static int empty_slots(const azk_game *g, int p, int where, uint8_t *opts) {
    const azk_player *pl = &g->pl[p];
    int n = 0;
    for (int z = 0; z < AZK_PRI_COUNT; z++) {
        if (!(where & (1 << z))) continue;
        const uint8_t *row = z == AZK_PRI_GARDEN ? pl->garden : pl->alley;
        for (int s = 0; s < AZK_ROW; s++)
            if (row[s] == AZK_NONE) opts[n++] = (uint8_t)(z * 8 + s);
    }
    return n;
}

static int in_row(const azk_game *g, int c) {
    return g->cards[c].zone == AZK_Z_GARDEN || g->cards[c].zone == AZK_Z_ALLEY;
}

/* Entity c moves to the empty slot `code` of its owner's rows (MOVE, SWAP):
 * within a row it keeps being the same object (no zone change, RULES §2.1);
 * between rows it is a new object, and entering the garden gives cooldown
 * (RULES §5.5). */
static void move_to_slot(azk_game *g, const azk_cardset *cs, int c, int code) {
    int zone = code >= 8 ? AZK_Z_ALLEY : AZK_Z_GARDEN, slot = code & 7;
    azk_card *k = &g->cards[c];
    azk_player *pl = &g->pl[k->owner];
    if (k->zone == zone) {
        uint8_t *row = zone == AZK_Z_GARDEN ? pl->garden : pl->alley;
        row[k->pos] = AZK_NONE;
        row[slot] = (uint8_t)c;
        k->pos = (uint8_t)slot;
        azk_rebuild_hints(g, cs); /* the place-coded hints (occ, act_src, at_risk) moved */
        return;
    }
    azk_place_in_row(g, cs, c, zone, slot);
}

/* SEARCH's options: the controller's deck cards matching selector s (its
 * props; a search selector has no zones, the verifier checks), one per
 * definition (identical copies once, RULES §12.3), in definition order and
 * the lowest card index of each, so the prompt says nothing about where the
 * cards lie (docs/rules.md §17.1). */
static int search_options(const azk_game *g, const azk_cardset *cs, const azk_selector *s, const pure_ctx *x,
                          uint8_t *opts) {
    uint8_t first[AZK_MAX_CARD_DEFS];
    memset(first, AZK_NONE, sizeof first);
    const azk_player *pl = &g->pl[x->controller];
    for (int i = 0; i < pl->deck_n; i++) {
        int c = pl->deck[i], d = g->cards[c].def;
        if (d < AZK_MAX_CARD_DEFS && (first[d] == AZK_NONE || c < first[d]) &&
            sel_props(g, cs, s, x->source, x->r, x->t, c))
            first[d] = (uint8_t)c;
    }
    int n = 0;
    for (int d = 0; d < AZK_MAX_CARD_DEFS; d++)
        if (first[d] != AZK_NONE) opts[n++] = first[d];
    return n;
}

/* The extended language's instructions (docs/rules.md §16, §17), out of
 * azk_vm_run's loop: kept out of line so that the loop over the starter
 * set's instructions stays as small as it was (its speed is a requirement,
 * bench/README.md). Returns VX_NEXT (go on at `next`), VX_SUSPEND (azk_vm_run
 * returns: a question was asked or the game ended) or VX_FRAME (RUN_ABILITY
 * started a nested frame: re-read the context). */
enum { VX_NEXT = 0, VX_SUSPEND = 1, VX_FRAME = 2 };
static __attribute__((noinline)) int vm_ext(azk_game *g, const azk_cardset *cs, pure_ctx *xp, int op,
                                            const uint8_t *a, uint16_t next, uint8_t *opts) {
    azk_vm_frame *f = &g->vm;
    int v;
    switch (op) {
    case AZK_OP_RANDOM: { /* the game's own rng: clones and replays draw the same (§16.8) */
        int lo = f->r[a[0]], hi = f->r[a[1]];
        if (hi > lo) f->r[a[0]] = (int16_t)(lo + (int)azk_rng_bounded(&g->rng, (uint32_t)(hi - lo + 1)));
        break;
    }
    case AZK_OP_CHOOSE_MODE: { /* §16.2 */
        if (take_answer(f, &v)) { f->r[a[0]] = (int16_t)v; break; }
        int n = 0;
        for (int i = 0; i < a[2]; i++)
            if (f->r[a[1]] & (1 << i)) opts[n++] = (uint8_t)i;
        if (n <= 1) { f->r[a[0]] = (int16_t)(n ? opts[0] : -1); break; }
        ask(g, AZK_PK_MODE, 0, opts, n);
        return VX_SUSPEND;
    }
    case AZK_OP_HEAL: /* §16.4: damage never goes below 0 */
        if (valid_on_field(g, xp, a[0]) && f->r[a[1]] > 0) {
            azk_card *k = &g->cards[f->t[a[0]]];
            k->damage = (int16_t)(f->r[a[1]] >= k->damage ? 0 : k->damage - f->r[a[1]]);
        }
        break;
    case AZK_OP_UNTAP:
        if (valid_on_field(g, xp, a[0])) azk_set_tapped(g, f->t[a[0]], 0);
        break;
    case AZK_OP_COOLDOWN:
        if (valid_on_field(g, xp, a[0])) {
            azk_card *k = &g->cards[f->t[a[0]]];
            if (!a[1]) k->flags &= (uint8_t)~AZK_CF_COOLDOWN;
            else if (k->zone == AZK_Z_GARDEN) k->flags |= AZK_CF_COOLDOWN; /* cooldown means only there */
        }
        break;
    case AZK_OP_REMOVE_STATUS: /* §16.4: a masking effect; shocked, a one-shot mark, goes at once */
        if (valid_on_field(g, xp, a[0])) {
            unsigned bits = U16(a[1], a[2]);
            if (bits & AZK_ST_SHOCKED) g->cards[f->t[a[0]]].flags &= (uint8_t)~AZK_CF_SHOCKED;
            azk_add_effect(g, f->t[a[0]], AZK_FX_REMOVE, a[3], f->controller, 0, bits);
        }
        break;
    case AZK_OP_SWAP: { /* §16.5 */
        if (!t_valid(g, xp, a[0]) || !t_valid(g, xp, a[1])) break;
        int c1 = f->t[a[0]], c2 = f->t[a[1]];
        if (c1 == c2 || !in_row(g, c1) || !in_row(g, c2) || g->cards[c1].owner != g->cards[c2].owner) break;
        int code1 = (g->cards[c1].zone == AZK_Z_ALLEY ? 8 : 0) + g->cards[c1].pos;
        int code2 = (g->cards[c2].zone == AZK_Z_ALLEY ? 8 : 0) + g->cards[c2].pos;
        if (g->cards[c1].zone == g->cards[c2].zone) { /* same row: two places change, no object does */
            azk_player *op_ = &g->pl[g->cards[c1].owner];
            uint8_t *row = g->cards[c1].zone == AZK_Z_GARDEN ? op_->garden : op_->alley;
            row[code1 & 7] = (uint8_t)c2;
            row[code2 & 7] = (uint8_t)c1;
            g->cards[c1].pos = (uint8_t)(code2 & 7);
            g->cards[c2].pos = (uint8_t)(code1 & 7);
            azk_rebuild_hints(g, cs);
            break;
        }
        azk_move(g, cs, c1, AZK_Z_ASIDE, 0); /* out of the way while c2 takes its place */
        move_to_slot(g, cs, c2, code1);
        move_to_slot(g, cs, c1, code2);
        break;
    }
    case AZK_OP_MOVE: { /* §16.5: to an empty slot */
        if (!t_valid(g, xp, a[0]) || !in_row(g, f->t[a[0]])) break;
        int c = f->t[a[0]];
        int n = empty_slots(g, g->cards[c].owner, a[1], opts);
        if (take_answer(f, &v)) {
            for (int i = 0; i < n; i++)
                if (opts[i] == v) move_to_slot(g, cs, c, v);
            break;
        }
        if (n == 0) break;
        if (n == 1) { move_to_slot(g, cs, c, opts[0]); break; }
        ask(g, AZK_PK_SLOT, 0, opts, n);
        return VX_SUSPEND;
    }
    case AZK_OP_PORTAL: { /* §16.6: the gate's portal, without tapping the gate */
        if (!t_valid(g, xp, a[0])) break;
        int c = f->t[a[0]], kind = 0;
        const azk_card *k = &g->cards[c];
        if (k->zone != AZK_Z_ALLEY || k->owner != f->controller || (k->flags & AZK_CF_TAPPED)) break;
        int n = placement_options(g, cs, c, 1, opts, &kind);
        if (take_answer(f, &v)) {
            for (int i = 0; i < n; i++)
                if (opts[i] == v) azk_portal(g, cs, c, v, 0);
            break;
        }
        if (n == 0) break;
        if (n == 1) { azk_portal(g, cs, c, opts[0], 0); break; }
        ask(g, AZK_PK_SLOT, 0, opts, n);
        return VX_SUSPEND;
    }
    case AZK_OP_ATTACH: { /* §16.7: not a play */
        if (!t_valid(g, xp, a[0]) || !movable(g, cs, f->t[a[0]])) break;
        int c = f->t[a[0]], kind = 0;
        if (azk_def(cs, g, c)->card_type != AZK_CT_WEAPON) break;
        int n = placement_options(g, cs, c, 3, opts, &kind);
        if (take_answer(f, &v)) {
            for (int i = 0; i < n; i++)
                if (opts[i] == v) azk_attach_weapon(g, cs, c, v);
            break;
        }
        if (n == 1) { azk_attach_weapon(g, cs, c, opts[0]); break; }
        ask(g, AZK_PK_HOLDER, 0, opts, n);
        return VX_SUSPEND;
    }
    case AZK_OP_RUN_ABILITY: { /* §16.3 */
        if (!t_valid(g, xp, a[0])) break; /* the card changed zone since it was named: nothing */
        int ab = find_ability(g, cs, f->t[a[0]], a[1]);
        if (ab < 0) break;
        return push_frame(g, cs, ab, next) ? VX_FRAME : VX_SUSPEND;
    }
    case AZK_OP_SEARCH: {
        if (take_answer(f, &v)) {
            /* the answer is an option: a card of the controller's deck */
            int c = v >= 0 && v < AZK_NUM_CARDS && g->cards[v].zone == AZK_Z_DECK &&
                            g->cards[v].owner == f->controller ? v : -1;
            set_t(g, xp, a[0], c);
            if (c >= 0) g->cards[c].seen = 3u; /* found cards are revealed (docs/rules.md §17.1) */
            azk_event(g, AZK_EV_SEARCHED, f->controller, c, c >= 0);
            break;
        }
        int n = search_options(g, cs, &cs->selectors[a[1]], xp, opts);
        if (n == 0) { /* nothing matches: nothing found, no question (RULES §12) */
            set_t(g, xp, a[0], -1);
            azk_event(g, AZK_EV_SEARCHED, f->controller, -1, 0);
            break;
        }
        ask(g, AZK_PK_SEARCH, 1, opts, n); /* always optional: fail to find (X-DECK-1) */
        return VX_SUSPEND;
    }
    case AZK_OP_SHUFFLE: {
        int p = a[0] ? 1 - f->controller : f->controller;
        azk_shuffle_deck(g, p);
        azk_event(g, AZK_EV_SHUFFLED, p, -1, 0);
        break;
    }
    case AZK_OP_PUT_ON_DECK:
        if (t_valid(g, xp, a[0]) && movable(g, cs, f->t[a[0]]) && g->cards[f->t[a[0]]].zone != AZK_Z_DECK) {
            int c = f->t[a[0]];
            /* godmode: an effect does not move it off the field (RULES §7), as return_to_hand */
            if (azk_on_field(g, c) && (azk_status_of(g, cs, c) & AZK_ST_GODMODE)) break;
            azk_put_on_deck(g, cs, c, a[1]);
        }
        break;
    default: AZK_UNREACHABLE(); break; /* azk_vm_run sends only the opcodes above */
    }
    return VX_NEXT;
}

AZK_ALWAYS_INLINE static inline void vm_run(azk_game *g, const azk_cardset *cs) {
    azk_vm_frame *f = &g->vm;
    const uint8_t *bc = cs->bytecode;
    pure_ctx x = frame_ctx(g, f);
    uint8_t opts[AZK_NUM_CARDS];
    while (f->active && !f->waiting) {
        if (g->result != AZK_RES_ONGOING) return;
        if (++f->steps > AZK_VM_STEP_LIMIT) { /* a bound: the game ends here (rules §13) */
            azk_truncate(g, AZK_END_VM_STEPS);
            return;
        }
        uint16_t pc = f->pc;
        uint8_t op = bc[pc];
        const uint8_t *a = &bc[pc + 1];
        uint16_t next = (uint16_t)(pc + 1 + OPERANDS[op]);
        azk_player *pl = &g->pl[f->controller];
        int v;
        if (op == AZK_OP_END) {
            if (g->vm_depth == 0) {
                finish(g, cs);
                return;
            }
            pop_frame(g); /* a trigger_ability run ended: back to its caller (§16.3) */
            x = frame_ctx(g, f);
            continue;
        }
        /* a win / lose statement ended the game before any question (rules §15.6) */
        if (g->pending_end && (PROPS[op] & AZK_OPP_ASK)) {
            azk_state_check(g, cs);
            if (g->result != AZK_RES_ONGOING) return;
        }
        switch ((enum azk_opcode)op) { /* every opcode has a case: no default (-Wswitch) */
#define AZK_OP(name, ops, props, doc) AZK_PURE_CASE_##props(name)
#include "azk_opcodes.def"
#undef AZK_OP
            f->pc = azk_exec_pure(g, cs, &x, pc);
            continue;
        case AZK_OP_CHOOSE: {
            if (take_answer(f, &v)) {
                set_t(g, &x, a[0], v < 0 ? -1 : v);
                break;
            }
            int n = azk_choose_candidates(g, cs, &cs->selectors[a[1]], f->controller, f->source, f->r, f->t, opts);
            if (n == 0) { set_t(g, &x, a[0], -1); break; }
            if (n == 1 && !a[2]) { set_t(g, &x, a[0], opts[0]); break; }
            ask(g, AZK_PK_CARD, a[2], opts, n);
            return;
        }
        case AZK_OP_MAY:
            if (take_answer(f, &v)) { f->r[a[0]] = (int16_t)(v > 0); break; }
            opts[0] = 0;
            opts[1] = 1;
            ask(g, AZK_PK_YES_NO, 0, opts, 2);
            return;
        case AZK_OP_CHOOSE_NUM: {
            if (take_answer(f, &v)) { f->r[a[0]] = (int16_t)(v < 0 ? 0 : v); break; }
            int max = f->r[a[1]];
            if (max <= 0) { f->r[a[0]] = 0; break; }
            if (max > AZK_MAX_OPTIONS - 1) { /* 0..max does not fit one prompt */
                azk_truncate(g, AZK_END_OPTIONS);
                return;
            }
            for (int i = 0; i <= max; i++) opts[i] = (uint8_t)i;
            ask(g, AZK_PK_NUMBER, 0, opts, max + 1);
            return;
        }
        case AZK_OP_DAMAGE:
            if (valid_on_field(g, &x, a[0])) azk_deal_damage_from(g, cs, f->t[a[0]], f->r[a[1]], 1, f->source);
            break;
        case AZK_OP_MOD_ATTACK:
            if (valid_on_field(g, &x, a[0]))
                azk_add_effect(g, f->t[a[0]], AZK_FX_ATTACK, a[2], f->controller, (int8_t)a[1], 0);
            break;
        case AZK_OP_GRANT:
            if (valid_on_field(g, &x, a[0])) azk_add_effect(g, f->t[a[0]], AZK_FX_STATUS, a[3], f->controller, 0, U16(a[1], a[2]));
            break;
        case AZK_OP_DRAW: azk_draw(g, cs, f->controller, f->r[a[0]]); break;
        case AZK_OP_MILL: deck_top_to(g, cs, f->controller, f->r[a[0]], AZK_Z_DISCARD, AZK_EV_MILLED); break;
        case AZK_OP_DISCARD:
        case AZK_OP_SACRIFICE:
            if (t_valid(g, &x, a[0]) && movable(g, cs, f->t[a[0]])) {
                int c = f->t[a[0]];
                /* godmode: effects that would move it off the field do
                 * nothing; a sacrifice is a cost and still moves it (RULES §7) */
                if (op == AZK_OP_DISCARD && azk_on_field(g, c) && (azk_status_of(g, cs, c) & AZK_ST_GODMODE)) break;
                int from_hand = g->cards[c].zone == AZK_Z_HAND;
                azk_move(g, cs, c, AZK_Z_DISCARD, 0);
                azk_event(g, AZK_EV_DISCARDED, g->cards[c].owner, c, op == AZK_OP_SACRIFICE);
                /* rules §15.2: "when this is discarded" (from hand), from the discard pile */
                if (from_hand) azk_fire_card(g, cs, c, AZK_TRIG_ON_DISCARDED, c, 0);
            }
            break;
        case AZK_OP_DESTROY:
            if (valid_on_field(g, &x, a[0])) azk_destroy(g, cs, f->t[a[0]]);
            break;
        case AZK_OP_WIN:
            g->pending_end |= (uint8_t)(1u << f->controller);
            g->at_risk[0] |= AZK_RISK_END;
            break;
        case AZK_OP_LOSE:
            g->pending_end |= (uint8_t)(1u << (2 + f->controller));
            g->at_risk[0] |= AZK_RISK_END;
            break;
        case AZK_OP_RETURN:
        case AZK_OP_RETURN_COST:
            if (t_valid(g, &x, a[0])) {
                int c = f->t[a[0]];
                uint8_t z = g->cards[c].zone;
                if ((z == AZK_Z_GARDEN || z == AZK_Z_ALLEY) &&
                    (op == AZK_OP_RETURN_COST || !(azk_status_of(g, cs, c) & AZK_ST_GODMODE)))
                    azk_return_to_hand(g, cs, c);
            }
            break;
        case AZK_OP_LOOK:
            /* a short deck gives what it has (RULES §9); more than the look
             * zone holds is an engine bound (rules §13) */
            if (pl->look_n + (f->r[a[0]] < pl->deck_n ? f->r[a[0]] : pl->deck_n) > AZK_LOOK_CAP) {
                azk_truncate(g, AZK_END_LOOK);
                return;
            }
            deck_top_to(g, cs, f->controller, f->r[a[0]], AZK_Z_LOOK, AZK_EV_LOOKED);
            break;
        case AZK_OP_TO_HAND:
            if (t_valid(g, &x, a[0]) && movable(g, cs, f->t[a[0]]) && !azk_on_field(g, f->t[a[0]])) {
                int c = f->t[a[0]];
                azk_move(g, cs, c, AZK_Z_HAND, 0);
                g->cards[c].flags |= AZK_CF_REVEALED; /* "reveal ... and add it to your hand" */
                set_t(g, &x, a[0], c); /* keep naming the card in hand (Mizuki plays it next) */
                azk_event(g, AZK_EV_TO_HAND, g->cards[c].owner, c, 0);
            }
            break;
        case AZK_OP_BOTTOM_LOOKED:
        case AZK_OP_TOP_LOOKED: { /* TOP_LOOKED is the same walk onto the top */
            int top = op == AZK_OP_TOP_LOOKED;
            if (take_answer(f, &v) && v >= 0 && v < AZK_NUM_CARDS && g->cards[v].zone == AZK_Z_LOOK) {
                azk_move(g, cs, v, AZK_Z_DECK, top);
                g->cards[v].seen = (uint8_t)(1u << g->cards[v].owner); /* its owner chose this place */
            }
            int asked = 0;
            while (pl->look_n > 0) {
                int n = 0;
                uint64_t seen = 0;
                for (int i = 0; i < pl->look_n; i++) {
                    uint64_t bit = 1ull << (g->cards[pl->look[i]].def & 63);
                    if (!(seen & bit)) opts[n++] = pl->look[i];
                    seen |= bit;
                }
                if (n == 1) {
                    int c = pl->look[0];
                    azk_move(g, cs, c, AZK_Z_DECK, top);
                    g->cards[c].seen = (uint8_t)(1u << g->cards[c].owner);
                    continue;
                }
                ask(g, top ? AZK_PK_TOP_ORDER : AZK_PK_BOTTOM_ORDER, 0, opts, n);
                asked = 1;
                break;
            }
            if (asked) return;
            break;
        }
        case AZK_OP_PLAY_FREE: {
            if (!t_valid(g, &x, a[0]) || !movable(g, cs, f->t[a[0]]) || azk_on_field(g, f->t[a[0]])) break;
            int c = f->t[a[0]], kind = 0;
            if (take_answer(f, &v)) {
                const azk_card_def *d = azk_def(cs, g, c);
                /* an answer naming an empty garden slot only comes from a
                 * hand-built state; the checker cannot see the row at ask time */
                if (d->card_type == AZK_CT_WEAPON) {
                    if (azk_holder_code_card(g, g->cards[c].owner, v) != AZK_NONE) azk_play_card(g, cs, c, 0, v);
                }
                else if (d->card_type == AZK_CT_ENTITY) /* only entities and weapons have places (placement_options) */
                    azk_play_card(g, cs, c, v >= 8 ? AZK_Z_ALLEY : AZK_Z_GARDEN, v & 7);
                break;
            }
            int n = placement_options(g, cs, c, a[1], opts, &kind);
            if (n == 0) break;
            if (n == 1) {
                f->has_answer = 1;
                f->answer = opts[0];
                continue; /* re-run this instruction with the only answer */
            }
            ask(g, kind, 0, opts, n);
            return;
        }
        case AZK_OP_UNTAP_IKZ: {
            int left = f->r[a[0]];
            for (int i = 0; i < pl->ikz_area_n && left > 0; i++) {
                if (g->cards[pl->ikz_area[i]].flags & AZK_CF_TAPPED) {
                    azk_set_tapped(g, pl->ikz_area[i], 0);
                    left--;
                    azk_event(g, AZK_EV_UNTAPPED_IKZ, f->controller, pl->ikz_area[i], 0);
                }
            }
            break;
        }
        case AZK_OP_TAP:
            if (valid_on_field(g, &x, a[0])) azk_set_tapped(g, f->t[a[0]], 1);
            break;
        case AZK_OP_FOREACH: {
            int n = azk_sel_collect(g, cs, &cs->selectors[a[1]], f->controller, f->source, f->r, f->t, f->each,
                            AZK_MAX_EACH, 0);
            if (n > AZK_MAX_EACH) { /* the snapshot would drop cards: a bound (rules §13) */
                azk_truncate(g, AZK_END_EACH);
                return;
            }
            f->each_n = (uint8_t)n;
            f->each_i = 0;
            for (int i = 0; i < f->each_n; i++) f->each_inc[i] = g->cards[f->each[i]].incarnation;
            if (f->each_n == 0) { f->pc = U16(a[2], a[3]); continue; }
            set_t(g, &x, a[0], f->each[0]);
            break;
        }
        case AZK_OP_NEXT: {
            int found = -1; /* skip snapshot cards that changed zone meanwhile (RULES 2.1) */
            while (++f->each_i < f->each_n) {
                int c = f->each[f->each_i];
                if (g->cards[c].incarnation == f->each_inc[f->each_i]) {
                    found = c;
                    break;
                }
            }
            if (found >= 0) {
                set_t(g, &x, a[0], found);
                f->pc = U16(a[1], a[2]);
                continue;
            }
            memset(f->each, 0, sizeof f->each);
            memset(f->each_inc, 0, sizeof f->each_inc);
            f->each_n = f->each_i = 0;
            break;
        }
        /* the extended language (the rarer effect and deck ops): out of line */
        case AZK_OP_RANDOM:
        case AZK_OP_CHOOSE_MODE:
        case AZK_OP_HEAL:
        case AZK_OP_UNTAP:
        case AZK_OP_COOLDOWN:
        case AZK_OP_REMOVE_STATUS:
        case AZK_OP_SWAP:
        case AZK_OP_MOVE:
        case AZK_OP_PORTAL:
        case AZK_OP_ATTACH:
        case AZK_OP_RUN_ABILITY:
        case AZK_OP_SEARCH:
        case AZK_OP_SHUFFLE:
        case AZK_OP_PUT_ON_DECK:
        {
            int r = vm_ext(g, cs, &x, op, a, next, opts);
            if (r == VX_SUSPEND) return;
            if (r == VX_FRAME) {
                x = frame_ctx(g, f);
                continue;
            }
            break;
        }
#ifdef AZK_TEST_EXTENSIONS
        /* Test builds only (tests/test_extending.py appends TESTKW and TESTOP
         * to the .def files): the recipe of docs/extending.md, end to end. */
        case AZK_OP_TESTOP:
            if (valid_on_field(g, &x, a[0])) azk_add_effect(g, f->t[a[0]], AZK_FX_STATUS, a[1], f->controller, 0, AZK_ST_TESTKW);
            break;
#endif
        case AZK_NUM_OPCODES: /* not an opcode: the verifier rejects it */
            AZK_UNREACHABLE();
            break;
        }
        f->pc = next;
        /* State checks (RULES §9) after every effect step that changes the
         * game, so a prompt is never asked over an unchecked state (rules
         * §13.4): after the ops declared FIELD. Pure ops, answered choices
         * (they set registers), attack changes (EFFECT) and loop bookkeeping
         * (LOOP) change no damage, health or field. */
        if (PROPS[op] & AZK_OPP_FIELD) azk_state_check(g, cs);
    }
}

void azk_vm_run(azk_game *g, const azk_cardset *cs) { vm_run(g, cs); }
static __attribute__((noinline)) void vm_run_cold(azk_game *g, const azk_cardset *cs) { vm_run(g, cs); }

/* ---------------------------------------------------------------------------
 * Verifier: every check the interpreter relies on (DESIGN §2).
 * ------------------------------------------------------------------------- */
/* One operand of kind `kind` at `a`: the checks of azk_opcodes.def's
 * AZK_OPERAND lines. The switch names every kind and has no default, so a
 * kind added without its check does not compile (-Wswitch); an unknown kind
 * fails. Jump targets (OFF) are checked by the verifier's jump pass. */
static int kind_ok(const azk_cardset *cs, uint8_t kind, const uint8_t *a) {
    switch ((enum azk_operand_kind)kind) {
    case AZK_OPK__: return 1;
    case AZK_OPK_R: return a[0] < AZK_REGS;
    case AZK_OPK_T: return a[0] < AZK_TREGS;
    case AZK_OPK_SEL: return a[0] < cs->num_selectors;
    case AZK_OPK_REF: return a[0] < AZK_REF_COUNT;
    case AZK_OPK_CTXV: return a[0] < AZK_CTXV_COUNT;
    case AZK_OPK_DUR: return a[0] < AZK_DUR_COUNT;
    case AZK_OPK_STATUS: { /* u16: non-empty, no unknown bit */
        unsigned v = U16(a[0], a[1]);
        return v != 0 && (v >> AZK_STI_COUNT) == 0;
    }
    case AZK_OPK_I8: return 1;
    case AZK_OPK_FLAG: return a[0] <= 1;
    case AZK_OPK_PLACE: return a[0] >= 1 && a[0] <= AZK_PLACE_ANY;
    case AZK_OPK_OFF: return 1;
    case AZK_OPK_TRIG: return (a[0] & ((1 << AZK_TRIG_NTH_SHIFT) - 1)) <= AZK_TRIG_COUNT + 1 &&
                              (a[0] >> AZK_TRIG_NTH_SHIFT) < AZK_MAX_CARD_ABILITIES;
    case AZK_OPK_STAT: return a[0] < AZK_STAT_COUNT;
    case AZK_OPK_NMODES: return a[0] >= 1 && a[0] <= AZK_MAX_MODES;
    case AZK_OPK_COUNT: break;
    }
    return 0;
}

/* Every operand of `op` by its declared kind; *target = its jump target
 * (an OFF operand) or -1. */
static int operand_ok(const azk_cardset *cs, uint8_t op, const uint8_t *a, int *target) {
    *target = -1;
    for (int i = 0; i < AZK_OP_MAX_OPERANDS; i++) {
        uint8_t k = KINDS[op][i];
        if (!kind_ok(cs, k, a)) return 0;
        if (k == AZK_OPK_OFF) *target = U16(a[0], a[1]);
        a += KIND_BYTES[k];
    }
    return 1;
}

/* The statuses GRANT instructions of the verified program at `pc` can give
 * (the set-wide facts, cardset.c): walked as the verifier walks it. */
unsigned azk_program_grants(const azk_cardset *cs, uint16_t pc) {
    unsigned st = 0;
    int max_target = pc;
    for (;;) {
        uint8_t op = cs->bytecode[pc];
        const uint8_t *a = &cs->bytecode[pc + 1];
        if (op == AZK_OP_GRANT) st |= U16(a[1], a[2]);
        int target;
        operand_ok(cs, op, a, &target);
        if (target > max_target) max_target = target;
        int npc = pc + 1 + OPERANDS[op];
        if (op == AZK_OP_END && npc > max_target) return st;
        pc = (uint16_t)npc;
    }
}

/* Verify the program at `pc`: known opcodes, operands in range, jumps onto
 * instruction boundaries inside the program, FOREACH/NEXT properly paired and
 * not nested, terminated by END, and (if `pure`) only pure opcodes with
 * forward jumps (so conditions always terminate). Returns 0 when valid. */
int azk_verify_program(const azk_cardset *cs, uint16_t pc, int pure) {
    static const int MAXLEN = AZK_MAX_BYTECODE;
    uint8_t boundary[AZK_MAX_BYTECODE / 8 + 1];
    uint16_t jumps[256];
    int njumps = 0, depth = 0, max_target = pc;
    memset(boundary, 0, sizeof boundary);
    if (pc >= cs->bytecode_len || cs->bytecode_len > MAXLEN) return -1;
    int start = pc;
    for (;;) {
        if (pc >= cs->bytecode_len) return -2; /* unterminated */
        uint8_t op = cs->bytecode[pc];
        if (op >= AZK_NUM_OPCODES) return -3;
        if ((pure == AZK_VERIFY_CONDITION || pure == AZK_VERIFY_STATIC) && !PURE_OP(op)) return -4;
        if (pure == AZK_VERIFY_NO_ASK && (PROPS[op] & AZK_OPP_ASK)) return -4; /* replacement statements never ask (§15.5) */
        if (pc + 1 + OPERANDS[op] > cs->bytecode_len) return -2;
        const uint8_t *a = &cs->bytecode[pc + 1];
        /* a static's condition runs inside azk_attack_of / azk_health_of
         * (statics and auras): reading attack or health there would recurse
         * without end, so such a program is not a card set (the compiler
         * says so with the JSON path) */
        if (pure == AZK_VERIFY_STATIC && op == AZK_OP_STAT &&
            (a[2] == AZK_STAT_ATTACK || a[2] == AZK_STAT_HEALTH || a[2] == AZK_STAT_REMAINING))
            return -10;
        int target;
        if (!operand_ok(cs, op, a, &target)) return -5;
        boundary[pc >> 3] |= (uint8_t)(1u << (pc & 7));
        if (op == AZK_OP_FOREACH && ++depth > 1) return -6;
        /* a search reads its selector's props on the deck only:
         * a selector with zones would mean something SEARCH does not do */
        if (op == AZK_OP_SEARCH && cs->selectors[a[1]].zones != 0) return -10;
        if (op == AZK_OP_NEXT && --depth < 0) return -6;
        if (op == AZK_OP_JTAB && target >= 0) { /* b JMPs at off: each entry is a jump too */
            for (int i = 0; i < a[1]; i++) {
                int e = target + 3 * i;
                if (e < start || e + 2 >= cs->bytecode_len || cs->bytecode[e] != AZK_OP_JMP) return -7;
                if (i > 0) {
                    if (njumps >= 256) return -9;
                    jumps[njumps++] = (uint16_t)e;
                    if (e > max_target) max_target = e;
                }
            }
        }
        if (target >= 0) {
            if (target < start || target >= cs->bytecode_len) return -7;
            if ((pure == AZK_VERIFY_CONDITION || pure == AZK_VERIFY_STATIC) && target <= pc) return -8;
            if (njumps >= 256) return -9;
            jumps[njumps++] = (uint16_t)target;
            if (target > max_target) max_target = target;
        }
        int npc = pc + 1 + OPERANDS[op];
        if (op == AZK_OP_END && npc > max_target) break;
        pc = npc;
    }
    if (depth != 0) return -6;
    for (int i = 0; i < njumps; i++)
        if (!(boundary[jumps[i] >> 3] & (1u << (jumps[i] & 7)))) return -7;
    return 0;
}
