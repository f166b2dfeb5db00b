/* pure.h — the pure subset of the bytecode, shared by query.c (selectors and
 * condition programs, read by stats, auras and legality) and vm.c (the
 * interpreter, which runs the same pure instructions inside abilities).
 *
 * Declared here once: the opcode tables built from azk_opcodes.def, the
 * exhaustive case-label macros, the operand enums of the pure ops, the
 * registers' context (pure_ctx) and the small selector test inlined into
 * both files' loops. Internal to the core: only query.c and vm.c include it.
 * The static const tables are tiny; each of the two objects has its copy.
 */
#ifndef AZK_PURE_H
#define AZK_PURE_H

#include "game.h"

#include "azk_ops.h"

/* The opcode tables, generated from azk_opcodes.def (operand kinds and bytes,
 * properties). An AZK_OP line without an operand list, with an unknown kind
 * or property, or with too many operands does not compile. */
#define AZK_OP(name, ops, props, doc) AZK_OP_CHECK(name, ops)
#include "azk_opcodes.def"
#undef AZK_OP
#define AZK_OP(name, ops, props, doc) AZK_OP_BYTES ops,
static const uint8_t OPERANDS[AZK_NUM_OPCODES] = {
#include "azk_opcodes.def"
};
#undef AZK_OP
#define AZK_OP(name, ops, props, doc) AZK_OPP_##props,
static const uint8_t PROPS[AZK_NUM_OPCODES] = {
#include "azk_opcodes.def"
};
#undef AZK_OP
#define AZK_OP(name, ops, props, doc) AZK_OP_KINDS ops,
static const uint8_t KINDS[AZK_NUM_OPCODES][AZK_OP_MAX_OPERANDS] = {
#include "azk_opcodes.def"
};
#undef AZK_OP
#define AZK_OPERAND(kind, bytes, doc) bytes,
static const uint8_t KIND_BYTES[AZK_OPK_COUNT] = {
#include "azk_opcodes.def"
};
#undef AZK_OPERAND
#define PURE_OP(op) (PROPS[op] & AZK_OPP_PURE)

/* Case labels of every opcode with (or without) the PURE property, for the
 * exhaustive switches below: each switch names every opcode, so an opcode
 * added to the .def without its case is a compile error (-Wswitch, no
 * default label), not a silent no-op. */
#define AZK_PURE_CASE_PURE(name) case AZK_OP_##name:
#define AZK_PURE_CASE_ASK(name)
#define AZK_PURE_CASE_FIELD(name)
#define AZK_PURE_CASE_ASK_FIELD(name)
#define AZK_PURE_CASE_EFFECT(name)
#define AZK_PURE_CASE_LOOP(name)
#define AZK_IMPURE_CASE_PURE(name)
#define AZK_IMPURE_CASE_ASK(name) case AZK_OP_##name:
#define AZK_IMPURE_CASE_FIELD(name) case AZK_OP_##name:
#define AZK_IMPURE_CASE_ASK_FIELD(name) case AZK_OP_##name:
#define AZK_IMPURE_CASE_EFFECT(name) case AZK_OP_##name:
#define AZK_IMPURE_CASE_LOOP(name) case AZK_OP_##name:

#define AZK_REF(name, doc) AZK_REF_##name,
enum azk_ref {
#include "azk_enums.def"
    AZK_REF_COUNT
};
#undef AZK_REF
#define AZK_CTX(name, doc) AZK_CTXV_##name,
enum azk_ctx_value {
#include "azk_enums.def"
    AZK_CTXV_COUNT
};
#undef AZK_CTX

#define AZK_STAT(name, doc) AZK_STAT_##name,
enum azk_stat {
#include "azk_enums.def"
    AZK_STAT_COUNT
};
#undef AZK_STAT

#define U16(lo, hi) ((uint16_t)((lo) | ((hi) << 8)))

/* Every test of a selector but zone and side: the counting and collecting
 * loops walk exactly the selector's zones of the selector's sides, so they
 * call this directly. Inlined there: selector matching is the hottest part
 * of condition programs (requirements, statics). */
static inline int sel_props(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int source,
                            const int16_t *regs, const uint8_t *tregs, int c) {
    const azk_card *k = &g->cards[c];
    const azk_card_def *d = &cs->defs[k->def];
    if (s->types && !(s->types & (1u << d->card_type))) return 0;
    int cost_max = s->cost_max;
    if (s->cost_max_reg != AZK_NONE && regs && regs[s->cost_max_reg] < cost_max) cost_max = regs[s->cost_max_reg];
    if (d->cost < s->cost_min || d->cost > cost_max) return 0;
    if (s->element != AZK_NONE && d->element != s->element) return 0;
    if (s->def != AZK_NONE && k->def != s->def) return 0;
    if (s->subtypes && !(s->subtypes & d->subtypes)) return 0;
    if (s->flags) {
        if ((s->flags & AZK_SF_NOT_SELF) && c == source) return 0;
        if ((s->flags & AZK_SF_HAS_WEAPON) && azk_weapon_count(g, c) == 0) return 0;
        if ((s->flags & AZK_SF_TAPPED) && !(k->flags & AZK_CF_TAPPED)) return 0;
        if ((s->flags & AZK_SF_UNTAPPED) && (k->flags & AZK_CF_TAPPED)) return 0;
        if ((s->flags & AZK_SF_ATTACHED_TO_SELF) && k->holder != source) return 0;
    }
    if (s->exclude_t != AZK_NONE && tregs && tregs[s->exclude_t] == c) return 0;
    return 1;
}

/* The registers and context a pure instruction reads: a running frame's
 * (vm.c frame_ctx) or a condition program's own (azk_vm_condition). */
typedef struct pure_ctx {
    int16_t *r;
    uint8_t *t;
    uint16_t *t_inc;
    int source, controller, ctx_card;
    int ctx_value;
    uint16_t source_inc; /* the source object the ability belongs to (RULES §2.1) */
} pure_ctx;

static inline int t_valid(const azk_game *g, const pure_ctx *x, int i) {
    return x->t[i] != AZK_NONE && g->cards[x->t[i]].incarnation == x->t_inc[i];
}

static inline void set_t(const azk_game *g, pure_ctx *x, int i, int c) {
    x->t[i] = (uint8_t)(c < 0 ? AZK_NONE : c);
    x->t_inc[i] = c < 0 || c == AZK_NONE ? 0 : g->cards[c].incarnation;
}

/* query.c: the pure instruction at pc (returns the next pc); the matching
 * cards of a selector in a fixed order (`collapse`: identical copies in piles
 * once); the candidates of a CHOOSE (one definition for CHOOSE and CAN_CHOOSE). */
uint16_t azk_exec_pure(const azk_game *g, const azk_cardset *cs, pure_ctx *x, uint16_t pc);
int azk_sel_collect(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller, int source,
                    const int16_t *regs, const uint8_t *tregs, uint8_t *out, int cap, int collapse);
int azk_choose_candidates(const azk_game *g, const azk_cardset *cs, const azk_selector *s, int controller,
                          int source, const int16_t *regs, const uint8_t *tregs, uint8_t *opts);

#endif /* AZK_PURE_H */
