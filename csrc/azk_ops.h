/* azk_ops.h — what azk_opcodes.def declares about each instruction, as C:
 * operand kinds (enum azk_operand_kind), their byte widths, and opcode
 * properties (enum azk_op_prop). vm.c builds its tables from these macros;
 * tests read them through the functions at the end.
 *
 * Every AZK_OP line passes its operand kinds as one parenthesised list,
 * `(R, SEL)` or `()`. AZK_OP_KINDS / AZK_OP_BYTES / AZK_OP_CHECK expand such a
 * list (padded with the empty kind `_`); a kind or property name that is not
 * declared does not compile, and neither does a list longer than
 * AZK_OP_MAX_OPERANDS (AZK_OP_CHECK).
 */
#ifndef AZK_OPS_H
#define AZK_OPS_H

#include <stdint.h>

#define AZK_OP_MAX_OPERANDS 3

#define AZK_OPERAND(kind, bytes, doc) AZK_OPK_##kind,
enum azk_operand_kind {
#include "azk_opcodes.def"
    AZK_OPK_COUNT
};
#undef AZK_OPERAND
#define AZK_OPERAND(kind, bytes, doc) AZK_OPB_##kind = (bytes),
enum azk_operand_bytes {
#include "azk_opcodes.def"
    AZK_OPB_NONE_ = 0
};
#undef AZK_OPERAND
/* `()` pads to an empty first argument: AZK_OPK_##a is then AZK_OPK_ */
#define AZK_OPK_ AZK_OPK__
#define AZK_OPB_ AZK_OPB__

enum azk_op_prop {
    AZK_OPP_PURE = 1u << 0,  /* reads state only: allowed in condition programs */
    AZK_OPP_ASK = 1u << 1,   /* may ask the controller (suspends the VM) */
    AZK_OPP_FIELD = 1u << 2, /* may change damage, health, zones, tapped state: state checks after */
    AZK_OPP_EFFECT = 1u << 3, /* changes the game, not the field */
    AZK_OPP_LOOP = 1u << 4,  /* for-each bookkeeping in the VM frame */
    AZK_OPP_ASK_FIELD = AZK_OPP_ASK | AZK_OPP_FIELD
};

#define AZK_OP_KINDS_(a, b, c, d, ...) {AZK_OPK_##a, AZK_OPK_##b, AZK_OPK_##c}
#define AZK_OP_BYTES_(a, b, c, d, ...) (AZK_OPB_##a + AZK_OPB_##b + AZK_OPB_##c)
#define AZK_OP_CHECK_(name, a, b, c, d, ...)                                                 \
    _Static_assert(AZK_OPK_##d == AZK_OPK__, "opcode " #name " declares more than "        \
                                             "AZK_OP_MAX_OPERANDS operands");
/* Applied to an operand list: AZK_OP_KINDS (R, SEL) is
 * {AZK_OPK_R, AZK_OPK_SEL, AZK_OPK__}; AZK_OP_BYTES (R, SEL) is 2. */
#define AZK_OP_KINDS(...) AZK_OP_KINDS_(__VA_ARGS__, _, _, _, _)
#define AZK_OP_BYTES(...) AZK_OP_BYTES_(__VA_ARGS__, _, _, _, _)
/* AZK_OP_CHECK(NAME, (R, SEL)): a _Static_assert that the list is not too long */
#define AZK_OP_UNPAREN(...) __VA_ARGS__
#define AZK_OP_CHECK(name, ops) AZK_OP_CHECK_X(name, AZK_OP_UNPAREN ops)
#define AZK_OP_CHECK_X(name, ...) AZK_OP_CHECK_(name, __VA_ARGS__, _, _, _, _)

/* vm.c: the declared facts of opcode `op` (0 / AZK_OPK__ when op is unknown). */
int azk_op_props(int op);
int azk_op_kind(int op, int i); /* enum azk_operand_kind of operand i < AZK_OP_MAX_OPERANDS */
int azk_operand_bytes(int kind);

#endif /* AZK_OPS_H */
