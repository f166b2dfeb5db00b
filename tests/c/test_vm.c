/* test_vm.c — unit tests of the effect VM and its bytecode verifier (vm.c).
 *
 * Verifier: hand-written malformed programs appended to a copy of the default
 * card set must make azk_cardset_finish() fail (unknown opcode, operands out
 * of range, bad jumps, unterminated or truncated code, FOREACH/NEXT pairing,
 * impure or looping condition programs, ability fields out of range), and a
 * minimally corrected twin of each must pass.
 * VM: one or more small programs per opcode of azk_opcodes.def, run as a new
 * ability through azk_vm_start + azk_advance on a fresh game (mulligan
 * phase), with the effect asserted on the state and azk_check_invariants()
 * after every run. Also the execution bound (AZK_VM_STEP_LIMIT).
 */
#include "azk_test.h"
#include "azk_ops.h"
#include "game.h"

/* The VM-private vocabularies (vm.c defines them from the same X-macros). */
#define AZK_REF(name, doc) REF_##name,
enum {
#include "azk_enums.def"
    REF_COUNT_ };
#undef AZK_REF
#define AZK_CTX(name, doc) CTXV_##name,
enum {
#include "azk_enums.def"
    CTXV_COUNT_ };
#undef AZK_CTX
#define AZK_STAT(name, doc) STAT_##name,
enum {
#include "azk_enums.def"
    STAT_COUNT_ };
#undef AZK_STAT

#define J(x) (uint8_t)((x) & 0xFF), (uint8_t)(((x) >> 8) & 0xFF) /* u16 jump operand */
#define OP(x) AZK_OP_##x

static azk_cardset CS; /* working copy of the default set */
static azk_game G;

/* ---------------------------------------------------------------------------
 * Building card sets
 * ------------------------------------------------------------------------- */
static void base(void) { memcpy(&CS, azk_default_cardset(), sizeof CS); }

static int add_sel(uint8_t zones, uint8_t side, uint8_t types, uint8_t flags) {
    azk_selector *s = &CS.selectors[CS.num_selectors];
    memset(s, 0, sizeof *s);
    s->zones = zones;
    s->side = side;
    s->types = types;
    s->flags = flags;
    s->cost_min = -128;
    s->cost_max = 127;
    s->cost_max_reg = s->element = s->def = s->exclude_t = AZK_NONE;
    return CS.num_selectors++;
}

/* Selectors every VM test can use (appended by vm_base). */
static int S_HAND, S_OPP_HAND, S_LEADERS, S_LEAD_SELF, S_LEAD_OPP, S_DISC, S_GARDEN_ENT, S_GARDEN, S_OPP_GARDEN,
    S_ANY, S_LOOK, S_HAND_ENT, S_FIELD_ENT_SELF;
static void vm_base(void) {
    base();
    S_HAND = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 0, 0);
    S_OPP_HAND = add_sel(AZK_SZ_HAND, AZK_SIDE_OPP, 0, 0);
    S_LEADERS = add_sel(AZK_SZ_LEADER, AZK_SIDE_ANY, 0, 0);
    S_LEAD_SELF = add_sel(AZK_SZ_LEADER, AZK_SIDE_SELF, 0, 0);
    S_LEAD_OPP = add_sel(AZK_SZ_LEADER, AZK_SIDE_OPP, 0, 0);
    S_DISC = add_sel(AZK_SZ_DISCARD, AZK_SIDE_SELF, 0, 0);
    S_GARDEN_ENT = add_sel(AZK_SZ_GARDEN, AZK_SIDE_ANY, 1u << AZK_CT_ENTITY, 0);
    S_GARDEN = add_sel(AZK_SZ_GARDEN, AZK_SIDE_SELF, 0, 0);
    S_OPP_GARDEN = add_sel(AZK_SZ_GARDEN, AZK_SIDE_OPP, 0, 0);
    S_ANY = add_sel(0, AZK_SIDE_ANY, 0, 0);
    S_LOOK = add_sel(AZK_SZ_LOOK, AZK_SIDE_SELF, 0, 0);
    S_HAND_ENT = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 1u << AZK_CT_ENTITY, 0);
    S_FIELD_ENT_SELF = add_sel(AZK_SZ_GARDEN | AZK_SZ_ALLEY, AZK_SIDE_SELF, 1u << AZK_CT_ENTITY, 0);
}

static int jump_operand_at(uint8_t op) { /* offset of the u16 target within the instruction, or -1 */
    switch (op) {
    case AZK_OP_JMP: return 1;
    case AZK_OP_JZ: return 2;
    case AZK_OP_FOREACH: return 3;
    case AZK_OP_NEXT: return 2;
    case AZK_OP_JTAB: return 3; /* --- effects --- */
    default: return -1;
    }
}

/* Append code at bytecode_len. With `reloc`, jump targets in `p` are relative
 * to the program start and are rebased (walks well-formed prefixes only). */
static uint16_t add_code(const uint8_t *p, int n, int reloc) {
    uint16_t pc = CS.bytecode_len;
    memcpy(&CS.bytecode[pc], p, (size_t)n);
    CS.bytecode_len = (uint16_t)(CS.bytecode_len + n);
    for (int i = 0; reloc && i < n;) {
        uint8_t op = p[i];
        if (op >= AZK_NUM_OPCODES) break;
        int k = azk_op_operands(op);
        if (i + 1 + k > n) break;
        int at = jump_operand_at(op);
        if (at >= 0) {
            int t = (p[i + at] | (p[i + at + 1] << 8)) + pc;
            CS.bytecode[pc + i + at] = (uint8_t)(t & 0xFF);
            CS.bytecode[pc + i + at + 1] = (uint8_t)(t >> 8);
        }
        i += 1 + k;
    }
    return pc;
}

static int add_ability(int kind, uint16_t program, uint16_t requirement, uint16_t condition) {
    azk_ability *ab = &CS.abilities[CS.num_abilities];
    memset(ab, 0, sizeof *ab);
    ab->kind = (uint8_t)kind;
    ab->program = program;
    ab->requirement = requirement;
    ab->condition = condition;
    return CS.num_abilities++;
}

/* Verify `p` (relocated) as an effect program (pure = 0) or as an activation
 * requirement (pure = 1) on a fresh copy; returns azk_cardset_finish(). */
static azk_status verify_as(const uint8_t *p, int n, int pure, int reloc) {
    base();
    uint16_t pc = add_code(p, n, reloc);
    if (pure) add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, pc, AZK_NO_PC);
    else add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    azk_status s = azk_cardset_finish(&CS);
    /* the program verifier agrees with the set-level gate */
    AZK_CHECK((azk_verify_program(&CS, pc, pure) == 0) == (s == AZK_OK));
    return s;
}
#define ACCEPT(...)                                                            \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK(verify_as(p_, (int)sizeof p_, 0, 1) == AZK_OK);              \
    } while (0)
#define REJECT(...)                                                            \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK(verify_as(p_, (int)sizeof p_, 0, 1) != AZK_OK);              \
    } while (0)
#define ACCEPT_PURE(...)                                                       \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK(verify_as(p_, (int)sizeof p_, 1, 1) == AZK_OK);              \
    } while (0)
#define REJECT_PURE(...)                                                       \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK(verify_as(p_, (int)sizeof p_, 1, 1) != AZK_OK);              \
    } while (0)

/* ---------------------------------------------------------------------------
 * Running programs
 * ------------------------------------------------------------------------- */
#define INV()                                                                  \
    do {                                                                       \
        int inv_ = azk_check_invariants(&G, &CS);                              \
        if (inv_ != 0) fprintf(stderr, "%s:%d: invariant code %d\n", __FILE__, __LINE__, inv_); \
        AZK_CHECK(inv_ == 0);                                                  \
    } while (0)

/* Finish the set (CS already holds any extra selectors), append `p` as a new
 * triggered ability and start a fresh game on it. Returns the ability index. */
static int load_prog(const uint8_t *p, int n) {
    uint16_t pc = add_code(p, n, 1);
    int ab = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    AZK_CHECK(azk_game_init(&G, &CS, 12345, 0, 1) == AZK_OK);
    AZK_CHECK(G.phase == AZK_PHASE_MULLIGAN);
    INV();
    return ab;
}
/* A GRANT status operand: two bytes, little-endian (conditions sit above bit 7
 * since the events keywords, docs/extending.md) */
#define ST16(x) (uint8_t)((x) & 0xFF), (uint8_t)((x) >> 8)
#define LOAD_PROG(ab, ...)                                                     \
    do {                                                                       \
        const uint8_t p_[] = {__VA_ARGS__};                             \
        (ab) = load_prog(p_, (int)sizeof p_);                                  \
    } while (0)

static void run_ctx(int ab, int controller, int ctx_card, int ctx_value) {
    azk_vm_start(&G, &CS, ab, G.pl[controller].leader, controller, ctx_card, ctx_value, -1);
    azk_advance(&G, &CS);
    INV();
}
static void run(int ab) { run_ctx(ab, 0, -1, 0); }

static int answer(int option) { /* CHOOSE option index of the pending prompt */
    azk_status s = azk_step(&G, &CS, azk_encode(AZK_ACT_CHOOSE, option, 0));
    INV();
    return s;
}
static int decline(void) {
    azk_status s = azk_step(&G, &CS, azk_encode(AZK_ACT_NO_OP, 0, 0));
    INV();
    return s;
}

static int idle(void) { /* the program finished and the game is back at the mulligan */
    return !G.vm.active && G.phase == AZK_PHASE_MULLIGAN;
}

/* ---------------------------------------------------------------------------
 * Verifier
 * ------------------------------------------------------------------------- */
static void test_verify_default_and_minimal(void) {
    base();
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    ACCEPT(OP(END));
    ACCEPT_PURE(OP(END));
    ACCEPT(OP(SETI), 0, 1, OP(DRAW), 0, OP(END));
    /* code after END is fine when nothing jumps there, and reachable by a jump */
    ACCEPT(OP(JMP), J(4), OP(END), OP(SETI), 0, 1, OP(END));
}

static void test_verify_unknown_opcode(void) {
    REJECT(AZK_NUM_OPCODES);
    REJECT(OP(SETI), 0, 1, AZK_NUM_OPCODES, OP(END));
    REJECT(0xFF, OP(END));
    /* the highest opcodes (appended by the effects, events and deck groups) are known */
    _Static_assert(AZK_OP_COUNT_GE < AZK_OP_RUN_ABILITY && AZK_OP_RUN_ABILITY < AZK_NUM_OPCODES, "opcodes are appended");
    _Static_assert(AZK_OP_PUT_ON_DECK < AZK_NUM_OPCODES, "PUT_ON_DECK is an opcode");
    ACCEPT(OP(RUN_ABILITY), 0, 0, OP(END));
    ACCEPT(OP(PUT_ON_DECK), 0, 1, OP(END));
    ACCEPT(OP(COUNT_GE), 0, 0, 3, OP(END));
    ACCEPT(OP(CAN_CHOOSE), 0, 0, OP(END)); /* castability: a pure op, allowed in condition programs */
    ACCEPT(OP(LOSE), OP(END));
    ACCEPT(OP(RETURN_COST), 0, OP(END));
    ACCEPT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(5), OP(END));
}

static void test_verify_registers(void) {
    /* R registers: 8 */
    ACCEPT(OP(SETI), 7, 1, OP(END));
    REJECT(OP(SETI), 8, 1, OP(END));
    REJECT(OP(ADDI), 8, 1, OP(END));
    REJECT(OP(GEI), 200, 1, OP(END));
    REJECT(OP(LEI), 8, 1, OP(END));
    REJECT(OP(NOT), 8, OP(END));
    REJECT(OP(JZ), 8, J(4), OP(END));
    ACCEPT(OP(JZ), 7, J(4), OP(END));
    ACCEPT(OP(ADD), 7, 7, OP(SUB), 0, 1, OP(MIN), 2, 3, OP(GE), 4, 5, OP(END));
    REJECT(OP(ADD), 0, 8, OP(END));
    REJECT(OP(ADD), 8, 0, OP(END));
    REJECT(OP(SUB), 0, 8, OP(END));
    REJECT(OP(MIN), 8, 0, OP(END));
    REJECT(OP(GE), 0, 8, OP(END));
    REJECT(OP(COUNT), 8, 0, OP(END));
    REJECT(OP(CTX), 8, 0, OP(END));
    REJECT(OP(VALID), 8, 0, OP(END));
    REJECT(OP(MATCH), 8, 0, 0, OP(END));
    REJECT(OP(MAY), 8, OP(END));
    ACCEPT(OP(CHOOSE_NUM), 7, 7, OP(END));
    REJECT(OP(CHOOSE_NUM), 8, 0, OP(END));
    REJECT(OP(CHOOSE_NUM), 0, 8, OP(END));
    ACCEPT(OP(DAMAGE), 3, 7, OP(END));
    REJECT(OP(DAMAGE), 0, 8, OP(END));
    REJECT(OP(DRAW), 8, OP(END));
    REJECT(OP(MILL), 8, OP(END));
    REJECT(OP(LOOK), 8, OP(END));
    REJECT(OP(UNTAP_IKZ), 8, OP(END));
    ACCEPT(OP(DRAW), 7, OP(MILL), 7, OP(LOOK), 7, OP(UNTAP_IKZ), 7, OP(END));
}

static void test_verify_t_registers(void) {
    /* T registers: 4 */
    ACCEPT(OP(LOAD), 3, 0, OP(END));
    REJECT(OP(LOAD), 4, 0, OP(END));
    ACCEPT(OP(VALID), 0, 3, OP(MATCH), 0, 3, 0, OP(END));
    REJECT(OP(VALID), 0, 4, OP(END));
    REJECT(OP(MATCH), 0, 4, 0, OP(END));
    REJECT(OP(CHOOSE), 4, 0, 0, OP(END));
    REJECT(OP(DAMAGE), 4, 0, OP(END));
    REJECT(OP(MOD_ATTACK), 4, 1, 0, OP(END));
    REJECT(OP(GRANT), 4, 1, 0, 0, OP(END));
    REJECT(OP(DISCARD), 4, OP(END));
    REJECT(OP(RETURN), 4, OP(END));
    REJECT(OP(TO_HAND), 4, OP(END));
    REJECT(OP(TAP), 4, OP(END));
    REJECT(OP(SACRIFICE), 4, OP(END));
    REJECT(OP(PLAY_FREE), 4, 1, OP(END));
    ACCEPT(OP(DISCARD), 3, OP(RETURN), 3, OP(TO_HAND), 3, OP(TAP), 3, OP(SACRIFICE), 3, OP(PLAY_FREE), 3, 3,
           OP(END));
    REJECT(OP(FOREACH), 4, 0, J(9), OP(NEXT), 0, J(5), OP(END));
    REJECT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 4, J(5), OP(END));
    ACCEPT(OP(FOREACH), 3, 0, J(9), OP(NEXT), 3, J(5), OP(END));
}

static void test_verify_selectors(void) {
    int ns = azk_default_cardset()->num_selectors;
    uint8_t last = (uint8_t)(ns - 1), bad = (uint8_t)ns;
    uint8_t p[16];
    /* COUNT */
    uint8_t c1[] = {OP(COUNT), 0, last, OP(END)};
    AZK_CHECK(verify_as(c1, 4, 0, 1) == AZK_OK);
    AZK_CHECK(verify_as(c1, 4, 1, 1) == AZK_OK);
    c1[2] = bad;
    AZK_CHECK(verify_as(c1, 4, 0, 1) != AZK_OK);
    AZK_CHECK(verify_as(c1, 4, 1, 1) != AZK_OK);
    c1[2] = 0xFF;
    AZK_CHECK(verify_as(c1, 4, 0, 1) != AZK_OK);
    /* MATCH */
    uint8_t m[] = {OP(MATCH), 0, 0, last, OP(END)};
    AZK_CHECK(verify_as(m, 5, 0, 1) == AZK_OK);
    m[3] = bad;
    AZK_CHECK(verify_as(m, 5, 0, 1) != AZK_OK);
    /* CHOOSE */
    uint8_t ch[] = {OP(CHOOSE), 0, last, 1, OP(END)};
    AZK_CHECK(verify_as(ch, 5, 0, 1) == AZK_OK);
    ch[2] = bad;
    AZK_CHECK(verify_as(ch, 5, 0, 1) != AZK_OK);
    /* FOREACH */
    uint8_t fe[] = {OP(FOREACH), 0, last, J(9), OP(NEXT), 0, J(5), OP(END)};
    AZK_CHECK(verify_as(fe, 10, 0, 1) == AZK_OK);
    fe[2] = bad;
    AZK_CHECK(verify_as(fe, 10, 0, 1) != AZK_OK);
    /* a selector appended to the table becomes valid */
    memcpy(p, fe, sizeof fe);
    base();
    int s = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 0, 0);
    AZK_CHECK(s == ns);
    uint16_t pc = add_code(p, 10, 1);
    add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
}

static void test_verify_enums(void) {
    /* CTX value */
    ACCEPT(OP(CTX), 0, CTXV_COUNT_ - 1, OP(END));
    REJECT(OP(CTX), 0, CTXV_COUNT_, OP(END));
    REJECT_PURE(OP(CTX), 0, CTXV_COUNT_, OP(END));
    /* LOAD reference */
    ACCEPT(OP(LOAD), 0, REF_COUNT_ - 1, OP(END));
    REJECT(OP(LOAD), 0, REF_COUNT_, OP(END));
    REJECT_PURE(OP(LOAD), 0, 0xFF, OP(END));
    /* durations */
    ACCEPT(OP(MOD_ATTACK), 0, 0xFF, AZK_DUR_COUNT - 1, OP(END));
    REJECT(OP(MOD_ATTACK), 0, 1, AZK_DUR_COUNT, OP(END));
    ACCEPT(OP(GRANT), 0, ST16(AZK_ST_FROZEN), AZK_DUR_COUNT - 1, OP(END));
    REJECT(OP(GRANT), 0, ST16(AZK_ST_FROZEN), AZK_DUR_COUNT, OP(END));
    /* GRANT status bits: non-empty, only known statuses */
    ACCEPT(OP(GRANT), 0, ST16((1u << AZK_STI_COUNT) - 1), 0, OP(END));
    REJECT(OP(GRANT), 0, 0, 0, 0, OP(END));
    REJECT(OP(GRANT), 0, ST16(1u << AZK_STI_COUNT), 0, OP(END));
    /* CHOOSE: optional flag is 0 or 1 */
    ACCEPT(OP(CHOOSE), 0, 0, 0, OP(CHOOSE), 0, 0, 1, OP(END));
    REJECT(OP(CHOOSE), 0, 0, 2, OP(END));
    /* PLAY_FREE: where is 1, 2 or 3 */
    ACCEPT(OP(PLAY_FREE), 0, 1, OP(PLAY_FREE), 0, 2, OP(PLAY_FREE), 0, 3, OP(END));
    REJECT(OP(PLAY_FREE), 0, 0, OP(END));
    REJECT(OP(PLAY_FREE), 0, 4, OP(END));
}

static void test_verify_jumps(void) {
    /* in bounds, onto boundaries: fine (forward and, in effect programs, backward) */
    ACCEPT(OP(JMP), J(3), OP(END));
    ACCEPT(OP(SETI), 0, 1, OP(JZ), 0, J(0), OP(END));
    ACCEPT(OP(JMP), J(0), OP(END)); /* a jump to itself: a loop, bounded at run time */
    REJECT(OP(JMP), J(0));          /* ...but the program must still end in END */
    /* out of bounds: past the end of the bytecode */
    REJECT(OP(JMP), J(4), OP(END));               /* == bytecode_len */
    REJECT(OP(JMP), J(0x7FFF), OP(END));
    REJECT(OP(JZ), 0, J(5), OP(END));
    REJECT(OP(FOREACH), 0, 0, J(10), OP(NEXT), 0, J(5), OP(END));
    REJECT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(10), OP(END));
    /* into the middle of an instruction */
    ACCEPT(OP(JMP), J(3), OP(SETI), 0, 1, OP(END));
    REJECT(OP(JMP), J(4), OP(SETI), 0, 1, OP(END));
    REJECT(OP(JMP), J(5), OP(SETI), 0, 1, OP(END));
    REJECT(OP(JMP), J(1), OP(END));              /* its own operand */
    REJECT(OP(JZ), 0, J(5), OP(SETI), 0, 1, OP(END));
    REJECT(OP(SETI), 0, 1, OP(JZ), 0, J(1), OP(END)); /* backward, mid-instruction */
    ACCEPT(OP(FOREACH), 0, 0, J(10), OP(NEXT), 0, J(5), OP(END), OP(END));
    REJECT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(6), OP(END));
    /* before the program's start: into another program (absolute targets) */
    uint16_t L = azk_default_cardset()->bytecode_len;
    uint8_t back[] = {OP(JMP), J(L - 1), OP(END)};
    AZK_CHECK(verify_as(back, 4, 0, 0) != AZK_OK);
    uint8_t zero[] = {OP(JMP), J(0), OP(END)};
    AZK_CHECK(verify_as(zero, 4, 0, 0) != AZK_OK); /* pc 0 is an instruction, but of another program */
    uint8_t self[] = {OP(JMP), J(L), OP(END)};
    AZK_CHECK(verify_as(self, 4, 0, 0) == AZK_OK);
}

static void test_verify_termination(void) {
    /* unterminated: runs into bytecode_len without END */
    REJECT(OP(SETI), 0, 1);
    REJECT(OP(SETI), 0, 1, OP(DRAW), 0);
    /* a jump past the only END leads into unterminated code */
    REJECT(OP(JMP), J(4), OP(END), OP(SETI), 0, 1);
    ACCEPT(OP(JMP), J(4), OP(END), OP(SETI), 0, 1, OP(END));
    /* truncated operands at the very end */
    REJECT(OP(SETI), 0);
    REJECT(OP(JMP), 3);
    REJECT(OP(JMP));
    REJECT(OP(SETI), 0, 1, OP(FOREACH), 0, 0, 0);
    REJECT(OP(SETI), 0, 1, OP(MATCH), 0, 0);
    /* a program that starts at or beyond bytecode_len */
    base();
    add_code((const uint8_t[]){OP(END)}, 1, 0);
    add_ability(AZK_AB_TRIGGERED, CS.bytecode_len, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.abilities[CS.num_abilities - 1].program = (uint16_t)(CS.bytecode_len - 1);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[CS.num_abilities - 1].program = AZK_MAX_BYTECODE + 5;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.abilities[CS.num_abilities - 1].program = 0xFFFE;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    /* bytecode_len beyond the array */
    base();
    CS.bytecode_len = AZK_MAX_BYTECODE + 1;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    /* a program ending exactly at the end of the array is fine; one byte short is not */
    base();
    memset(&CS.bytecode[CS.bytecode_len], OP(END), AZK_MAX_BYTECODE - CS.bytecode_len);
    CS.bytecode[AZK_MAX_BYTECODE - 3] = OP(SETI);
    CS.bytecode_len = AZK_MAX_BYTECODE;
    add_ability(AZK_AB_TRIGGERED, AZK_MAX_BYTECODE - 3, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* SETI's operands run to the end: no END */
    CS.bytecode[AZK_MAX_BYTECODE - 3] = OP(NOT);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK); /* NOT 0, END */
    CS.bytecode[AZK_MAX_BYTECODE - 1] = OP(JMP);
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* NOT 0, JMP <truncated> */
}

static void test_verify_foreach(void) {
    /* FOREACH t sel off(4 bytes) = 5 bytes; NEXT t off = 4 bytes */
    ACCEPT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(5), OP(END));
    /* FOREACH without NEXT */
    REJECT(OP(FOREACH), 0, 0, J(5), OP(END));
    REJECT(OP(FOREACH), 0, 0, J(5), OP(END), OP(END));
    /* NEXT without FOREACH, or before it */
    REJECT(OP(NEXT), 0, J(0), OP(END));
    REJECT(OP(NEXT), 0, J(0), OP(FOREACH), 0, 0, J(9), OP(END));
    /* nested */
    REJECT(OP(FOREACH), 0, 0, J(18), OP(FOREACH), 1, 0, J(14), OP(NEXT), 1, J(10), OP(NEXT), 0, J(5), OP(END));
    /* two loops in sequence are fine */
    ACCEPT(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(5), OP(FOREACH), 1, 0, J(18), OP(NEXT), 1, J(14), OP(END));
    /* NEXT may not hide after END either */
    REJECT(OP(FOREACH), 0, 0, J(6), OP(END), OP(END), OP(NEXT), 0, J(5));
}

static void test_verify_pure(void) {
    /* every pure op is fine in a condition */
    ACCEPT_PURE(OP(SETI), 0, 1, OP(ADDI), 0, 2, OP(ADD), 0, 1, OP(SUB), 0, 1, OP(MIN), 0, 1, OP(GE), 0, 1,
                OP(GEI), 0, 1, OP(LEI), 0, 1, OP(NOT), 0, OP(COUNT), 1, 0, OP(CTX), 1, 0, OP(VALID), 1, 0,
                OP(MATCH), 1, 0, 0, OP(LOAD), 0, 0, OP(JZ), 0, J(49), OP(JMP), J(49), OP(END));
    /* non-pure ops are not, though the same program is a fine effect */
    static const uint8_t impure[][6] = {
        {OP(CHOOSE), 0, 0, 0, OP(END)}, {OP(MAY), 0, OP(END)}, {OP(CHOOSE_NUM), 0, 1, OP(END)},
        {OP(DAMAGE), 0, 0, OP(END)}, {OP(MOD_ATTACK), 0, 1, 0, OP(END)}, {OP(GRANT), 0, 1, 0, 0, OP(END)},
        {OP(DRAW), 0, OP(END)}, {OP(MILL), 0, OP(END)}, {OP(DISCARD), 0, OP(END)}, {OP(RETURN), 0, OP(END)},
        {OP(LOOK), 0, OP(END)}, {OP(TO_HAND), 0, OP(END)}, {OP(BOTTOM_LOOKED), OP(END)},
        {OP(PLAY_FREE), 0, 1, OP(END)}, {OP(UNTAP_IKZ), 0, OP(END)}, {OP(TAP), 0, OP(END)},
        {OP(SACRIFICE), 0, OP(END)},
    };
    for (size_t i = 0; i < sizeof impure / sizeof *impure; i++) {
        int n = 1 + azk_op_operands(impure[i][0]) + 1;
        AZK_CHECK(verify_as(impure[i], n, 0, 1) == AZK_OK);
        AZK_CHECK(verify_as(impure[i], n, 1, 1) != AZK_OK);
    }
    REJECT_PURE(OP(FOREACH), 0, 0, J(9), OP(NEXT), 0, J(5), OP(END));
    /* impure op behind a forward jump, i.e. in "dead" code, is still rejected */
    REJECT_PURE(OP(JMP), J(5), OP(DRAW), 0, OP(END), OP(END));
    /* backward jumps (loops) are not allowed in pure programs */
    REJECT_PURE(OP(JMP), J(0), OP(END));
    REJECT_PURE(OP(SETI), 0, 1, OP(JZ), 0, J(0), OP(END));
    REJECT_PURE(OP(SETI), 0, 1, OP(JZ), 0, J(3), OP(END)); /* to itself */
    ACCEPT(OP(SETI), 0, 1, OP(JZ), 0, J(3), OP(END));
    ACCEPT_PURE(OP(SETI), 0, 1, OP(JZ), 0, J(7), OP(END), OP(END));
    /* the condition field of a static is checked as pure as well */
    static const uint8_t draw[] = {OP(DRAW), 0, OP(END)};
    base();
    uint16_t pc = add_code(draw, 3, 0);
    int ab = add_ability(AZK_AB_STATIC, AZK_NO_PC, AZK_NO_PC, pc);
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.abilities[ab].condition = AZK_NO_PC;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[ab].requirement = pc;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
}

static void test_verify_ability_fields(void) {
    static const uint8_t end[] = {OP(END)};
    base();
    uint16_t pc = add_code(end, 1, 0);
    int ab = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    azk_ability ok = CS.abilities[ab];
#define FIELD_REJECT(stmt)                                                     \
    do {                                                                       \
        CS.abilities[ab] = ok;                                                 \
        stmt;                                                                  \
        AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);                          \
        CS.abilities[ab] = ok;                                                 \
    } while (0)
    FIELD_REJECT(CS.abilities[ab].program = CS.bytecode_len);
    FIELD_REJECT(CS.abilities[ab].program = 9000);
    FIELD_REJECT(CS.abilities[ab].program = AZK_NO_PC);            /* triggered needs a body */
    FIELD_REJECT(CS.abilities[ab].requirement = CS.bytecode_len);
    FIELD_REJECT(CS.abilities[ab].condition = (uint16_t)(CS.bytecode_len + 100));
    FIELD_REJECT(CS.abilities[ab].kind = AZK_AB_KIND_COUNT);
    FIELD_REJECT(CS.abilities[ab].trigger = AZK_TRIG_COUNT);
    FIELD_REJECT(CS.abilities[ab].static_target = AZK_STT_SELECTOR + 1);
    FIELD_REJECT((CS.abilities[ab].kind = AZK_AB_SPELL, CS.abilities[ab].program = AZK_NO_PC));
    FIELD_REJECT((CS.abilities[ab].kind = AZK_AB_STATIC, CS.abilities[ab].static_target = AZK_STT_SELECTOR,
                  CS.abilities[ab].selector = (uint8_t)CS.num_selectors));
    FIELD_REJECT((CS.abilities[ab].kind = AZK_AB_STATIC, CS.abilities[ab].static_target = AZK_STT_SELECTOR,
                  CS.abilities[ab].selector = 0xFF));
    /* the in-range twins pass */
    CS.abilities[ab].kind = AZK_AB_STATIC;
    CS.abilities[ab].static_target = AZK_STT_SELECTOR;
    CS.abilities[ab].selector = (uint8_t)(CS.num_selectors - 1);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[ab] = ok;
    CS.abilities[ab].trigger = AZK_TRIG_COUNT - 1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[ab] = ok;
    /* abilities beyond the count are not part of the set */
    CS.num_abilities = AZK_MAX_ABILITIES + 1;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    /* a selector out of range inside a selector (exclude_t) is the set gate's job too */
    base();
    int s = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 0, 0);
    CS.selectors[s].exclude_t = AZK_TREGS;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.selectors[s].exclude_t = AZK_TREGS - 1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.selectors[s].cost_max_reg = AZK_REGS;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    /* --- cont --- auras and cost modifiers (rules §18): shapes the fast paths rely on */
    base();
    int fs = add_sel(AZK_SZ_GARDEN | AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    int hs = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 0, 0);
    int wz = add_sel(AZK_SZ_WEAPON, AZK_SIDE_SELF, 0, 0);
    ab = add_ability(AZK_AB_STATIC, AZK_NO_PC, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[ab].static_target = AZK_STT_AURA;
    CS.abilities[ab].selector = (uint8_t)fs;
    CS.abilities[ab].attack = 1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    ok = CS.abilities[ab];
    CS.abilities[ab].grant = AZK_KW_CHARGE;
    CS.abilities[ab].remove = AZK_KW_DEFENDER;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    /* an aura may lower health (rules §18.2): then no definition has a health bound */
    CS.abilities[ab].health = -1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    for (int d = 0; d < CS.num_defs; d++) AZK_CHECK(CS.facts[d].min_health == AZK_HEALTH_UNBOUNDED);
    CS.abilities[ab].health = 0;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    for (int d = 0; d < CS.num_defs; d++) AZK_CHECK(CS.facts[d].min_health > AZK_HEALTH_UNBOUNDED);
    FIELD_REJECT(CS.abilities[ab].grant = (uint16_t)(1u << AZK_STI_FROZEN)); /* conditions are not keywords */
    FIELD_REJECT(CS.abilities[ab].selector = (uint8_t)hs);       /* an aura changes field cards */
    FIELD_REJECT(CS.abilities[ab].selector = (uint8_t)wz);
    FIELD_REJECT(CS.abilities[ab].selector = (uint8_t)CS.num_selectors);
    FIELD_REJECT(CS.abilities[ab].attack = 0);                   /* changes nothing */
    FIELD_REJECT(CS.abilities[ab].cost_change = -1);             /* an aura has no cost change */
    FIELD_REJECT(CS.abilities[ab].set_bonus = 3);
    FIELD_REJECT(CS.abilities[ab].pad_cont_ = 1);
    FIELD_REJECT(CS.abilities[ab].kind = AZK_AB_TRIGGERED);
    FIELD_REJECT(CS.abilities[ab].static_target = AZK_STT_COST + 1);
    CS.abilities[ab] = ok;
    CS.abilities[ab].static_target = AZK_STT_COST;
    CS.abilities[ab].selector = (uint8_t)hs;
    CS.abilities[ab].attack = 0;
    CS.abilities[ab].cost_change = -1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    ok = CS.abilities[ab];
    FIELD_REJECT(CS.abilities[ab].cost_change = 0);
    FIELD_REJECT(CS.abilities[ab].selector = (uint8_t)fs);       /* a cost modifier changes hand cards */
    FIELD_REJECT(CS.abilities[ab].attack = 1);
    FIELD_REJECT(CS.abilities[ab].grant = AZK_KW_CHARGE);
    /* only leaders and entities are sources: give the static to a weapon definition */
    CS.abilities[ab] = ok;
    for (int d = 0; d < CS.num_defs; d++)
        if (CS.defs[d].card_type == AZK_CT_WEAPON && CS.defs[d].ability_count == 0) {
            CS.defs[d].ability_first = (uint16_t)ab;
            CS.defs[d].ability_count = 1;
            AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
            CS.defs[d].ability_count = 0;
            CS.defs[d].ability_first = 0;
            break;
        }
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
#undef FIELD_REJECT
}

/* ---------------------------------------------------------------------------
 * VM: pure ops, observed through DRAW (hand grows by the register's value)
 * ------------------------------------------------------------------------- */
/* Run `p` and return how many cards player 0 drew (hand growth). */
static int drawn_by(const uint8_t *p, int n, int ctx_value) {
    vm_base();
    int ab = load_prog(p, n);
    int h = G.pl[0].hand_n, d = G.pl[0].deck_n;
    run_ctx(ab, 0, -1, ctx_value);
    AZK_CHECK(idle());
    AZK_CHECK(G.result == AZK_RES_ONGOING);
    AZK_CHECK(G.pl[0].hand_n - h <= d - G.pl[0].deck_n); /* drawn cards came from the deck */
    return G.pl[0].hand_n - h;
}
#define DRAWS(k, ...)                                                          \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK_EQ_U64(drawn_by(p_, (int)sizeof p_, 0), (k));                \
    } while (0)
#define DRAWS_CTX(k, ctx, ...)                                                 \
    do {                                                                       \
        static const uint8_t p_[] = {__VA_ARGS__};                             \
        AZK_CHECK_EQ_U64(drawn_by(p_, (int)sizeof p_, (ctx)), (k));            \
    } while (0)

static void test_op_end(void) {
    vm_base();
    int ab;
    LOAD_PROG(ab, OP(END), OP(SETI), 0, 1, OP(DRAW), 0, OP(END));
    static azk_game before;
    azk_game_clone(&before, &G);
    azk_vm_start(&G, &CS, ab, G.pl[0].leader, 0, -1, 0, -1);
    AZK_CHECK(G.vm.active);
    azk_advance(&G, &CS);
    INV();
    AZK_CHECK(idle());
    AZK_CHECK(G.result == AZK_RES_ONGOING && G.end_reason == AZK_END_NONE);
    /* END is all that ran: no card moved, nothing queued, the frame is clear */
    AZK_CHECK(memcmp(G.cards, before.cards, sizeof G.cards) == 0);
    AZK_CHECK(memcmp(G.pl, before.pl, sizeof G.pl) == 0);
    AZK_CHECK(G.fx_n == 0 && G.trig_n == 0 && G.vm.steps == 0 && G.vm.pc == 0);
    DRAWS(0, OP(END), OP(SETI), 0, 1, OP(DRAW), 0, OP(END));
}

static void test_op_seti_draw(void) {
    DRAWS(0, OP(DRAW), 0, OP(END)); /* registers start at 0 */
    DRAWS(1, OP(SETI), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(3, OP(SETI), 5, 3, OP(DRAW), 5, OP(END));
    DRAWS(0, OP(SETI), 0, 0xFE, OP(DRAW), 0, OP(END)); /* (int8)-2: draws nothing */
    DRAWS(4, OP(SETI), 0, 2, OP(DRAW), 0, OP(DRAW), 0, OP(END));
}

static void test_op_addi(void) {
    DRAWS(3, OP(SETI), 0, 1, OP(ADDI), 0, 2, OP(DRAW), 0, OP(END));
    DRAWS(2, OP(SETI), 0, 5, OP(ADDI), 0, 0xFD, OP(DRAW), 0, OP(END)); /* += (int8)-3 */
    /* ADD / ADDI saturate at the int16 bounds rather than wrapping: 127 * 2^9 = 65024 */
    DRAWS(1, OP(SETI), 0, 127, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0,
          OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADDI), 0, 127, OP(GEI), 0, 127, OP(DRAW), 0,
          OP(END));
    DRAWS(1, OP(SETI), 0, 0x80, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0,
          OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADD), 0, 0, OP(ADDI), 0, 0x80, OP(LEI), 0, 0x80, OP(DRAW),
          0, OP(END));
}

static void test_op_add_sub(void) {
    DRAWS(5, OP(SETI), 0, 2, OP(SETI), 1, 3, OP(ADD), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(3, OP(SETI), 0, 2, OP(SETI), 1, 3, OP(ADD), 1, 1, OP(SUB), 1, 1, OP(SETI), 2, 3, OP(ADD), 1, 2, OP(DRAW),
          1, OP(END)); /* R1 = 6 - 6 + 3 */
    DRAWS(2, OP(SETI), 0, 5, OP(SETI), 1, 3, OP(SUB), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 3, OP(SETI), 1, 5, OP(SUB), 0, 1, OP(DRAW), 0, OP(END)); /* -2 */
    DRAWS(2, OP(SETI), 0, 3, OP(SETI), 1, 5, OP(SUB), 1, 0, OP(DRAW), 1, OP(END));
}

static void test_op_min(void) {
    DRAWS(2, OP(SETI), 0, 5, OP(SETI), 1, 2, OP(MIN), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(2, OP(SETI), 0, 2, OP(SETI), 1, 5, OP(MIN), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(5, OP(SETI), 0, 2, OP(SETI), 1, 5, OP(MIN), 0, 1, OP(DRAW), 1, OP(END)); /* R[b] unchanged */
    DRAWS(0, OP(SETI), 0, 2, OP(SETI), 1, 0xFF, OP(MIN), 0, 1, OP(DRAW), 0, OP(END)); /* -1 */
}

static void test_op_compare(void) {
    /* GE */
    DRAWS(1, OP(SETI), 0, 3, OP(SETI), 1, 3, OP(GE), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(SETI), 0, 4, OP(SETI), 1, 3, OP(GE), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 2, OP(SETI), 1, 3, OP(GE), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(SETI), 0, 0, OP(SETI), 1, 0xFF, OP(GE), 0, 1, OP(DRAW), 0, OP(END)); /* 0 >= -1 */
    /* GEI */
    DRAWS(1, OP(SETI), 0, 3, OP(GEI), 0, 3, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 3, OP(GEI), 0, 4, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(GEI), 0, 0xFF, OP(DRAW), 0, OP(END)); /* 0 >= (int8)-1 */
    /* LEI */
    DRAWS(1, OP(SETI), 0, 3, OP(LEI), 0, 3, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 3, OP(LEI), 0, 2, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(LEI), 0, 0xFF, OP(DRAW), 0, OP(END)); /* 0 <= (int8)-1 */
    /* NOT */
    DRAWS(1, OP(NOT), 0, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 5, OP(NOT), 0, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 0xFF, OP(NOT), 0, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(SETI), 0, 5, OP(NOT), 0, OP(NOT), 0, OP(DRAW), 0, OP(END));
}

static void test_op_jz_jmp(void) {
    /* 0 SETI r1 1 | 3 JZ r0 ->10 | 7 SETI r1 4 | 10 DRAW r1 | 12 END */
    DRAWS(1, OP(SETI), 1, 1, OP(JZ), 0, J(10), OP(SETI), 1, 4, OP(DRAW), 1, OP(END));
    /* same with R0 = 1 first: falls through */
    DRAWS(4, OP(SETI), 0, 1, OP(SETI), 1, 1, OP(JZ), 0, J(13), OP(SETI), 1, 4, OP(DRAW), 1, OP(END));
    DRAWS(4, OP(SETI), 0, 0xFF, OP(SETI), 1, 1, OP(JZ), 0, J(13), OP(SETI), 1, 4, OP(DRAW), 1, OP(END));
    /* JMP: 0 SETI r1 1 | 3 JMP ->9 | 6 SETI r1 4 | 9 DRAW r1 | 11 END */
    DRAWS(1, OP(SETI), 1, 1, OP(JMP), J(9), OP(SETI), 1, 4, OP(DRAW), 1, OP(END));
    /* a counted backward loop: R0 = 3; do { DRAW 1 } while (--R0) -> 3 draws
     * 0 SETI r0 3 | 3 SETI r1 1 | 6 DRAW r1 | 8 ADDI r0 -1 | 11 JZ r0 ->18 | 15 JMP ->6 | 18 END */
    DRAWS(3, OP(SETI), 0, 3, OP(SETI), 1, 1, OP(DRAW), 1, OP(ADDI), 0, 0xFF, OP(JZ), 0, J(18), OP(JMP), J(6),
          OP(END));
}

static int distinct_defs(const uint8_t *cards, int n) {
    uint64_t seen = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint64_t bit = 1ull << (G.cards[cards[i]].def & 63);
        k += !(seen & bit);
        seen |= bit;
    }
    return k;
}

static void test_op_ctx(void) {
    DRAWS_CTX(2, 2, OP(CTX), 0, CTXV_TRIGGER_VALUE, OP(DRAW), 0, OP(END));
    DRAWS_CTX(0, 0xFFF, OP(CTX), 0, CTXV_TRIGGER_VALUE, OP(GEI), 0, 127, OP(NOT), 0, OP(DRAW), 0, OP(END));
    DRAWS(AZK_STARTING_HAND, OP(CTX), 0, CTXV_HAND_SIZE, OP(DRAW), 0, OP(END));
    /* deck: 50 - 7 = 43; draw 43 - 40 */
    DRAWS(3, OP(CTX), 0, CTXV_DECK_SIZE, OP(SETI), 1, 40, OP(SUB), 0, 1, OP(DRAW), 0, OP(END));
    /* discard: mill 2, then draw the discard size */
    DRAWS(2, OP(CTX), 1, CTXV_DISCARD_SIZE, OP(DRAW), 1, OP(SETI), 0, 2, OP(MILL), 0, OP(CTX), 1,
          CTXV_DISCARD_SIZE, OP(DRAW), 1, OP(END));
    /* no IKZ yet in the mulligan */
    DRAWS(1, OP(CTX), 0, CTXV_UNTAPPED_IKZ, OP(CTX), 1, CTXV_TAPPED_IKZ, OP(ADD), 0, 1, OP(NOT), 0, OP(DRAW), 0,
          OP(END));
}

static void put_ikz(int p, int total, int tapped) { /* move IKZ from the pile to the area */
    for (int i = 0; i < total; i++) {
        int c = G.pl[p].ikz_pile[G.pl[p].ikz_pile_n - 1];
        azk_move(&G, &CS, c, AZK_Z_IKZ_AREA, 0);
        if (i < tapped) G.cards[c].flags |= AZK_CF_TAPPED;
    }
    azk_rebuild_hints(&G, &CS); /* the flags were written directly */
}

static void test_op_ctx_ikz_and_untap(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(CTX), 0, CTXV_UNTAPPED_IKZ, OP(DRAW), 0, OP(CTX), 1, CTXV_TAPPED_IKZ, OP(DRAW), 1, OP(END));
    put_ikz(0, 5, 3);
    INV();
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 2 + 3);
    /* UNTAP_IKZ R[a]: untaps that many tapped IKZ of the controller, no more */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 2, OP(UNTAP_IKZ), 0, OP(END));
    put_ikz(0, 5, 3);
    put_ikz(1, 2, 2);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 2);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 4);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 1), 0); /* the opponent's stay tapped */
    run(ab);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 5);
    AZK_CHECK_EQ_U64(G.pl[0].ikz_area_n, 5);
    /* zero or negative: nothing */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 0xFF, OP(UNTAP_IKZ), 0, OP(UNTAP_IKZ), 1, OP(END));
    put_ikz(0, 3, 3);
    run(ab);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 0);
    /* controller 1 untaps its own */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 9, OP(UNTAP_IKZ), 0, OP(END));
    put_ikz(0, 3, 3);
    put_ikz(1, 4, 4);
    run_ctx(ab, 1, -1, 0);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 0);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 1), 4);
}

static void test_op_count(void) {
    int ab;
    vm_base();
    /* hand: every card, duplicates included (COUNT does not collapse) */
    uint8_t p1[] = {OP(COUNT), 0, (uint8_t)S_HAND, OP(DRAW), 0, OP(END)};
    ab = load_prog(p1, sizeof p1);
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, 2 * AZK_STARTING_HAND);
    /* opponent's hand, seen by controller 0; leaders of both sides */
    vm_base();
    uint8_t p2[] = {OP(COUNT), 0, (uint8_t)S_OPP_HAND, OP(COUNT), 1, (uint8_t)S_LEADERS, OP(ADD), 0, 1,
                    OP(DRAW), 0, OP(END)};
    ab = load_prog(p2, sizeof p2);
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, 2 * AZK_STARTING_HAND + 2);
    /* discard pile after milling 3; garden entities placed by hand */
    vm_base();
    uint8_t p3[] = {OP(SETI), 0, 3, OP(MILL), 0, OP(COUNT), 1, (uint8_t)S_DISC, OP(COUNT), 2, (uint8_t)S_GARDEN_ENT,
                    OP(ADD), 1, 2, OP(DRAW), 1, OP(END)};
    ab = load_prog(p3, sizeof p3);
    int placed = 0;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < G.pl[p].deck_n && placed < 2 + p; i++) {
            int c = G.pl[p].deck[i];
            if (CS.defs[G.cards[c].def].card_type != AZK_CT_ENTITY) continue;
            azk_move(&G, &CS, c, AZK_Z_GARDEN, placed);
            placed++;
            i--;
        }
    AZK_CHECK_EQ_U64(placed, 3); /* 2 of player 0, 1 of player 1 */
    INV();
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 3 + 3);
    /* zones = 0: any zone, both sides: all cards in leader/garden/alley/weapon/hand/discard/look/IKZ areas */
    vm_base();
    uint8_t p4[] = {OP(COUNT), 0, (uint8_t)S_ANY, OP(SETI), 1, 16, OP(SUB), 0, 1, OP(DRAW), 0, OP(END)};
    ab = load_prog(p4, sizeof p4);
    run(ab); /* 2 leaders + 14 hand cards = 16 -> draws 0 */
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND);
}

static void test_op_valid_load(void) {
    /* LOAD SELF: the source (the leader) is valid */
    DRAWS(1, OP(LOAD), 0, REF_SELF, OP(VALID), 0, 0, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(LOAD), 3, REF_OWN_LEADER, OP(VALID), 0, 3, OP(DRAW), 0, OP(END));
    DRAWS(1, OP(LOAD), 2, REF_OPP_LEADER, OP(VALID), 0, 2, OP(DRAW), 0, OP(END));
    /* an unset T register, and references that name nothing */
    DRAWS(0, OP(VALID), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(LOAD), 0, REF_HOLDER, OP(VALID), 0, 0, OP(DRAW), 0, OP(END));   /* a leader holds nothing */
    DRAWS(0, OP(LOAD), 0, REF_ATTACKER, OP(VALID), 0, 0, OP(DRAW), 0, OP(END)); /* no attack */
    DRAWS(0, OP(LOAD), 0, REF_TARGET, OP(VALID), 0, 0, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(LOAD), 0, REF_SUBJECT, OP(VALID), 0, 0, OP(DRAW), 0, OP(END)); /* no ctx card */
    /* LOAD overwrites: a valid register becomes empty */
    DRAWS(0, OP(LOAD), 0, REF_SELF, OP(LOAD), 0, REF_ATTACKER, OP(VALID), 0, 0, OP(DRAW), 0, OP(END));
    /* SUBJECT = the context card; stale once it changed zone (RULES 2.1) */
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_SUBJECT, OP(VALID), 1, 0, OP(DRAW), 1, OP(DISCARD), 0, OP(VALID), 2, 0,
              OP(NOT), 2, OP(DRAW), 2, OP(END));
    int subj = G.pl[0].hand[0];
    int h = G.pl[0].hand_n;
    run_ctx(ab, 0, subj, 0);
    AZK_CHECK(G.cards[subj].zone == AZK_Z_DISCARD);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h - 1 + 1 + 1); /* discarded 1, drew 1 + 1 */
    /* a ctx card that changed zone before the program starts is no subject */
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_SUBJECT, OP(VALID), 1, 0, OP(NOT), 1, OP(SETI), 2, 2, OP(ADD), 1, 2, OP(DRAW),
              1, OP(END));
    subj = G.pl[0].hand[0];
    h = G.pl[0].hand_n;
    azk_vm_start(&G, &CS, ab, G.pl[0].leader, 0, subj, 0, -1);
    azk_move(&G, &CS, subj, AZK_Z_DISCARD, 0);
    azk_advance(&G, &CS);
    INV();
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h - 1 + 3);
}

static void test_op_match(void) {
    int ab;
    vm_base();
    int any_leader_type = add_sel(0, AZK_SIDE_ANY, 1u << AZK_CT_LEADER, 0);
    int entity = add_sel(0, AZK_SIDE_ANY, 1u << AZK_CT_ENTITY, 0);
    /* R1 = match(own leader, self leaders) * 1 + match(own leader, opp) * 2 + ... observed as draws */
    uint8_t p[] = {OP(LOAD), 0, REF_OWN_LEADER,
                   OP(MATCH), 1, 0, (uint8_t)S_LEAD_SELF,       /* 1 */
                   OP(MATCH), 2, 0, (uint8_t)S_LEAD_OPP,        /* 0 */
                   OP(ADD), 1, 2,
                   OP(MATCH), 2, 0, (uint8_t)any_leader_type, /* 1 */
                   OP(ADD), 1, 2,
                   OP(MATCH), 2, 0, (uint8_t)entity,          /* 0 */
                   OP(ADD), 1, 2,
                   OP(MATCH), 2, 1, (uint8_t)any_leader_type, /* T1 empty: 0 */
                   OP(ADD), 1, 2,
                   OP(LOAD), 3, REF_OPP_LEADER,
                   OP(MATCH), 2, 3, (uint8_t)S_LEAD_OPP,        /* 1 */
                   OP(ADD), 1, 2,
                   OP(DRAW), 1, OP(END)};
    ab = load_prog(p, sizeof p);
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 3);
    /* seen from controller 1 the sides swap */
    int h = G.pl[1].hand_n;
    run_ctx(ab, 1, -1, 0);
    AZK_CHECK_EQ_U64(G.pl[1].hand_n, h + 3);
}

/* ---------------------------------------------------------------------------
 * VM: choices
 * ------------------------------------------------------------------------- */
static void test_op_choose(void) {
    int ab;
    vm_base();
    /* mandatory choice among the hand: a CARD prompt with one option per definition */
    uint8_t p[] = {OP(CHOOSE), 1, (uint8_t)S_HAND, 0, OP(DISCARD), 1, OP(END)};
    ab = load_prog(p, sizeof p);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT);
    AZK_CHECK(G.prompt.kind == AZK_PK_CARD);
    AZK_CHECK(G.prompt.chooser == 0);
    AZK_CHECK(!G.prompt.optional);
    AZK_CHECK_EQ_U64(G.prompt.n, distinct_defs(G.pl[0].hand, G.pl[0].hand_n));
    AZK_CHECK(G.prompt.n >= 2);
    AZK_CHECK(azk_current_player(&G) == 0);
    for (int i = 0; i < G.prompt.n; i++) AZK_CHECK(G.cards[G.prompt.opt[i]].zone == AZK_Z_HAND);
    AZK_CHECK(azk_step(&G, &CS, azk_encode(AZK_ACT_NO_OP, 0, 0)) == AZK_ILLEGAL); /* not optional */
    AZK_CHECK(azk_step(&G, &CS, azk_encode(AZK_ACT_CHOOSE, G.prompt.n, 0)) == AZK_ILLEGAL);
    int last = G.prompt.n - 1, pick = G.prompt.opt[last];
    AZK_CHECK(answer(last) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND - 1);
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, 1);
    AZK_CHECK_EQ_U64(G.pl[0].discard[0], pick);
    /* optional: declining leaves T empty */
    vm_base();
    uint8_t q[] = {OP(CHOOSE), 1, (uint8_t)S_HAND, 1, OP(DISCARD), 1, OP(VALID), 0, 1, OP(NOT), 0, OP(DRAW), 0,
                   OP(END)};
    ab = load_prog(q, sizeof q);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.optional);
    int32_t legal[128];
    AZK_CHECK_EQ_U64(azk_legal_actions(&G, &CS, legal, 128), G.prompt.n + 1);
    AZK_CHECK(decline() == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, 0);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1); /* T1 empty -> drew 1 */
    /* optional, accepted */
    run(ab);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, 1);
    /* 8 - 1 discarded + 1 drawn: the discarded card is a new object, T1 no longer valid (RULES 2.1) */
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1);
    /* no candidate: no prompt, T empty (both mandatory and optional) */
    vm_base();
    uint8_t e[] = {OP(LOAD), 2, REF_SELF, OP(CHOOSE), 2, (uint8_t)S_GARDEN_ENT, 0, OP(VALID), 0, 2, OP(NOT), 0,
                   OP(CHOOSE), 3, (uint8_t)S_GARDEN_ENT, 1, OP(VALID), 1, 3, OP(NOT), 1, OP(ADD), 0, 1, OP(DRAW), 0,
                   OP(END)};
    ab = load_prog(e, sizeof e);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 2);
    /* exactly one mandatory candidate: taken without asking (RULES 12) */
    vm_base();
    uint8_t one[] = {OP(CHOOSE), 0, (uint8_t)S_LEAD_OPP, 0, OP(SETI), 1, 2, OP(DAMAGE), 0, 1, OP(END)};
    ab = load_prog(one, sizeof one);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 2);
    /* exactly one optional candidate: still asked (yes or no) */
    vm_base();
    uint8_t one_opt[] = {OP(CHOOSE), 0, (uint8_t)S_LEAD_OPP, 1, OP(SETI), 1, 2, OP(DAMAGE), 0, 1, OP(END)};
    ab = load_prog(one_opt, sizeof one_opt);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.n == 1 && G.prompt.optional);
    AZK_CHECK_EQ_U64(G.prompt.opt[0], G.pl[1].leader);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 2);
    run(ab);
    AZK_CHECK(decline() == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 2);
}

static void test_op_may(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 7, OP(MAY), 0, OP(DRAW), 0, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_YES_NO);
    AZK_CHECK(G.prompt.n == 2 && !G.prompt.optional && G.prompt.chooser == 0);
    AZK_CHECK(G.prompt.opt[0] == 0 && G.prompt.opt[1] == 1);
    AZK_CHECK(azk_step(&G, &CS, azk_encode(AZK_ACT_NO_OP, 0, 0)) == AZK_ILLEGAL);
    AZK_CHECK(answer(1) == AZK_OK); /* yes: R0 = 1 */
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1);
    run(ab);
    AZK_CHECK(answer(0) == AZK_OK); /* no: R0 = 0 */
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1);
    /* the chooser is the controller */
    run_ctx(ab, 1, -1, 0);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.chooser == 1 && azk_current_player(&G) == 1);
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[1].hand_n, AZK_STARTING_HAND + 1);
}

static void test_op_choose_num(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, 3, OP(CHOOSE_NUM), 0, 1, OP(DRAW), 0, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_NUMBER);
    AZK_CHECK_EQ_U64(G.prompt.n, 4);
    for (int i = 0; i < 4; i++) AZK_CHECK_EQ_U64(G.prompt.opt[i], i);
    AZK_CHECK(answer(2) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 2);
    run(ab);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 2);
    run(ab);
    AZK_CHECK(answer(3) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 5);
    /* max 0 or negative: R[a] = 0 without asking */
    DRAWS(0, OP(SETI), 0, 5, OP(CHOOSE_NUM), 0, 1, OP(DRAW), 0, OP(END));
    DRAWS(0, OP(SETI), 0, 5, OP(SETI), 1, 0xFE, OP(CHOOSE_NUM), 0, 1, OP(DRAW), 0, OP(END));
    /* max 1: two options */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, 1, OP(CHOOSE_NUM), 1, 1, OP(DRAW), 1, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.n == 2);
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1);
    /* the largest max that fits one prompt is asked in full ... */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, AZK_MAX_OPTIONS - 1, OP(CHOOSE_NUM), 0, 1, OP(DRAW), 0, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT);
    AZK_CHECK_EQ_U64(G.prompt.n, AZK_MAX_OPTIONS);
    AZK_CHECK(answer(5) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 5);
    /* ... one more is an engine bound: never silently capped, the game ends
     * TRUNCATED (OPTIONS) before anything is asked (rules §13) */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, AZK_MAX_OPTIONS, OP(CHOOSE_NUM), 0, 1, OP(DRAW), 0, OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_TRUNCATED && G.end_reason == AZK_END_OPTIONS);
    AZK_CHECK(G.phase == AZK_PHASE_GAME_OVER && G.legal_n == 0);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND);
    INV();
}

/* ---------------------------------------------------------------------------
 * VM: effects
 * ------------------------------------------------------------------------- */
/* A card of player p with definition def, taken from the deck (else hand), or -1. */
static int card_of_def(int p, int def) {
    for (int i = G.pl[p].deck_n - 1; i >= 0; i--)
        if (G.cards[G.pl[p].deck[i]].def == def) return G.pl[p].deck[i];
    for (int i = 0; i < G.pl[p].hand_n; i++)
        if (G.cards[G.pl[p].hand[i]].def == def) return G.pl[p].hand[i];
    return -1;
}
/* Put a card of definition `def` of player p into a garden/alley slot (no triggers). */
static int place(int p, int def, int zone, int slot) {
    int c = card_of_def(p, def);
    AZK_CHECK(c >= 0);
    if (c < 0) return 0;
    azk_move(&G, &CS, c, zone, slot);
    return c;
}
static int sel_def(uint8_t zones, uint8_t side, int def) {
    int s = add_sel(zones, side, 0, 0);
    CS.selectors[s].def = (uint8_t)def;
    return s;
}
/* Definitions used below (default set): entities without abilities. */
enum { DEF_INDRA = 9, DEF_REI = 22, DEF_MISAKI = 26, DEF_SHURIKEN = 11, DEF_ORB = 16 };

static void test_self_is_stale_after_zone_change(void) {
    /* SELF and HOLDER once the source changed zone: a new object (RULES 2.1),
     * so `self` names nothing; a program cannot return its own card to hand
     * and then play it again through `self` (helper found, compiler-rejected) */
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_SELF, OP(VALID), 1, 0, OP(RETURN), 0, OP(LOAD), 0, REF_SELF, OP(VALID), 2, 0,
              OP(NOT), 2, OP(ADD), 1, 2, OP(LOAD), 3, REF_HOLDER, OP(VALID), 2, 3, OP(NOT), 2, OP(ADD), 1, 2,
              OP(DRAW), 1, OP(END));
    int src = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    int h = G.pl[0].hand_n;
    azk_vm_start(&G, &CS, ab, src, 0, -1, 0, -1);
    azk_advance(&G, &CS);
    INV();
    AZK_CHECK(G.cards[src].zone == AZK_Z_HAND);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h + 1 + 3); /* returned, then drew 1 (valid) + 1 (stale) + 1 (no holder) */
}

static void test_defs_assumed(void) {
    const azk_cardset *d = azk_default_cardset();
    AZK_CHECK(d->defs[DEF_INDRA].card_type == AZK_CT_ENTITY && d->defs[DEF_INDRA].ability_count == 0);
    AZK_CHECK(d->defs[DEF_REI].card_type == AZK_CT_ENTITY && d->defs[DEF_REI].ability_count == 0);
    AZK_CHECK(d->defs[DEF_REI].health == 2 && d->defs[DEF_REI].carapace == 0);
    AZK_CHECK(d->defs[DEF_MISAKI].card_type == AZK_CT_ENTITY && (d->defs[DEF_MISAKI].keywords & AZK_KW_EFFECT_IMMUNE));
    AZK_CHECK(d->defs[DEF_SHURIKEN].card_type == AZK_CT_WEAPON);
    AZK_CHECK(d->defs[DEF_ORB].card_type == AZK_CT_SPELL);
    AZK_CHECK(d->decks[0].leader == 0 && d->decks[1].leader == 19);
}

static void test_op_damage(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OPP_LEADER, OP(SETI), 1, 3, OP(DAMAGE), 0, 1, OP(SETI), 1, 0, OP(DAMAGE), 0, 1,
              OP(SETI), 1, 0xFB, OP(DAMAGE), 0, 1, OP(DAMAGE), 1, 1, OP(END));
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 3); /* 0 and -5 deal nothing; T1 empty */
    AZK_CHECK_EQ_U64(G.cards[G.pl[0].leader].damage, 0);
    run(ab);
    AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 6);
    /* entity: damage marks, then destroys at health (state check, RULES 9) */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(SETI), 1, 1, OP(DAMAGE), 0, 1, OP(END));
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 2);
    run(ab);
    AZK_CHECK(G.cards[rei].zone == AZK_Z_GARDEN && G.cards[rei].damage == 1);
    run(ab);
    AZK_CHECK(G.cards[rei].zone == AZK_Z_DISCARD && G.pl[1].garden[2] == AZK_NONE);
    AZK_CHECK_EQ_U64(G.cards[rei].damage, 0);
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, 1);
    /* printed "cannot take damage from card effects" */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(SETI), 1, 5, OP(DAMAGE), 0, 1, OP(END));
    int mis = place(1, DEF_MISAKI, AZK_Z_GARDEN, 0);
    run(ab);
    AZK_CHECK(G.cards[mis].zone == AZK_Z_GARDEN && G.cards[mis].damage == 0);
    /* granted effect immunity and frozen both prevent effect damage */
    for (int k = 0; k < 2; k++) {
        vm_base();
        uint16_t st = k == 0 ? AZK_ST_EFFECT_IMMUNE : AZK_ST_FROZEN;
        uint8_t pr[] = {OP(LOAD), 0, REF_OPP_LEADER, OP(GRANT), 0, ST16(st), AZK_DUR_END_OF_TURN, OP(SETI), 1, 4,
                        OP(DAMAGE), 0, 1, OP(LOAD), 2, REF_OWN_LEADER, OP(DAMAGE), 2, 1, OP(END)};
        ab = load_prog(pr, sizeof pr);
        run(ab);
        AZK_CHECK_EQ_U64(G.cards[G.pl[1].leader].damage, 0);
        AZK_CHECK_EQ_U64(G.cards[G.pl[0].leader].damage, 4); /* the unprotected one is hit */
    }
    /* a card that is not on the field takes no damage */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_HAND, 0, OP(SETI), 1, 3, OP(DAMAGE), 0, 1, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT);
    int c = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(G.cards[c].zone == AZK_Z_HAND && G.cards[c].damage == 0);
    /* lethal damage to a leader ends the game at once; the rest of the program does not run */
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(SETI), 1, 20, OP(DAMAGE), 0, 1, OP(DRAW), 1, OP(END));
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(G.result == AZK_RES_WIN_P1 && G.phase == AZK_PHASE_GAME_OVER && !G.vm.active);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h);
    AZK_CHECK(azk_step(&G, &CS, azk_encode(AZK_ACT_MULLIGAN_KEEP, 0, 0)) == AZK_TERMINAL);
}

static void test_op_mod_attack(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(MOD_ATTACK), 0, 3, AZK_DUR_END_OF_TURN, OP(LOAD), 1,
              REF_OPP_LEADER, OP(MOD_ATTACK), 1, 0xFE, AZK_DUR_WHILE_ON_FIELD, OP(MOD_ATTACK), 2, 9,
              AZK_DUR_END_OF_TURN, OP(END));
    int l0 = G.pl[0].leader, l1 = G.pl[1].leader;
    int a0 = azk_attack_of(&G, &CS, l0), a1 = azk_attack_of(&G, &CS, l1);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, l0), a0 + 3);
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, l1), a1 - 2);
    AZK_CHECK_EQ_U64(G.fx_n, 2); /* T2 empty: nothing */
    run(ab); /* effects stack */
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, l0), a0 + 6);
    /* entity: the modification dies with the object (RULES 2.1); not on field: nothing */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(MOD_ATTACK), 0, 2, AZK_DUR_END_OF_TURN, OP(CHOOSE), 1,
              (uint8_t)S_HAND, 0, OP(MOD_ATTACK), 1, 2, AZK_DUR_END_OF_TURN, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    int base_att = CS.defs[DEF_INDRA].attack;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_CARD);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, e), base_att + 2);
    AZK_CHECK_EQ_U64(G.fx_n, 1);
    azk_move(&G, &CS, e, AZK_Z_ALLEY, 1);
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, e), base_att);
}

static void test_op_grant(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(GRANT), 0, AZK_ST_CHARGE | AZK_ST_DEFENDER, 0, AZK_DUR_END_OF_TURN,
              OP(LOAD), 1, REF_OPP_LEADER, OP(GRANT), 1, ST16(AZK_ST_SHOCKED), AZK_DUR_START_OF_NEXT_TURN, OP(GRANT), 3,
              AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN, OP(END));
    int l0 = G.pl[0].leader, l1 = G.pl[1].leader;
    AZK_CHECK((azk_status_of(&G, &CS, l0) & (AZK_ST_CHARGE | AZK_ST_DEFENDER)) == 0);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK((azk_status_of(&G, &CS, l0) & (AZK_ST_CHARGE | AZK_ST_DEFENDER)) == (AZK_ST_CHARGE | AZK_ST_DEFENDER));
    AZK_CHECK(azk_status_of(&G, &CS, l1) & AZK_ST_SHOCKED);
    AZK_CHECK(!(azk_status_of(&G, &CS, l1) & AZK_ST_CHARGE));
    AZK_CHECK_EQ_U64(G.fx_n, 2);
    /* frozen hides printed keywords (RULES 7) */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(GRANT), 0, ST16(AZK_ST_FROZEN), AZK_DUR_END_OF_TURN, OP(END));
    int mis = place(1, DEF_MISAKI, AZK_Z_GARDEN, 4);
    AZK_CHECK(azk_status_of(&G, &CS, mis) & AZK_ST_EFFECT_IMMUNE);
    run(ab);
    AZK_CHECK(azk_status_of(&G, &CS, mis) & AZK_ST_FROZEN);
    AZK_CHECK(!(azk_status_of(&G, &CS, mis) & AZK_ST_EFFECT_IMMUNE));
    /* a granted status ends with the object */
    azk_move(&G, &CS, mis, AZK_Z_ALLEY, 4);
    AZK_CHECK(!(azk_status_of(&G, &CS, mis) & AZK_ST_FROZEN));
    /* not on the field: nothing */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_HAND, 0, OP(GRANT), 0, AZK_ST_CHARGE, 0, AZK_DUR_WHILE_ON_FIELD, OP(END));
    run(ab);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK_EQ_U64(G.fx_n, 0);
}

static void test_op_draw(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 2, OP(DRAW), 0, OP(END));
    int top = G.pl[0].deck[G.pl[0].deck_n - 1], next = G.pl[0].deck[G.pl[0].deck_n - 2];
    int opp_hand = G.pl[1].hand_n, opp_deck = G.pl[1].deck_n;
    run(ab);
    AZK_CHECK(G.cards[top].zone == AZK_Z_HAND && G.cards[next].zone == AZK_Z_HAND); /* from the top */
    AZK_CHECK_EQ_U64(G.pl[0].deck_n, AZK_DECK_MAIN - AZK_STARTING_HAND - 2);
    AZK_CHECK(G.pl[1].hand_n == opp_hand && G.pl[1].deck_n == opp_deck);
    run_ctx(ab, 1, -1, 0); /* the controller draws */
    AZK_CHECK_EQ_U64(G.pl[1].hand_n, opp_hand + 2);
    /* the whole deck: fine; one more: the drawing player loses (RULES 9) */
    vm_base();
    LOAD_PROG(ab, OP(CTX), 0, CTXV_DECK_SIZE, OP(DRAW), 0, OP(DRAW), 1, OP(SETI), 1, 1, OP(DRAW), 1, OP(SETI), 2, 5,
              OP(MILL), 2, OP(END));
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].deck_n, 0);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_DECK_MAIN);
    AZK_CHECK(G.result == AZK_RES_WIN_P1);
    AZK_CHECK(G.phase == AZK_PHASE_GAME_OVER && !G.vm.active && azk_is_terminal(&G) && azk_winner(&G) == 1);
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, 0);
    /* player 1 drawing from an empty deck: player 0 wins */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 100, OP(MILL), 0, OP(DRAW), 1, OP(SETI), 1, 1, OP(DRAW), 1, OP(END));
    run_ctx(ab, 1, -1, 0);
    AZK_CHECK_EQ_U64(G.pl[1].deck_n, 0);
    AZK_CHECK(G.result == AZK_RES_WIN_P0 && azk_winner(&G) == 0); /* DRAW 0 from the empty deck did not lose */
}

static void test_op_mill(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(MILL), 0, OP(END));
    azk_player *pl = &G.pl[0];
    int t[3] = {pl->deck[pl->deck_n - 1], pl->deck[pl->deck_n - 2], pl->deck[pl->deck_n - 3]};
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(pl->deck_n, AZK_DECK_MAIN - AZK_STARTING_HAND - 3);
    AZK_CHECK_EQ_U64(pl->discard_n, 3);
    AZK_CHECK_EQ_U64(pl->hand_n, AZK_STARTING_HAND);
    for (int i = 0; i < 3; i++) AZK_CHECK_EQ_U64(pl->discard[i], t[i]); /* the top card went first */
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, 0);
    /* more than the deck: mills what is there, no loss (RULES 9) */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 100, OP(MILL), 0, OP(SETI), 1, 0xFF, OP(MILL), 1, OP(END));
    run_ctx(ab, 1, -1, 0);
    AZK_CHECK(idle() && G.result == AZK_RES_ONGOING);
    AZK_CHECK_EQ_U64(G.pl[1].deck_n, 0);
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, AZK_DECK_MAIN - AZK_STARTING_HAND);
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, 0);
}

static void test_op_discard(void) {
    int ab;
    /* a field entity goes to its owner's discard pile with its weapons */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(DISCARD), 0, OP(DISCARD), 1, OP(END));
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 1);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[rei].zone == AZK_Z_DISCARD && G.pl[1].discard_n == 1 && G.pl[0].discard_n == 0);
    AZK_CHECK(G.pl[1].garden[1] == AZK_NONE);
    /* the opponent's hand card: to its owner's pile */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 2, (uint8_t)S_OPP_HAND, 0, OP(DISCARD), 2, OP(DISCARD), 2, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.chooser == 0);
    int c = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(G.cards[c].zone == AZK_Z_DISCARD && G.cards[c].owner == 1);
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, 1); /* the second DISCARD names a dead object: nothing */
    AZK_CHECK_EQ_U64(G.pl[1].hand_n, AZK_STARTING_HAND - 1);
}

static void test_op_return(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN_ENT, 0, OP(RETURN), 0, OP(END));
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 3);
    int h0 = G.pl[0].hand_n, h1 = G.pl[1].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[rei].zone == AZK_Z_HAND && G.pl[1].garden[3] == AZK_NONE);
    AZK_CHECK_EQ_U64(G.pl[1].hand_n, h1 + 1); /* its owner's hand */
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h0);
    /* alley too; godmode: nothing */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_FIELD_ENT_SELF, 0, OP(GRANT), 0, AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN,
              OP(RETURN), 0, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_ALLEY, 0);
    run(ab);
    AZK_CHECK(G.cards[e].zone == AZK_Z_ALLEY);
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_FIELD_ENT_SELF, 0, OP(RETURN), 0, OP(END));
    e = place(0, DEF_INDRA, AZK_Z_ALLEY, 0);
    run(ab);
    AZK_CHECK(G.cards[e].zone == AZK_Z_HAND);
    /* not from the leader zone, not from the hand */
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(RETURN), 0, OP(CHOOSE), 1, (uint8_t)S_HAND, 0, OP(RETURN), 1,
              OP(END));
    run(ab);
    int c = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(G.cards[G.pl[0].leader].zone == AZK_Z_LEADER);
    AZK_CHECK(G.cards[c].zone == AZK_Z_HAND);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND);
}

static void test_op_play_free(void) {
    int ab;
    /* entity, garden: one SLOT prompt per empty slot; no IKZ paid */
    vm_base();
    int s_indra = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_indra, 0, OP(PLAY_FREE), 0, 1, OP(END));
    int e = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, e, AZK_Z_HAND, 0);
    put_ikz(0, 5, 0);
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SLOT);
    AZK_CHECK_EQ_U64(G.prompt.n, AZK_ROW);
    for (int i = 0; i < AZK_ROW; i++) AZK_CHECK_EQ_U64(G.prompt.opt[i], i);
    AZK_CHECK(answer(2) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].garden[2] == e && G.cards[e].zone == AZK_Z_GARDEN);
    AZK_CHECK(G.cards[e].flags & AZK_CF_COOLDOWN);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h - 1);
    AZK_CHECK_EQ_U64(azk_untapped_ikz(&G, 0), 5);
    AZK_CHECK_EQ_U64(G.pl[0].played_entities, 1);
    /* alley: options 8 + slot */
    vm_base();
    s_indra = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_indra, 0, OP(PLAY_FREE), 0, 2, OP(END));
    e = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, e, AZK_Z_HAND, 0);
    place(0, 2, AZK_Z_ALLEY, 0); /* slot 0 taken by a Crate Rat (def 2) */
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SLOT);
    AZK_CHECK_EQ_U64(G.prompt.n, AZK_ROW - 1);
    AZK_CHECK_EQ_U64(G.prompt.opt[0], 8 + 1);
    AZK_CHECK(answer(G.prompt.n - 1) == AZK_OK);
    AZK_CHECK(G.pl[0].alley[4] == e && !(G.cards[e].flags & AZK_CF_COOLDOWN));
    /* either: garden and alley slots */
    vm_base();
    s_indra = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_indra, 0, OP(PLAY_FREE), 0, 3, OP(END));
    e = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, e, AZK_Z_HAND, 0);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.n == 2 * AZK_ROW);
    AZK_CHECK(answer(AZK_ROW) == AZK_OK); /* option 8: alley slot 0 */
    AZK_CHECK(G.pl[0].alley[0] == e);
    /* full garden: every slot is a replacement (RULES 2.3); exactly one empty slot: no prompt */
    vm_base();
    s_indra = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_indra, 0, OP(PLAY_FREE), 0, 1, OP(END));
    e = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, e, AZK_Z_HAND, 0);
    int filler[AZK_ROW];
    for (int i = 0; i < AZK_ROW - 1; i++) filler[i] = place(0, 2 + (i & 1), AZK_Z_GARDEN, i);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].garden[AZK_ROW - 1] == e);
    vm_base();
    s_indra = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_indra, 0, OP(PLAY_FREE), 0, 1, OP(END));
    e = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, e, AZK_Z_HAND, 0);
    for (int i = 0; i < AZK_ROW; i++) filler[i] = place(0, 2 + (i & 1), AZK_Z_GARDEN, i);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.n == AZK_ROW);
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(G.pl[0].garden[1] == e && G.cards[filler[1]].zone == AZK_Z_DISCARD);
    /* weapon: the leader is the only holder -> attached without asking; with a garden entity: HOLDER prompt */
    vm_base();
    int s_shur = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_SHURIKEN);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_shur, 0, OP(PLAY_FREE), 0, 3, OP(END));
    int w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_HAND, 0);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].weapons_n, 1);
    w = G.pl[0].weapons[0]; /* a copy of the chosen definition (copies in hand are one option) */
    AZK_CHECK(G.cards[w].def == DEF_SHURIKEN && G.cards[w].holder == G.pl[0].leader);
    w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_HAND, 0);
    e = place(0, DEF_INDRA, AZK_Z_GARDEN, 3);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_HOLDER && G.prompt.n == 2);
    AZK_CHECK(G.prompt.opt[0] == 0 && G.prompt.opt[1] == 4);
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].weapons_n, 2);
    w = G.pl[0].weapons[1];
    AZK_CHECK(G.cards[w].def == DEF_SHURIKEN && G.cards[w].holder == e);
    AZK_CHECK_EQ_U64(azk_attack_of(&G, &CS, e), CS.defs[DEF_INDRA].attack + CS.defs[DEF_SHURIKEN].attack);
    /* a spell, or an empty T register: nothing */
    vm_base();
    int s_orb = sel_def(AZK_SZ_HAND, AZK_SIDE_SELF, DEF_ORB);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_orb, 0, OP(PLAY_FREE), 0, 3, OP(PLAY_FREE), 1, 3, OP(END));
    int orb = card_of_def(0, DEF_ORB);
    azk_move(&G, &CS, orb, AZK_Z_HAND, 0);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[orb].zone == AZK_Z_HAND);
}

static void test_op_tap(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(TAP), 0, OP(CHOOSE), 1, (uint8_t)S_HAND, 0, OP(TAP), 1, OP(TAP), 2,
              OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT);
    int c = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[G.pl[0].leader].flags & AZK_CF_TAPPED);
    AZK_CHECK(!(G.cards[G.pl[1].leader].flags & AZK_CF_TAPPED));
    AZK_CHECK(!(G.cards[c].flags & AZK_CF_TAPPED)); /* not on the field */
    /* an entity; tapping twice is harmless */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(TAP), 0, OP(TAP), 0, OP(END));
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 0);
    run(ab);
    AZK_CHECK(G.cards[rei].flags & AZK_CF_TAPPED);
    AZK_CHECK(G.cards[rei].zone == AZK_Z_GARDEN);
}

static void test_op_sacrifice(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(GRANT), 0, AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN,
              OP(SACRIFICE), 0, OP(SACRIFICE), 0, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    int w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_WEAPON, 0);
    G.cards[w].holder = (uint8_t)e;
    INV();
    run(ab);
    AZK_CHECK(idle());
    /* a cost: godmode does not stop it (RULES 7); the weapon follows (RULES 5.3) */
    AZK_CHECK(G.cards[e].zone == AZK_Z_DISCARD && G.pl[0].garden[0] == AZK_NONE);
    AZK_CHECK(G.cards[w].zone == AZK_Z_DISCARD);
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, 2);
}

static void test_op_look_to_hand_bottom(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(LOOK), 0, OP(CHOOSE), 1, (uint8_t)S_LOOK, 0, OP(TO_HAND), 1, OP(VALID), 2, 1,
              OP(DRAW), 2, OP(BOTTOM_LOOKED), OP(END));
    /* stack three different definitions on top: 2 (bottom of the three), 3, 4 (top) */
    int stack[3];
    for (int i = 0; i < 3; i++) {
        stack[i] = card_of_def(0, 2 + i);
        azk_move(&G, &CS, stack[i], AZK_Z_DECK, 1);
    }
    INV();
    azk_player *pl = &G.pl[0];
    int deck0 = pl->deck_n, h = pl->hand_n;
    run(ab);
    /* looked at, top first; a CARD prompt over them */
    AZK_CHECK_EQ_U64(pl->look_n, 3);
    AZK_CHECK_EQ_U64(pl->deck_n, deck0 - 3);
    AZK_CHECK(pl->look[0] == stack[2] && pl->look[1] == stack[1] && pl->look[2] == stack[0]);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_CARD && G.prompt.n == 3);
    AZK_CHECK(answer(1) == AZK_OK); /* take stack[1] */
    /* TO_HAND keeps T naming the card (VALID -> drew 1); then the bottom order prompt */
    AZK_CHECK(G.cards[stack[1]].zone == AZK_Z_HAND);
    AZK_CHECK_EQ_U64(pl->hand_n, h + 2);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_BOTTOM_ORDER && G.prompt.n == 2);
    AZK_CHECK_EQ_U64(pl->look_n, 2);
    int first = G.prompt.opt[1], second = G.prompt.opt[0];
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(pl->look_n, 0);
    AZK_CHECK_EQ_U64(pl->deck_n, deck0 - 3 + 2 - 1); /* -3 looked, +2 bottomed, -1 drawn */
    /* each goes beneath the previous one: the last picked is the very bottom (rulings 2) */
    AZK_CHECK(pl->deck[0] == second && pl->deck[1] == first);
    AZK_CHECK(G.cards[first].zone == AZK_Z_DECK && G.cards[second].zone == AZK_Z_DECK);
    /* LOOK up to the look zone's capacity leaves nothing stranded:
     * unbottomed looked-at cards return at END */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, AZK_LOOK_CAP, OP(LOOK), 0, OP(COUNT), 1, (uint8_t)S_LOOK, OP(SETI), 2, AZK_LOOK_CAP,
              OP(SUB), 1, 2, OP(NOT), 1, OP(DRAW), 1, OP(END));
    deck0 = G.pl[0].deck_n;
    h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].look_n, 0);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h + 1); /* COUNT saw exactly AZK_LOOK_CAP cards */
    AZK_CHECK_EQ_U64(G.pl[0].deck_n, deck0 - 1);
    /* more than the look zone holds is a bound, not a silent cut (rules §13) */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, AZK_LOOK_CAP + 1, OP(LOOK), 0, OP(DRAW), 0, OP(END));
    deck0 = G.pl[0].deck_n;
    run(ab);
    AZK_CHECK(G.result == AZK_RES_TRUNCATED && G.end_reason == AZK_END_LOOK);
    AZK_CHECK_EQ_U64(G.pl[0].deck_n, deck0);
    INV();
    /* identical copies are one option: three copies of one definition need no prompt */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(LOOK), 0, OP(BOTTOM_LOOKED), OP(END));
    for (int k = 0; k < 3; k++) /* from the bottom up, so no copy is moved twice */
        for (int i = 0; i < G.pl[0].deck_n - k; i++)
            if (G.cards[G.pl[0].deck[i]].def == 2) {
                azk_move(&G, &CS, G.pl[0].deck[i], AZK_Z_DECK, 1);
                break;
            }
    for (int i = 0; i < 3; i++) AZK_CHECK_EQ_U64(G.cards[G.pl[0].deck[G.pl[0].deck_n - 1 - i]].def, 2);
    run(ab);
    AZK_CHECK(idle());
    for (int i = 0; i < 3; i++) AZK_CHECK_EQ_U64(G.cards[G.pl[0].deck[i]].def, 2);
    /* TO_HAND from the discard pile ("in a pile") */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 1, OP(MILL), 0, OP(CHOOSE), 0, (uint8_t)S_DISC, 0, OP(TO_HAND), 0, OP(END));
    int top = G.pl[0].deck[G.pl[0].deck_n - 1];
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[top].zone == AZK_Z_HAND && G.pl[0].discard_n == 0);
}

static void test_op_foreach_next(void) {
    int ab;
    /* counting loop over the hand: every card, copies included
     * 0 FOREACH t0 hand ->12 | 5 ADDI r1 1 | 8 NEXT t0 ->5 | 12 DRAW r1 | 14 END */
    vm_base();
    LOAD_PROG(ab, OP(FOREACH), 0, (uint8_t)S_HAND, J(12), OP(ADDI), 1, 1, OP(NEXT), 0, J(5), OP(DRAW), 1, OP(END));
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, 2 * AZK_STARTING_HAND);
    AZK_CHECK(G.vm.each_n == 0 && G.vm.each_i == 0);
    /* no match: straight to the skip target
     * 0 SETI r1 1 | 3 FOREACH t0 opp garden ->15 | 8 ADDI r1 4 | 11 NEXT t0 ->8 | 15 DRAW r1 | 17 END */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, 1, OP(FOREACH), 0, (uint8_t)S_OPP_GARDEN, J(15), OP(ADDI), 1, 4, OP(NEXT), 0, J(8),
              OP(DRAW), 1, OP(END));
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + 1);
    /* T names each card in turn: discard the whole hand
     * 0 FOREACH t0 hand ->11 | 5 DISCARD t0 | 7 NEXT t0 ->5 | 11 END */
    vm_base();
    LOAD_PROG(ab, OP(FOREACH), 0, (uint8_t)S_HAND, J(11), OP(DISCARD), 0, OP(NEXT), 0, J(5), OP(END));
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, 0);
    AZK_CHECK_EQ_U64(G.pl[0].discard_n, AZK_STARTING_HAND);
    /* damage each opposing garden entity once
     * 0 SETI r1 1 | 3 FOREACH t0 ->15 | 8 DAMAGE t0 r1 | 11 NEXT t0 ->8 | 15 END */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, 1, OP(FOREACH), 0, (uint8_t)S_OPP_GARDEN, J(15), OP(DAMAGE), 0, 1, OP(NEXT), 0, J(8),
              OP(END));
    int r[3];
    for (int k = 0; k < 3; k++) r[k] = place(1, DEF_REI, AZK_Z_GARDEN, 2 * k);
    int own = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    run(ab);
    for (int k = 0; k < 3; k++) AZK_CHECK(G.cards[r[k]].zone == AZK_Z_GARDEN && G.cards[r[k]].damage == 1);
    AZK_CHECK_EQ_U64(G.cards[own].damage, 0);
    run(ab); /* second pass destroys all three (health 2) */
    for (int k = 0; k < 3; k++) AZK_CHECK(G.cards[r[k]].zone == AZK_Z_DISCARD);
    /* snapshot cards that changed zone meanwhile are skipped (RULES 2.1)
     * 0 FOREACH t0 opp garden ->18 | 5 ADDI r1 1 | 8 CHOOSE t1 <opp garden but T0> | 12 DISCARD t1
     * | 14 NEXT t0 ->5 | 18 DRAW r1 | 20 END */
    vm_base();
    int excl = add_sel(AZK_SZ_GARDEN, AZK_SIDE_OPP, 0, 0);
    CS.selectors[excl].exclude_t = 0;
    LOAD_PROG(ab, OP(FOREACH), 0, (uint8_t)S_OPP_GARDEN, J(18), OP(ADDI), 1, 1, OP(CHOOSE), 1, (uint8_t)excl, 0,
              OP(DISCARD), 1, OP(NEXT), 0, J(5), OP(DRAW), 1, OP(END));
    for (int k = 0; k < 3; k++) r[k] = place(1, DEF_REI, AZK_Z_GARDEN, k);
    int h = G.pl[0].hand_n;
    run(ab);
    /* first pass (r0): choose between r1 and r2 */
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.n == 2);
    AZK_CHECK(G.prompt.opt[0] == r[1] && G.prompt.opt[1] == r[2]);
    AZK_CHECK(answer(0) == AZK_OK); /* discard r1 */
    /* r1 is skipped; second pass (r2): r0 is the only other one, taken without asking */
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[r[0]].zone == AZK_Z_DISCARD && G.cards[r[1]].zone == AZK_Z_DISCARD);
    AZK_CHECK(G.cards[r[2]].zone == AZK_Z_GARDEN);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h + 2); /* two passes */
    /* two loops in a row reuse the frame */
    vm_base();
    LOAD_PROG(ab, OP(FOREACH), 0, (uint8_t)S_HAND, J(12), OP(ADDI), 1, 1, OP(NEXT), 0, J(5), OP(FOREACH), 2,
              (uint8_t)S_LEADERS, J(24), OP(ADDI), 1, 1, OP(NEXT), 2, J(17), OP(DRAW), 1, OP(END));
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, 2 * AZK_STARTING_HAND + 2);
}

/* Pure programs run as conditions: R[0] != 0 at END is the answer. */
static void test_condition_programs(void) {
    vm_base();
    static const uint8_t yes[] = {OP(SETI), 0, 1, OP(END)};
    static const uint8_t no[] = {OP(SETI), 0, 1, OP(SETI), 1, 1, OP(JZ), 1, J(13), OP(SETI), 0, 0, OP(END)};
    uint16_t py = add_code(yes, sizeof yes, 1), pn = add_code(no, sizeof no, 1);
    uint8_t cnt[] = {OP(COUNT), 0, (uint8_t)S_LEADERS, OP(GEI), 0, 2, OP(END)};
    uint8_t hand[] = {OP(CTX), 0, CTXV_HAND_SIZE, OP(GEI), 0, 8, OP(END)};
    uint16_t pc = add_code(cnt, sizeof cnt, 1), ph = add_code(hand, sizeof hand, 1);
    add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, py, pn);
    add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, pc, ph);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    AZK_CHECK(azk_game_init(&G, &CS, 12345, 0, 1) == AZK_OK);
    int src = G.pl[0].leader;
    AZK_CHECK(azk_vm_condition(&G, &CS, py, src, 0) == 1);
    AZK_CHECK(azk_vm_condition(&G, &CS, pn, src, 0) == 0);
    AZK_CHECK(azk_vm_condition(&G, &CS, pc, src, 0) == 1);
    AZK_CHECK(azk_vm_condition(&G, &CS, ph, src, 0) == 0); /* 7 cards */
    INV();
}

/* ---------------------------------------------------------------------------
 * Execution bound
 * ------------------------------------------------------------------------- */
static void test_step_limit(void) {
    int ab;
    /* a jump to itself is a legal effect program; it is stopped, not hung,
     * and the game ends TRUNCATED with the bound named (rules §13): nobody
     * plays on from a half-run ability */
    vm_base();
    LOAD_PROG(ab, OP(JMP), J(0), OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_TRUNCATED && G.end_reason == AZK_END_VM_STEPS);
    AZK_CHECK(G.phase == AZK_PHASE_GAME_OVER && !G.vm.active && G.legal_n == 0);
    AZK_CHECK(azk_step(&G, &CS, azk_encode(AZK_ACT_MULLIGAN_KEEP, 0, 0)) == AZK_TERMINAL);
    INV();
    /* reached in the step that answers a prompt: the step is applied (OK), the game is over */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 2, OP(LOOK), 0, OP(MAY), 1, OP(JZ), 2, J(7), OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.result == AZK_RES_ONGOING);
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(G.result == AZK_RES_TRUNCATED && G.end_reason == AZK_END_VM_STEPS);
    INV();
    /* a long but finite loop (~3 * 1016 instructions) completes, twice that does not
     * 0 SETI r0 127 | 3 ADD r0 r0 (x3 = 1016, x4 = 2032) | L: ADDI r0 -1 | JZ r0 ->done | JMP L | done: DRAW r2 */
    for (int k = 0; k < 2; k++) {
        vm_base();
        uint8_t p[64];
        int n = 0;
        p[n++] = OP(SETI), p[n++] = 0, p[n++] = 127;
        p[n++] = OP(SETI), p[n++] = 2, p[n++] = 1;
        for (int d = 0; d < 3 + k; d++) p[n++] = OP(ADD), p[n++] = 0, p[n++] = 0;
        int loop = n;
        p[n++] = OP(ADDI), p[n++] = 0, p[n++] = 0xFF;
        int done = n + 4 + 3;
        p[n++] = OP(JZ), p[n++] = 0, p[n++] = (uint8_t)done, p[n++] = 0;
        p[n++] = OP(JMP), p[n++] = (uint8_t)loop, p[n++] = 0;
        p[n++] = OP(DRAW), p[n++] = 2;
        p[n++] = OP(END);
        ab = load_prog(p, n);
        run(ab);
        AZK_CHECK_EQ_U64(G.end_reason, k == 0 ? AZK_END_NONE : AZK_END_VM_STEPS);
        AZK_CHECK_EQ_U64(G.result, k == 0 ? AZK_RES_ONGOING : AZK_RES_TRUNCATED);
        AZK_CHECK_EQ_U64(G.pl[0].hand_n, AZK_STARTING_HAND + (k == 0));
    }
}

/* ---------------------------------------------------------------------------
 * Verified programs and the rules: godmode, and cards that never leave play
 * ------------------------------------------------------------------------- */
/* RULES 7: a godmode card "does not leave the field because of ... card
 * effects (effects that would move it do nothing to it)"; only costs
 * (SACRIFICE) still move it. RETURN honours this; DISCARD must as well. */
static void test_discard_respects_godmode(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(GRANT), 0, AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN,
              OP(DISCARD), 0, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[e].zone == AZK_Z_GARDEN);
}

/* RETURN_COST is a cost its controller pays: godmode does not stop it,
 * while a plain RETURN does nothing to a godmode card (RULES §7, Aya D13). */
static void test_return_cost_moves_godmode(void) {
    static const uint8_t ops[2] = {AZK_OP_RETURN, AZK_OP_RETURN_COST};
    for (int k = 0; k < 2; k++) {
        int ab;
        vm_base();
        LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(GRANT), 0, AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN,
                  ops[k], 0, OP(END));
        int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
        run(ab);
        AZK_CHECK(idle());
        AZK_CHECK(G.cards[e].zone == (k == 0 ? AZK_Z_GARDEN : AZK_Z_HAND));
        AZK_CHECK(azk_check_invariants(&G, &CS) == 0);
    }
}

/* Activated abilities belong to leaders and entities only, and only an
 * entity can pay "sacrifice this" (found by fuzz_cards: a leader whose
 * activated ability carried the sacrifice flag put itself in the discard). */
static void test_verify_activation_owner(void) {
    int leader = -1, weapon = -1;
    base();
    for (int d = 0; d < CS.num_defs; d++) {
        const azk_card_def *def = &CS.defs[d];
        for (int i = 0; i < def->ability_count; i++) {
            int kind = CS.abilities[def->ability_first + i].kind;
            if (def->card_type == AZK_CT_LEADER && kind == AZK_AB_ACTIVATED && leader < 0) leader = def->ability_first + i;
            if (def->card_type == AZK_CT_WEAPON && kind == AZK_AB_TRIGGERED && weapon < 0) weapon = def->ability_first + i;
        }
    }
    AZK_CHECK(leader >= 0 && weapon >= 0);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[leader].flags |= AZK_ABF_SACRIFICE_COST;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_ERR_CARDSET);
    base();
    CS.abilities[weapon].kind = AZK_AB_ACTIVATED;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_ERR_CARDSET);
    base(); /* an entity may still sacrifice itself */
    for (int d = 0; d < CS.num_defs; d++)
        for (int i = 0; i < CS.defs[d].ability_count; i++)
            if (CS.defs[d].card_type == AZK_CT_ENTITY && CS.abilities[CS.defs[d].ability_first + i].kind == AZK_AB_ACTIVATED)
                CS.abilities[CS.defs[d].ability_first + i].flags |= AZK_ABF_SACRIFICE_COST;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
}

/* A verified card set must not be able to break the game.h invariants: a
 * leader (or gate, or IKZ card) named by a T register and moved by DISCARD /
 * SACRIFICE / TO_HAND / RETURN must stay where it is. */
static void test_leader_cannot_be_moved(void) {
    static const uint8_t movers[] = {AZK_OP_DISCARD, AZK_OP_SACRIFICE, AZK_OP_TO_HAND, AZK_OP_RETURN,
                                     AZK_OP_RETURN_COST};
    for (size_t k = 0; k < sizeof movers; k++) {
        int ab;
        vm_base();
        LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, movers[k], 0, OP(LOAD), 1, REF_OPP_LEADER, movers[k], 1, OP(END));
        run(ab);
        if (azk_check_invariants(&G, &CS) != 0) fprintf(stderr, "  (opcode %d moved a leader)\n", movers[k]);
        AZK_CHECK(G.cards[G.pl[0].leader].zone == AZK_Z_LEADER);
        AZK_CHECK(G.cards[G.pl[1].leader].zone == AZK_Z_LEADER);
    }
}

/* ---------------------------------------------------------------------------
 * Declared operand kinds and properties (azk_opcodes.def)
 * ------------------------------------------------------------------------- */
/* A valid value of each kind (jumps: to the END that follows), and a value
 * the verifier must reject (-1: every byte is valid). */
/* --- deck --- (docs/rules.md §17) */
/* A selector for SEARCH: no zones, definition `def` (AZK_NONE: any). */
static int sel_search(int def) {
    int s = add_sel(0, AZK_SIDE_ANY, 0, 0);
    CS.selectors[s].def = (uint8_t)def;
    return s;
}

static void test_op_search(void) {
    int ab;
    /* options: one per matching definition, in definition order, the lowest card index of each */
    vm_base();
    int s_all = sel_search(AZK_NONE);
    LOAD_PROG(ab, OP(SEARCH), 0, (uint8_t)s_all, OP(TO_HAND), 0, OP(SHUFFLE), 0, OP(END));
    azk_player *pl = &G.pl[0];
    int deck0 = pl->deck_n, h = pl->hand_n;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SEARCH && G.prompt.optional == 1);
    AZK_CHECK_EQ_U64(G.prompt.n, (uint64_t)distinct_defs(pl->deck, pl->deck_n));
    for (int i = 1; i < G.prompt.n; i++) AZK_CHECK(G.cards[G.prompt.opt[i - 1]].def < G.cards[G.prompt.opt[i]].def);
    for (int i = 0; i < G.prompt.n; i++) {
        int c = G.prompt.opt[i];
        AZK_CHECK(G.cards[c].zone == AZK_Z_DECK && G.cards[c].owner == 0);
        for (int j = 0; j < pl->deck_n; j++)
            if (G.cards[pl->deck[j]].def == G.cards[c].def) AZK_CHECK(pl->deck[j] >= c);
    }
    int found = G.prompt.opt[1];
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[found].zone == AZK_Z_HAND && (G.cards[found].flags & AZK_CF_REVEALED));
    AZK_CHECK(azk_card_known(&G, 1, found) == 1);
    AZK_CHECK_EQ_U64(pl->hand_n, h + 1);
    AZK_CHECK_EQ_U64(pl->deck_n, deck0 - 1);
    for (int j = 0; j < pl->deck_n; j++) AZK_CHECK(G.cards[pl->deck[j]].seen == 0);
    /* declining (fail to find) is always allowed; the deck is still shuffled */
    vm_base();
    s_all = sel_search(AZK_NONE);
    LOAD_PROG(ab, OP(SEARCH), 0, (uint8_t)s_all, OP(VALID), 1, 0, OP(DRAW), 1, OP(TO_HAND), 0, OP(SHUFFLE), 0,
              OP(END));
    deck0 = pl->deck_n;
    h = pl->hand_n;
    run(ab);
    AZK_CHECK(decline() == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(pl->hand_n, h);   /* nothing found: T empty, VALID 0, no draw */
    AZK_CHECK_EQ_U64(pl->deck_n, deck0);
    /* no match: no prompt, T empty */
    vm_base();
    int s_none = sel_search(DEF_INDRA);
    CS.selectors[s_none].cost_min = 100;
    LOAD_PROG(ab, OP(SEARCH), 0, (uint8_t)s_none, OP(VALID), 1, 0, OP(NOT), 1, OP(DRAW), 1, OP(END));
    h = pl->hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(pl->hand_n, h + 1);
    /* the card found is revealed where it lies until it moves (known to both: seen 3) */
    vm_base();
    int s_indra = sel_search(DEF_INDRA);
    LOAD_PROG(ab, OP(SEARCH), 0, (uint8_t)s_indra, OP(PLAY_FREE), 0, 1, OP(SHUFFLE), 0, OP(END));
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SEARCH && G.prompt.n == 1);
    int indra = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SLOT);
    AZK_CHECK(G.cards[indra].zone == AZK_Z_DECK && G.cards[indra].seen == 3);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].garden[0] == indra);
}

static void test_op_search_verifier(void) {
    /* SEARCH reads its selector's props on the deck: a selector with zones is rejected */
    base();
    int z = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 0, 0);
    uint8_t p[] = {OP(SEARCH), 0, (uint8_t)z, OP(END)};
    uint16_t pc = add_code(p, sizeof p, 1);
    add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    AZK_CHECK(azk_verify_program(&CS, pc, 0) != 0);
    base();
    z = add_sel(0, AZK_SIDE_SELF, 0, 0);
    p[2] = (uint8_t)z;
    pc = add_code(p, sizeof p, 1);
    add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    /* never in a condition: it asks */
    REJECT_PURE(OP(SHUFFLE), 0, OP(END));
    REJECT(OP(SHUFFLE), 2, OP(END));
    REJECT(OP(PUT_ON_DECK), 0, 2, OP(END));
    ACCEPT(OP(TOP_LOOKED), OP(END));
}

static void test_op_shuffle(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(LOOK), 0, OP(TOP_LOOKED), OP(SHUFFLE), 1, OP(END));
    /* three copies on top: no prompt; the controller knows them; SHUFFLE 1 is the opponent's deck */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < G.pl[0].deck_n - k; i++)
            if (G.cards[G.pl[0].deck[i]].def == 2) {
                azk_move(&G, &CS, G.pl[0].deck[i], AZK_Z_DECK, 1);
                break;
            }
    uint8_t opp_before[AZK_DECK_CAP];
    memcpy(opp_before, G.pl[1].deck, G.pl[1].deck_n);
    run(ab);
    AZK_CHECK(idle());
    for (int i = 0; i < 3; i++) AZK_CHECK_EQ_U64(G.cards[G.pl[0].deck[G.pl[0].deck_n - 1 - i]].seen, 1);
    AZK_CHECK(memcmp(opp_before, G.pl[1].deck, G.pl[1].deck_n) != 0); /* 50 cards: a shuffle moves some */
    /* SHUFFLE 0: own deck; every known position is gone */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(LOOK), 0, OP(TOP_LOOKED), OP(SHUFFLE), 0, OP(END));
    run(ab);
    for (int guard = 0; G.vm.active && guard < 5; guard++) answer(0);
    AZK_CHECK(idle());
    for (int i = 0; i < G.pl[0].deck_n; i++) {
        AZK_CHECK(G.cards[G.pl[0].deck[i]].seen == 0);
        AZK_CHECK(G.cards[G.pl[0].deck[i]].pos == i);
    }
}

static void test_op_top_looked(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(SETI), 0, 3, OP(LOOK), 0, OP(TOP_LOOKED), OP(END));
    int stack[3];
    for (int i = 0; i < 3; i++) { /* definitions 2, 3, 4; 4 on top */
        stack[i] = card_of_def(0, 2 + i);
        azk_move(&G, &CS, stack[i], AZK_Z_DECK, 1);
    }
    azk_player *pl = &G.pl[0];
    int deck0 = pl->deck_n;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_TOP_ORDER && G.prompt.n == 3);
    AZK_CHECK(G.prompt.optional == 0);
    int a = G.prompt.opt[0];
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_TOP_ORDER && G.prompt.n == 2);
    int b = G.prompt.opt[1], c = G.prompt.opt[0];
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(pl->deck_n, deck0);
    /* each on top of the previous one: the last one placed is the top */
    AZK_CHECK(pl->deck[deck0 - 1] == c && pl->deck[deck0 - 2] == b && pl->deck[deck0 - 3] == a);
    for (int i = 1; i <= 3; i++) AZK_CHECK_EQ_U64(G.cards[pl->deck[deck0 - i]].seen, 1); /* the owner only */
    AZK_CHECK(azk_card_known(&G, 0, a) == 1 && azk_card_known(&G, 1, a) == 0);
    /* the known positions are part of the hash and survive serialization */
    uint64_t h0 = azk_hash(&G);
    static azk_game G2;
    static uint8_t buf[1 << 16];
    AZK_CHECK(azk_serialized_size() <= sizeof buf);
    size_t n = azk_serialize(&G, &CS, buf, sizeof buf);
    AZK_CHECK(n > 0);
    AZK_CHECK(azk_deserialize(&G2, &CS, buf, n) == AZK_OK);
    AZK_CHECK(azk_hash(&G2) == h0 && G2.cards[a].seen == 1);
    G2.cards[a].seen = 3;
    AZK_CHECK(azk_hash(&G2) != h0);
}

static void test_op_put_on_deck(void) {
    int ab;
    /* from the opponent's garden to the top of its owner's deck: known to both */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(PUT_ON_DECK), 0, 0, OP(END));
    int e = place(1, DEF_REI, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    int deck1 = G.pl[1].deck_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[e].zone == AZK_Z_DECK && G.pl[1].deck[G.pl[1].deck_n - 1] == e);
    AZK_CHECK_EQ_U64(G.pl[1].deck_n, deck1 + 1);
    AZK_CHECK(G.cards[e].seen == 3 && G.pl[1].garden[0] == AZK_NONE);
    /* its owner draws it: the opponent still knows it (revealed in hand) */
    azk_draw(&G, &CS, 1, 1);
    AZK_CHECK(G.cards[e].zone == AZK_Z_HAND && (G.cards[e].flags & AZK_CF_REVEALED) && G.cards[e].seen == 0);
    INV();
    /* from a hidden hand card to the bottom: its owner only */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_HAND_ENT, 0, OP(PUT_ON_DECK), 0, 1, OP(END));
    int x = card_of_def(0, DEF_INDRA);
    azk_move(&G, &CS, x, AZK_Z_HAND, 0);
    for (int i = G.pl[0].hand_n - 1; i >= 0; i--) /* only Indra is an entity in hand */
        if (G.pl[0].hand[i] != x && azk_def(&CS, &G, G.pl[0].hand[i])->card_type == AZK_CT_ENTITY)
            azk_move(&G, &CS, G.pl[0].hand[i], AZK_Z_DISCARD, 0);
    INV();
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].deck[0] == x && G.cards[x].seen == 1);
    /* godmode on the field: nothing (RULES §7) */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(PUT_ON_DECK), 0, 0, OP(END));
    e = place(1, DEF_REI, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    azk_add_effect(&G, e, AZK_FX_STATUS, AZK_DUR_END_OF_TURN, 0, 0, AZK_ST_GODMODE);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[e].zone == AZK_Z_GARDEN);
    /* a holder put on the deck takes its weapons to the discard pile (RULES §5.3); leaders never move */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(PUT_ON_DECK), 0, 1, OP(LOAD), 1, REF_OWN_LEADER,
              OP(PUT_ON_DECK), 1, 0, OP(END));
    e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    int w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_WEAPON, 0);
    G.cards[w].holder = (uint8_t)e;
    azk_rebuild_hints(&G, &CS);
    INV();
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[e].zone == AZK_Z_DECK && G.pl[0].deck[0] == e && G.cards[e].seen == 3);
    AZK_CHECK(G.cards[w].zone == AZK_Z_DISCARD);
    AZK_CHECK(G.cards[G.pl[0].leader].zone == AZK_Z_LEADER);
}

static int kind_valid(int kind, int ns) {
    switch (kind) {
    case AZK_OPK_SEL: return ns - 1;
    case AZK_OPK_STATUS: return AZK_ST_FROZEN;
    case AZK_OPK_PLACE: return 3;
    case AZK_OPK_FLAG: return 1;
    case AZK_OPK_NMODES: return 1; /* --- effects --- */
    default: return 0;
    }
}
static int kind_invalid(int kind, int ns) {
    switch (kind) {
    case AZK_OPK_R: return AZK_REGS;
    case AZK_OPK_T: return AZK_TREGS;
    case AZK_OPK_SEL: return ns;
    case AZK_OPK_REF: return REF_COUNT_;
    case AZK_OPK_CTXV: return CTXV_COUNT_;
    case AZK_OPK_DUR: return AZK_DUR_COUNT;
    case AZK_OPK_STATUS: return 0;
    case AZK_OPK_FLAG: return 2;
    case AZK_OPK_PLACE: return 4;
    case AZK_OPK_TRIG: return AZK_TRIG_COUNT + 2; /* --- effects --- */
    case AZK_OPK_STAT: return STAT_COUNT_;
    case AZK_OPK_NMODES: return 0;
    default: return -1;
    }
}

/* --- deck --- SEARCH verifies only with a selector without zones: the
 * first one of the default set (also in every set built on it). */
static int zoneless_selector(void) {
    const azk_cardset *d = azk_default_cardset();
    for (int i = 0; i < d->num_selectors; i++)
        if (d->selectors[i].zones == 0) return i;
    AZK_CHECK(0);
    return 0;
}

/* `op` with valid operands (bad_i >= 0: operand bad_i set to `bad`), then END.
 * Returns the length. Jump operands point at the END (relative: add_code
 * relocates). */
static int build_op(uint8_t *p, int op, int ns, int bad_i, int bad) {
    int n = 0;
    p[n++] = (uint8_t)op;
    int end = 1 + azk_op_operands(op);
    for (int i = 0; i < AZK_OP_MAX_OPERANDS; i++) {
        int k = azk_op_kind(op, i);
        if (k == AZK_OPK_OFF) {
            p[n++] = (uint8_t)(end & 0xFF);
            p[n++] = (uint8_t)(end >> 8);
        } else if (k != AZK_OPK__) { /* little-endian, as wide as the kind */
            int v = i == bad_i ? bad : kind_valid(k, ns);
            if (op == AZK_OP_SEARCH && k == AZK_OPK_SEL && i != bad_i) v = zoneless_selector(); /* --- deck --- */
            for (int b = 0; b < azk_operand_bytes(k); b++) p[n++] = (uint8_t)(v >> (8 * b));
        }
    }
    AZK_CHECK(n == end);
    if (op == AZK_OP_JTAB) { /* --- effects --- its table: one JMP at off, to the END after it */
        p[n++] = OP(JMP);
        p[n++] = (uint8_t)((end + 3) & 0xFF);
        p[n++] = (uint8_t)((end + 3) >> 8);
    }
    p[n++] = OP(END);
    return n;
}

static void test_declared_operands(void) {
    int ns = azk_default_cardset()->num_selectors;
    /* widths: the declared kinds add up to the operand bytes */
    for (int op = 0; op < AZK_NUM_OPCODES; op++) {
        int bytes = 0, seen_none = 0;
        for (int i = 0; i < AZK_OP_MAX_OPERANDS; i++) {
            int k = azk_op_kind(op, i);
            AZK_CHECK(k >= 0 && k < AZK_OPK_COUNT);
            if (k == AZK_OPK__) seen_none = 1;
            else AZK_CHECK(!seen_none); /* padding only at the end */
            bytes += azk_operand_bytes(k);
        }
        AZK_CHECK(bytes == azk_op_operands(op));
        int pr = azk_op_props(op);
        AZK_CHECK(pr != 0);
        AZK_CHECK(!(pr & AZK_OPP_PURE) || pr == AZK_OPP_PURE); /* PURE excludes the rest */
    }
    AZK_CHECK(azk_op_props(AZK_NUM_OPCODES) == 0 && azk_op_kind(AZK_NUM_OPCODES, 0) == AZK_OPK__);
    /* every opcode but the for-each pair (it needs its partner): valid
     * operands verify, as an effect and (pure ops only) as a condition; each
     * bounded operand out of range is rejected */
    uint8_t p[16];
    for (int op = 0; op < AZK_NUM_OPCODES; op++) {
        if (azk_op_props(op) & AZK_OPP_LOOP) continue;
        int n = build_op(p, op, ns, -1, 0);
        AZK_CHECK(verify_as(p, n, 0, 1) == AZK_OK);
        AZK_CHECK((verify_as(p, n, 1, 1) == AZK_OK) == !!(azk_op_props(op) & AZK_OPP_PURE));
        for (int i = 0; i < AZK_OP_MAX_OPERANDS; i++) {
            int bad = kind_invalid(azk_op_kind(op, i), ns);
            if (bad < 0) continue;
            n = build_op(p, op, ns, i, bad);
            if (verify_as(p, n, 0, 1) == AZK_OK) fprintf(stderr, "opcode %d operand %d accepts %d\n", op, i, bad);
            AZK_CHECK(verify_as(p, n, 0, 1) != AZK_OK);
        }
    }
    /* jump operands: only onto the program's instructions */
    for (int op = 0; op < AZK_NUM_OPCODES; op++) {
        if (azk_op_props(op) & AZK_OPP_LOOP) continue;
        int n = build_op(p, op, ns, -1, 0), at = -1;
        for (int i = 0, off = 1; i < AZK_OP_MAX_OPERANDS; off += azk_operand_bytes(azk_op_kind(op, i)), i++)
            if (azk_op_kind(op, i) == AZK_OPK_OFF) at = off;
        if (at < 0) continue;
        p[at] = (uint8_t)(n + 1); /* past the end */
        AZK_CHECK(verify_as(p, n, 0, 1) != AZK_OK);
        p[at] = 1; /* into its own operands */
        AZK_CHECK(verify_as(p, n, 0, 1) != AZK_OK);
    }
}

/* Every declared opcode with every operand valid runs through the VM to the
 * end (prompts answered with their first option): no opcode lacks a case
 * (that is also a compile error: the VM's switch is exhaustive) and none
 * breaks an invariant. */
static void test_every_opcode_runs(void) {
    int ns;
    uint8_t p[32];
    for (int op = 0; op < AZK_NUM_OPCODES; op++) {
        if (azk_op_props(op) & AZK_OPP_LOOP) continue; /* test_op_foreach_next */
        vm_base();
        ns = CS.num_selectors;
        /* T0 = own leader, R0 = 1, then the op */
        int n = 0;
        p[n++] = OP(LOAD), p[n++] = 0, p[n++] = REF_OWN_LEADER;
        p[n++] = OP(SETI), p[n++] = 0, p[n++] = 1;
        int m = build_op(p + n, op, ns, -1, 0);
        int at = -1;
        for (int i = 0, off = 1; i < AZK_OP_MAX_OPERANDS; off += azk_operand_bytes(azk_op_kind(op, i)), i++)
            if (azk_op_kind(op, i) == AZK_OPK_OFF) at = off;
        if (at >= 0) p[n + at] = (uint8_t)(p[n + at] + n); /* jumps in the op were relative to it */
        if (op == AZK_OP_JTAB) p[n + m - 3] = (uint8_t)(p[n + m - 3] + n); /* --- effects --- and its table */
        int ab = load_prog(p, n + m);
        run(ab);
        for (int guard = 0; G.vm.active && guard < 20; guard++) {
            AZK_CHECK(G.phase == AZK_PHASE_PROMPT);
            answer(0);
        }
        if (op == AZK_OP_WIN || op == AZK_OP_LOSE) { /* events: they end the game when the program ends */
            AZK_CHECK(G.result != AZK_RES_ONGOING && G.end_reason == AZK_END_EFFECT);
            continue;
        }
        if (!idle()) fprintf(stderr, "opcode %d did not run to the end\n", op);
        AZK_CHECK(idle());
        AZK_CHECK(G.result == AZK_RES_ONGOING);
    }
}

static void test_op_count_ge(void) {
    /* R[a] = count(sel) >= k, in an effect program (observed through DRAW) */
    vm_base();
    uint8_t l = (uint8_t)S_LEADERS;
    static uint8_t p[] = {OP(COUNT_GE), 2, 0, 2, OP(DRAW), 2, OP(END)};
    p[2] = l;
    p[3] = 2;
    AZK_CHECK_EQ_U64(drawn_by(p, sizeof p, 0), 1); /* 2 leaders >= 2 */
    vm_base();
    p[3] = 3;
    AZK_CHECK_EQ_U64(drawn_by(p, sizeof p, 0), 0);
    vm_base();
    p[3] = 0xFF; /* -1 */
    AZK_CHECK_EQ_U64(drawn_by(p, sizeof p, 0), 1);
    /* as a condition: the fast path (COUNT_GE r0; END) and the interpreter
     * (any other shape) agree with COUNT; SETI; GE for every threshold */
    for (int k = -3; k <= 9; k++) {
        vm_base();
        uint8_t fast[] = {OP(COUNT_GE), 0, (uint8_t)S_HAND, (uint8_t)k, OP(END)};
        uint8_t slow[] = {OP(COUNT_GE), 1, (uint8_t)S_HAND, (uint8_t)k, OP(SETI), 0, 0, OP(ADD), 0, 1, OP(END)};
        uint8_t old[] = {OP(COUNT), 0, (uint8_t)S_HAND, OP(SETI), 1, (uint8_t)k, OP(GE), 0, 1, OP(END)};
        uint16_t pf = add_code(fast, sizeof fast, 1), ps = add_code(slow, sizeof slow, 1),
                 po = add_code(old, sizeof old, 1);
        add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, pf, AZK_NO_PC);
        add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, ps, AZK_NO_PC);
        add_ability(AZK_AB_ACTIVATED, AZK_NO_PC, po, AZK_NO_PC);
        AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
        AZK_CHECK(azk_game_init(&G, &CS, 12345, 0, 1) == AZK_OK);
        int src = G.pl[0].leader, want = G.pl[0].hand_n >= k;
        AZK_CHECK(azk_vm_condition(&G, &CS, pf, src, 0) == want);
        AZK_CHECK(azk_vm_condition(&G, &CS, ps, src, 0) == want);
        AZK_CHECK(azk_vm_condition(&G, &CS, po, src, 0) == want);
    }
    REJECT(OP(COUNT_GE), 8, 0, 1, OP(END));
    REJECT_PURE(OP(COUNT_GE), 0, 0xFF, 1, OP(END));
    ACCEPT_PURE(OP(COUNT_GE), 7, 0, 0x80, OP(END));
}

/* ---------------------------------------------------------------------------
 * --- effects --- (docs/rules.md §16)
 * ------------------------------------------------------------------------- */
static void test_op_mul_max_abs(void) {
    DRAWS(6, OP(SETI), 1, 2, OP(SETI), 2, 3, OP(MUL), 1, 2, OP(DRAW), 1, OP(END));
    DRAWS(0, OP(SETI), 1, 0xFE, OP(SETI), 2, 3, OP(MUL), 1, 2, OP(DRAW), 1, OP(END)); /* -6: nothing */
    DRAWS(4, OP(SETI), 1, 2, OP(SETI), 2, 4, OP(MAX), 1, 2, OP(DRAW), 1, OP(END));
    DRAWS(4, OP(SETI), 1, 4, OP(SETI), 2, 2, OP(MAX), 1, 2, OP(DRAW), 1, OP(END));
    DRAWS(3, OP(SETI), 1, 0xFD, OP(ABS), 1, OP(DRAW), 1, OP(END)); /* |-3| */
    DRAWS(3, OP(SETI), 1, 3, OP(ABS), 1, OP(DRAW), 1, OP(END));
    /* saturation: 127 * 127 * 127 stays at INT16_MAX; |INT16_MIN| too */
    DRAWS(1, OP(SETI), 1, 127, OP(SETI), 2, 127, OP(MUL), 1, 2, OP(MUL), 1, 2, OP(SETI), 3, 127, OP(MUL), 3, 3,
          OP(MUL), 3, 3, OP(SUB), 1, 3, OP(SETI), 3, 0, OP(GE), 3, 1, OP(DRAW), 3, OP(END)); /* 32767-32767 = 0 */
    DRAWS(1, OP(SETI), 1, 127, OP(MUL), 1, 1, OP(MUL), 1, 1, OP(SETI), 2, 0, OP(SUB), 2, 1, OP(ADDI), 2, 0xFF,
          OP(ABS), 2, OP(GEI), 2, 127, OP(DRAW), 2, OP(END)); /* |-32768| saturates to 32767 */
    REJECT(OP(MUL), 8, 0, OP(END));
    REJECT(OP(ABS), 8, OP(END));
    ACCEPT_PURE(OP(MUL), 0, 1, OP(MAX), 0, 1, OP(ABS), 0, OP(END));
}

static void test_op_stat(void) {
    int ab;
    /* Indra (3/2, GP 3, cost 5) in the garden; damage 1 */
    for (int st = 0; st < STAT_COUNT_; st++) {
        vm_base();
        LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(STAT), 1, 0, (uint8_t)st, OP(DRAW), 1, OP(END));
        int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
        G.cards[e].damage = 1;
        azk_rebuild_hints(&G, &CS);
        int h = G.pl[0].hand_n;
        run(ab);
        AZK_CHECK(idle());
        const azk_card_def *d = &CS.defs[DEF_INDRA];
        int want[] = {[STAT_ATTACK] = d->attack, [STAT_HEALTH] = d->health, [STAT_DAMAGE] = 1,
                      [STAT_REMAINING] = d->health - 1, [STAT_GP] = d->gate_points, [STAT_COST] = d->cost};
        AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, want[st]);
    }
    /* attack as the rules compute it: an attack effect counts */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(MOD_ATTACK), 0, 2, AZK_DUR_END_OF_TURN, OP(STAT), 1, 0,
              STAT_ATTACK, OP(DRAW), 1, OP(END));
    place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, CS.defs[DEF_INDRA].attack + 2);
    /* a reference that changed zone reads 0 */
    DRAWS(0, OP(STAT), 1, 0, STAT_HEALTH, OP(DRAW), 1, OP(END)); /* T0 empty */
    REJECT(OP(STAT), 0, 0, STAT_COUNT_, OP(END));
    ACCEPT_PURE(OP(STAT), 0, 0, STAT_COUNT_ - 1, OP(END));
}

static void test_op_random(void) {
    /* uniform in [lo, hi] from the game's rng: the same seed gives the same
     * draws, a clone draws what the original draws (docs/rules.md §16.8) */
    int ab, seen[7] = {0};
    for (int trial = 0; trial < 40; trial++) {
        vm_base();
        LOAD_PROG(ab, OP(SETI), 1, 1, OP(SETI), 2, 6, OP(RANDOM), 1, 2, OP(DRAW), 1, OP(END));
        azk_rng_seed(&G.rng, (uint64_t)trial, AZK_GAME_RNG_STREAM);
        static azk_game twin;
        azk_game_clone(&twin, &G);
        int h = G.pl[0].hand_n;
        run(ab);
        int k = G.pl[0].hand_n - h;
        AZK_CHECK(k >= 1 && k <= 6);
        seen[k]++;
        static azk_game mine;
        azk_game_clone(&mine, &G);
        azk_game_clone(&G, &twin);
        run(ab);
        AZK_CHECK(azk_hash(&G) == azk_hash(&mine));
    }
    for (int k = 1; k <= 6; k++) AZK_CHECK(seen[k] > 0);
    /* hi < lo: R[a] unchanged and no number drawn; hi == lo: that value, no draw */
    vm_base();
    LOAD_PROG(ab, OP(SETI), 1, 3, OP(SETI), 2, 1, OP(RANDOM), 1, 2, OP(SETI), 2, 3, OP(RANDOM), 1, 2, OP(DRAW), 1,
              OP(END));
    azk_rng before = G.rng;
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 3);
    AZK_CHECK(memcmp(&before, &G.rng, sizeof before) == 0);
    REJECT_PURE(OP(RANDOM), 0, 1, OP(END)); /* never in a condition */
}

/* mask -> CHOOSE_MODE R1 -> JTAB over 3 modes: mode i draws i + 1 */
#define MODE_PROG(mask)                                                                                        \
    OP(SETI), 4, (mask), OP(CHOOSE_MODE), 1, 4, 3, OP(JTAB), 1, 3, J(15), OP(JMP), J(45), OP(JMP), J(24),    \
        OP(JMP), J(32), OP(JMP), J(40), OP(SETI), 2, 1, OP(DRAW), 2, OP(JMP), J(45), OP(SETI), 2, 2, OP(DRAW), \
        2, OP(JMP), J(45), OP(SETI), 2, 3, OP(DRAW), 2, OP(END)

static void test_op_choose_mode_jtab(void) {
    int ab;
    /* modes 0 and 2 available: a MODE prompt whose options are the mode indices */
    vm_base();
    LOAD_PROG(ab, MODE_PROG(5));
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_MODE && !G.prompt.optional);
    AZK_CHECK_EQ_U64(G.prompt.n, 2);
    AZK_CHECK(G.prompt.opt[0] == 0 && G.prompt.opt[1] == 2);
    AZK_CHECK(decline() != AZK_OK); /* not optional */
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 3);
    /* one available mode: taken without asking (rules §12.2) */
    vm_base();
    LOAD_PROG(ab, MODE_PROG(2));
    h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 2);
    /* none: nothing happens */
    vm_base();
    LOAD_PROG(ab, MODE_PROG(0));
    h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h);
    /* bits beyond the mode count are not modes */
    vm_base();
    LOAD_PROG(ab, MODE_PROG(8 | 1));
    h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 1);
    /* JTAB out of range falls through */
    DRAWS(1, OP(SETI), 1, 3, OP(JTAB), 1, 1, J(14), OP(SETI), 2, 1, OP(JMP), J(17), OP(JMP), J(17), OP(DRAW), 2,
          OP(END));
    /* verifier: each table entry must be a JMP inside the program; 1..AZK_MAX_MODES modes */
    ACCEPT(OP(JTAB), 0, 2, J(5), OP(JMP), J(11), OP(JMP), J(11), OP(END));
    REJECT(OP(JTAB), 0, 2, J(5), OP(JMP), J(11), OP(SETI), 0, 0, OP(END), OP(END));
    REJECT(OP(JTAB), 0, 2, J(5), OP(JMP), J(8), OP(END));
    REJECT(OP(JTAB), 0, 0, J(5), OP(END));
    REJECT(OP(CHOOSE_MODE), 0, 0, AZK_MAX_MODES + 1, OP(END));
    REJECT_PURE(OP(CHOOSE_MODE), 0, 0, 2, OP(END));
    ACCEPT_PURE(OP(JTAB), 0, 1, J(5), OP(JMP), J(8), OP(END));
}

static void test_op_heal(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(SETI), 1, 3, OP(HEAL), 0, 1, OP(END));
    int l = G.pl[0].leader;
    G.cards[l].damage = 5;
    run(ab);
    AZK_CHECK_EQ_U64(G.cards[l].damage, 2);
    run(ab);
    AZK_CHECK_EQ_U64(G.cards[l].damage, 0); /* capped: never below 0 (docs/rules.md §16.4) */
    run(ab);
    AZK_CHECK_EQ_U64(G.cards[l].damage, 0);
    /* a negative amount heals nothing */
    vm_base();
    LOAD_PROG(ab, OP(LOAD), 0, REF_OWN_LEADER, OP(SETI), 1, 0xFE, OP(HEAL), 0, 1, OP(END));
    G.cards[G.pl[0].leader].damage = 4;
    run(ab);
    AZK_CHECK_EQ_U64(G.cards[G.pl[0].leader].damage, 4);
}

static void test_op_untap_cooldown(void) {
    int ab;
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(UNTAP), 0, OP(COOLDOWN), 0, 0, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 1);
    G.cards[e].flags |= AZK_CF_TAPPED | AZK_CF_COOLDOWN;
    run(ab);
    AZK_CHECK(!(G.cards[e].flags & (AZK_CF_TAPPED | AZK_CF_COOLDOWN)));
    /* cooldown is given only in the garden; an untapped IKZ card keeps the hint exact */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_FIELD_ENT_SELF, 0, OP(COOLDOWN), 0, 1, OP(END));
    e = place(0, DEF_INDRA, AZK_Z_ALLEY, 0);
    run(ab);
    AZK_CHECK(!(G.cards[e].flags & AZK_CF_COOLDOWN));
    azk_move(&G, &CS, e, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    run(ab);
    AZK_CHECK(G.cards[e].flags & AZK_CF_COOLDOWN);
}

static void test_op_remove_status(void) {
    int ab;
    /* a printed keyword is masked for the duration, then back (docs/rules.md §16.4) */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(REMOVE_STATUS), 0, ST16(AZK_ST_EFFECT_IMMUNE),
              AZK_DUR_END_OF_TURN, OP(SETI), 1, 2, OP(DAMAGE), 0, 1, OP(END));
    int mis = place(1, DEF_MISAKI, AZK_Z_GARDEN, 0);
    AZK_CHECK(azk_status_of(&G, &CS, mis) & AZK_ST_EFFECT_IMMUNE);
    run(ab);
    AZK_CHECK(G.cards[mis].zone == AZK_Z_DISCARD); /* 2 damage now lands: Misaki (health 1) is destroyed */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(REMOVE_STATUS), 0, ST16(AZK_ST_EFFECT_IMMUNE),
              AZK_DUR_END_OF_TURN, OP(END));
    mis = place(1, DEF_MISAKI, AZK_Z_GARDEN, 0);
    run(ab);
    AZK_CHECK(!(azk_status_of(&G, &CS, mis) & AZK_ST_EFFECT_IMMUNE));
    AZK_CHECK_EQ_U64(G.fx[0].kind, AZK_FX_REMOVE);
    azk_expire_effects(&G, AZK_DUR_END_OF_TURN, -1);
    AZK_CHECK(azk_status_of(&G, &CS, mis) & AZK_ST_EFFECT_IMMUNE);
    /* a granted condition is masked too; a shock mark is removed for good */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(GRANT), 0, ST16(AZK_ST_FROZEN), AZK_DUR_WHILE_ON_FIELD,
              OP(REMOVE_STATUS), 0, ST16(AZK_ST_FROZEN | AZK_ST_SHOCKED), AZK_DUR_END_OF_TURN, OP(END));
    int e = place(1, DEF_REI, AZK_Z_GARDEN, 0);
    G.cards[e].flags |= AZK_CF_SHOCKED;
    run(ab);
    AZK_CHECK(!(azk_status_of(&G, &CS, e) & (AZK_ST_FROZEN | AZK_ST_SHOCKED)));
    AZK_CHECK(!(G.cards[e].flags & AZK_CF_SHOCKED));
    azk_expire_effects(&G, AZK_DUR_END_OF_TURN, -1);
    AZK_CHECK(azk_status_of(&G, &CS, e) & AZK_ST_FROZEN);
    AZK_CHECK(!(azk_status_of(&G, &CS, e) & AZK_ST_SHOCKED));
}

static void test_op_swap_move(void) {
    int ab;
    int s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    /* garden <-> alley: both are new objects; the one entering the garden gets cooldown */
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(CHOOSE), 1, (uint8_t)s_alley, 0, OP(SWAP), 0, 1, OP(END));
    int a = place(0, DEF_INDRA, AZK_Z_GARDEN, 0), b = place(0, 3, AZK_Z_ALLEY, 3);
    azk_rebuild_hints(&G, &CS);
    uint16_t ia = G.cards[a].incarnation;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].garden[0] == b && G.pl[0].alley[3] == a);
    AZK_CHECK(G.cards[b].flags & AZK_CF_COOLDOWN);
    AZK_CHECK(!(G.cards[a].flags & AZK_CF_COOLDOWN) && G.cards[a].incarnation != ia);
    /* a full garden swaps too (no replacement) */
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    int s_g0 = sel_def(AZK_SZ_GARDEN, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_g0, 0, OP(CHOOSE), 1, (uint8_t)s_alley, 0, OP(SWAP), 0, 1, OP(END));
    a = place(0, DEF_INDRA, AZK_Z_GARDEN, 2);
    for (int s = 0; s < AZK_ROW; s++)
        if (s != 2) place(0, 2, AZK_Z_GARDEN, s);
    b = place(0, 3, AZK_Z_ALLEY, 0);
    azk_rebuild_hints(&G, &CS);
    int disc = G.pl[0].discard_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.pl[0].garden[2] == b && G.pl[0].alley[0] == a && G.pl[0].discard_n == disc);
    /* same row: places change, objects do not */
    vm_base();
    int s_rei = sel_def(AZK_SZ_GARDEN, AZK_SIDE_SELF, 3), s_ind = sel_def(AZK_SZ_GARDEN, AZK_SIDE_SELF, DEF_INDRA);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_ind, 0, OP(CHOOSE), 1, (uint8_t)s_rei, 0, OP(SWAP), 0, 1, OP(END));
    a = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    b = place(0, 3, AZK_Z_GARDEN, 4);
    azk_rebuild_hints(&G, &CS);
    ia = G.cards[a].incarnation;
    run(ab);
    AZK_CHECK(G.pl[0].garden[0] == b && G.pl[0].garden[4] == a && G.cards[a].pos == 4 && G.cards[a].incarnation == ia);
    /* MOVE: an alley entity to a chosen empty garden slot (SLOT prompt) */
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_alley, 0, OP(MOVE), 0, 1, OP(END));
    a = place(0, DEF_INDRA, AZK_Z_ALLEY, 1);
    place(0, 3, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_SLOT && G.prompt.n == AZK_ROW - 1);
    AZK_CHECK(azk_placing_card(&G, &CS) == a);
    AZK_CHECK(answer(0) == AZK_OK); /* garden slot 1 */
    AZK_CHECK(G.pl[0].garden[1] == a && (G.cards[a].flags & AZK_CF_COOLDOWN));
    /* a full garden: no slot, nothing happens */
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_alley, 0, OP(MOVE), 0, 1, OP(END));
    a = place(0, DEF_INDRA, AZK_Z_ALLEY, 1);
    for (int s = 0; s < AZK_ROW; s++) place(0, s < 4 ? 2 : 3, AZK_Z_GARDEN, s);
    azk_rebuild_hints(&G, &CS);
    run(ab);
    AZK_CHECK(idle() && G.pl[0].alley[1] == a);
}

static void test_op_portal(void) {
    int ab;
    int s_alley;
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_alley, 0, OP(PORTAL), 0, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_ALLEY, 2);
    for (int s = 1; s < AZK_ROW; s++) place(0, 2, AZK_Z_GARDEN, s);
    azk_rebuild_hints(&G, &CS);
    uint32_t wr = G.events_wr;
    run(ab); /* one empty slot: no prompt; the gate (Surge) triggers; its may is declined */
    while (G.phase == AZK_PHASE_PROMPT) AZK_CHECK(G.prompt.optional ? decline() == AZK_OK : answer(0) == AZK_OK);
    AZK_CHECK(G.pl[0].garden[0] == e && (G.cards[e].flags & AZK_CF_COOLDOWN));
    AZK_CHECK(!(G.cards[G.pl[0].gate].flags & AZK_CF_TAPPED)); /* the gate is not tapped */
    int portaled = 0;
    for (uint32_t i = wr; i != G.events_wr; i++) portaled |= (G.events[i & (AZK_EVENT_CAP - 1)] & 0xFF) == AZK_EV_PORTALED;
    AZK_CHECK(portaled);
    /* no alley entity: nothing happens */
    vm_base();
    s_alley = add_sel(AZK_SZ_ALLEY, AZK_SIDE_SELF, 0, 0);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_alley, 0, OP(PORTAL), 0, OP(END));
    run(ab);
    AZK_CHECK(idle());
    /* a tapped one, or a garden entity: nothing */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_FIELD_ENT_SELF, 0, OP(PORTAL), 0, OP(END));
    e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    run(ab);
    AZK_CHECK(idle() && G.pl[0].garden[0] == e);
}

static void test_op_attach(void) {
    int ab;
    vm_base();
    int s_w = sel_def(AZK_SZ_DISCARD, AZK_SIDE_SELF, DEF_SHURIKEN);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_w, 0, OP(ATTACH), 0, OP(END));
    int w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_DISCARD, 0);
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 3);
    azk_rebuild_hints(&G, &CS);
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_HOLDER && G.prompt.n == 2);
    AZK_CHECK(azk_placing_card(&G, &CS) == w);
    AZK_CHECK(answer(1) == AZK_OK); /* holder code 4: garden slot 3 */
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[w].zone == AZK_Z_WEAPON && G.cards[w].holder == e);
    AZK_CHECK_EQ_U64(G.pl[0].played_entities, 0);
    /* only the leader: no prompt; a non-weapon: nothing */
    vm_base();
    s_w = sel_def(AZK_SZ_DISCARD, AZK_SIDE_SELF, DEF_SHURIKEN);
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_w, 0, OP(ATTACH), 0, OP(LOAD), 1, REF_OWN_LEADER, OP(ATTACH), 1, OP(END));
    w = card_of_def(0, DEF_SHURIKEN);
    azk_move(&G, &CS, w, AZK_Z_DISCARD, 0);
    run(ab);
    AZK_CHECK(idle() && G.cards[w].holder == G.pl[0].leader);
}

static void test_op_run_ability(void) {
    int ab;
    /* Indra gets an on-play ability "draw 2" and a spell-less twin; the
     * program resolves Indra's on-play from the discard pile as its own */
    vm_base();
    int s_ind = sel_def(AZK_SZ_DISCARD | AZK_SZ_HAND | AZK_SZ_GARDEN, AZK_SIDE_SELF, DEF_INDRA);
    static const uint8_t on_play[] = {OP(SETI), 0, 2, OP(DRAW), 0, OP(END)};
    uint16_t pc = add_code(on_play, sizeof on_play, 1);
    int child = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[child].trigger = AZK_TRIG_ON_PLAY;
    CS.defs[DEF_INDRA].ability_first = (uint16_t)child;
    CS.defs[DEF_INDRA].ability_count = 1;
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_ind, 0, OP(RUN_ABILITY), 0, AZK_TRIG_ON_PLAY, OP(SETI), 1, 1, OP(DRAW), 1,
              OP(RUN_ABILITY), 0, AZK_TRIG_END_OF_TURN, OP(END));
    for (int zone = 0; zone < 3; zone++) {
        AZK_CHECK(azk_game_init(&G, &CS, 12345, 0, 1) == AZK_OK);
        int e = card_of_def(0, DEF_INDRA);
        if (zone == 0) azk_move(&G, &CS, e, AZK_Z_DISCARD, 0);
        else if (zone == 1) azk_move(&G, &CS, e, AZK_Z_HAND, 0);
        else azk_move(&G, &CS, e, AZK_Z_GARDEN, 0);
        azk_rebuild_hints(&G, &CS);
        int h = G.pl[0].hand_n;
        run(ab);
        AZK_CHECK(idle());
        AZK_CHECK_EQ_U64(G.vm_depth, 0);
        AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 3); /* 2 from Indra's ability, then 1: the caller resumed */
        AZK_CHECK(G.cards[e].zone == (zone == 0 ? AZK_Z_DISCARD : zone == 1 ? AZK_Z_HAND : AZK_Z_GARDEN));
    }
    /* the named card left play (changed zone) before: nothing (docs/rules.md §16.3) */
    vm_base();
    s_ind = sel_def(AZK_SZ_GARDEN, AZK_SIDE_SELF, DEF_INDRA);
    pc = add_code(on_play, sizeof on_play, 1);
    child = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    CS.defs[DEF_INDRA].ability_first = (uint16_t)child;
    CS.defs[DEF_INDRA].ability_count = 1;
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_ind, 0, OP(RETURN), 0, OP(RUN_ABILITY), 0, AZK_TRIG_ON_PLAY, OP(END));
    place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    azk_rebuild_hints(&G, &CS);
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n, h + 1); /* only Indra itself came back */
    /* a prompt inside the nested ability suspends both frames: clone and
     * serialize round-trip mid-nesting, and the answer resumes them */
    vm_base();
    s_ind = sel_def(AZK_SZ_DISCARD, AZK_SIDE_SELF, DEF_INDRA);
    static const uint8_t asks[] = {OP(MAY), 1, OP(JZ), 1, J(8), OP(DRAW), 1, OP(END)};
    pc = add_code(asks, sizeof asks, 1);
    child = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    CS.defs[DEF_INDRA].ability_first = (uint16_t)child;
    CS.defs[DEF_INDRA].ability_count = 1;
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)s_ind, 0, OP(RUN_ABILITY), 0, AZK_TRIG_ON_PLAY, OP(SETI), 1, 2, OP(DRAW), 1,
              OP(END));
    azk_move(&G, &CS, card_of_def(0, DEF_INDRA), AZK_Z_DISCARD, 0);
    h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(G.phase == AZK_PHASE_PROMPT && G.prompt.kind == AZK_PK_YES_NO && G.vm_depth == 1);
    static uint8_t buf[1 << 16];
    size_t nb = azk_serialize(&G, &CS, buf, sizeof buf);
    AZK_CHECK(nb > 0);
    static azk_game back;
    AZK_CHECK(azk_deserialize(&back, &CS, buf, nb) == AZK_OK);
    AZK_CHECK(azk_hash(&back) == azk_hash(&G));
    AZK_CHECK(answer(1) == AZK_OK);
    AZK_CHECK(idle());
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 3);
    azk_game_clone(&G, &back);
    AZK_CHECK(answer(0) == AZK_OK);
    AZK_CHECK_EQ_U64(G.pl[0].hand_n - h, 2);
    /* recursion: an ability that resolves itself again is cut at AZK_VM_DEPTH
     * frames: the game ends TRUNCATED, end reason VM_DEPTH (rules §13.3) */
    vm_base();
    s_ind = sel_def(AZK_SZ_DISCARD, AZK_SIDE_SELF, DEF_INDRA);
    uint8_t self_run[] = {OP(CHOOSE), 0, (uint8_t)s_ind, 0, OP(RUN_ABILITY), 0, AZK_TRIG_ON_PLAY, OP(END)};
    pc = add_code(self_run, sizeof self_run, 1);
    child = add_ability(AZK_AB_TRIGGERED, pc, AZK_NO_PC, AZK_NO_PC);
    CS.defs[DEF_INDRA].ability_first = (uint16_t)child;
    CS.defs[DEF_INDRA].ability_count = 1;
    ab = load_prog(self_run, sizeof self_run);
    azk_move(&G, &CS, card_of_def(0, DEF_INDRA), AZK_Z_DISCARD, 0);
    run(ab);
    AZK_CHECK(G.result == AZK_RES_TRUNCATED && G.end_reason == AZK_END_VM_DEPTH);
    AZK_CHECK_EQ_U64(G.vm_depth, 0);
    REJECT(OP(RUN_ABILITY), 0, AZK_TRIG_COUNT + 2, OP(END));
    ACCEPT(OP(RUN_ABILITY), 0, AZK_TRIG_COUNT + 1, OP(END));
    /* the n-th ability of a kind: n - 1 above AZK_TRIG_NTH_SHIFT, below the card's ability count */
    ACCEPT(OP(RUN_ABILITY), 0, (uint8_t)((AZK_MAX_CARD_ABILITIES - 1) << AZK_TRIG_NTH_SHIFT | AZK_TRIG_ON_PLAY), OP(END));
    REJECT(OP(RUN_ABILITY), 0, (uint8_t)(1 << AZK_TRIG_NTH_SHIFT | (AZK_TRIG_COUNT + 2)), OP(END));
    REJECT_PURE(OP(RUN_ABILITY), 0, 0, OP(END));
}

/* Keyword bits are the first status bits, conditions follow, nothing
 * aliases (also _Static_asserts in cardset.h). */
static void test_keywords_and_statuses(void) {
#define AZK_KEYWORD(name, doc) AZK_CHECK((unsigned)AZK_KW_##name == (unsigned)AZK_ST_##name);
#include "azk_enums.def"
#undef AZK_KEYWORD
    unsigned kw = 0, cond = 0;
#define AZK_KEYWORD(name, doc) kw |= AZK_KW_##name;
#include "azk_enums.def"
#undef AZK_KEYWORD
#define AZK_CONDITION(name, doc) AZK_CHECK(!(cond & AZK_ST_##name)); cond |= AZK_ST_##name;
#include "azk_enums.def"
#undef AZK_CONDITION
    AZK_CHECK(kw == (1u << AZK_KWI_COUNT) - 1);
    AZK_CHECK((kw & cond) == 0);
    AZK_CHECK((kw | cond) == (1u << AZK_STI_COUNT) - 1);
    AZK_CHECK(AZK_ST_FROZEN == 1u << AZK_KWI_COUNT);
}

/* --- cont --- Auras and cost modifiers (docs/rules.md §18): the source
 * hints follow zone changes exactly (INV checks them), and attack, health,
 * statuses and costs read the sources: two lords give each other +1/+2 and
 * Defender; "enemy garden entities lose Charge" beats a granted Charge; two
 * "-2" modifiers on a 1-cost spell give 0, not -3; a frozen source is off. */
static void test_auras_and_cost_modifiers(void) {
    vm_base();
    int own = add_sel(AZK_SZ_GARDEN | AZK_SZ_ALLEY, AZK_SIDE_SELF, 1u << AZK_CT_ENTITY, AZK_SF_NOT_SELF);
    int enemy = add_sel(AZK_SZ_GARDEN, AZK_SIDE_OPP, 1u << AZK_CT_ENTITY, 0);
    int spells = add_sel(AZK_SZ_HAND, AZK_SIDE_SELF, 1u << AZK_CT_SPELL, 0);
    int a1 = add_ability(AZK_AB_STATIC, AZK_NO_PC, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[a1].static_target = AZK_STT_AURA;
    CS.abilities[a1].selector = (uint8_t)own;
    CS.abilities[a1].attack = 1;
    CS.abilities[a1].health = 2;
    CS.abilities[a1].grant = AZK_KW_DEFENDER;
    int a2 = add_ability(AZK_AB_STATIC, AZK_NO_PC, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[a2].static_target = AZK_STT_AURA;
    CS.abilities[a2].selector = (uint8_t)enemy;
    CS.abilities[a2].remove = AZK_KW_CHARGE;
    int a3 = add_ability(AZK_AB_STATIC, AZK_NO_PC, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[a3].static_target = AZK_STT_COST;
    CS.abilities[a3].selector = (uint8_t)spells;
    CS.abilities[a3].cost_change = -2;
    AZK_CHECK(a2 == a1 + 1 && a3 == a1 + 2);
    CS.defs[DEF_INDRA].ability_first = (uint16_t)a1;
    CS.defs[DEF_INDRA].ability_count = 3;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    AZK_CHECK((CS.facts[DEF_INDRA].flags & (AZK_DF_AURA | AZK_DF_COST)) == (AZK_DF_AURA | AZK_DF_COST));
    AZK_CHECK(azk_game_init(&G, &CS, 12345, 0, 1) == AZK_OK);
    AZK_CHECK(!(G.aura_src[0] | G.aura_src[1] | G.cost_src[0] | G.cost_src[1]));
    int orb = card_of_def(0, DEF_ORB);
    if (G.cards[orb].zone != AZK_Z_HAND) azk_move(&G, &CS, orb, AZK_Z_HAND, 0);
    AZK_CHECK(azk_cost_of(&G, &CS, orb) == 1);
    int i1 = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    int i2 = place(0, DEF_INDRA, AZK_Z_ALLEY, 2);
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 3);
    INV();
    AZK_CHECK_EQ_U64(G.aura_src[0], AZK_CODE_GARDEN(0) | AZK_CODE_ALLEY(2));
    AZK_CHECK_EQ_U64(G.cost_src[0], AZK_CODE_GARDEN(0) | AZK_CODE_ALLEY(2));
    AZK_CHECK(G.aura_src[1] == 0);
    azk_add_effect(&G, rei, AZK_FX_STATUS, AZK_DUR_END_OF_TURN, 1, 0, AZK_ST_CHARGE);
    int printed_a = CS.defs[DEF_INDRA].attack, printed_h = CS.defs[DEF_INDRA].health;
    AZK_CHECK(azk_attack_of(&G, &CS, i1) == printed_a + 1 && azk_health_of(&G, &CS, i1) == printed_h + 2);
    AZK_CHECK(azk_attack_of(&G, &CS, i2) == printed_a + 1 && azk_health_of(&G, &CS, i2) == printed_h + 2);
    AZK_CHECK(azk_status_of(&G, &CS, i1) & AZK_ST_DEFENDER);
    AZK_CHECK(azk_status_of(&G, &CS, i1) & AZK_ST_CHARGE);    /* own printed Charge: not an enemy */
    AZK_CHECK(!(azk_status_of(&G, &CS, rei) & AZK_ST_CHARGE)); /* removal beats the granted Charge */
    AZK_CHECK(azk_cost_of(&G, &CS, orb) == 0);                  /* 1 - 2 - 2, clamped at 0 */
    AZK_CHECK(azk_cost_of(&G, &CS, i1) == CS.defs[DEF_INDRA].cost); /* not in hand */
    /* a frozen source is off: i2 no longer gets i1's +1 */
    azk_add_effect(&G, i1, AZK_FX_STATUS, AZK_DUR_END_OF_TURN, 1, 0, AZK_ST_FROZEN);
    AZK_CHECK(azk_attack_of(&G, &CS, i2) == printed_a);
    AZK_CHECK(azk_attack_of(&G, &CS, i1) == printed_a + 1);    /* a frozen card still gets auras */
    /* sources leaving: hints follow, values come back */
    azk_move(&G, &CS, i1, AZK_Z_DISCARD, 0);
    INV();
    AZK_CHECK_EQ_U64(G.aura_src[0], AZK_CODE_ALLEY(2));
    AZK_CHECK(azk_cost_of(&G, &CS, orb) == 0);
    AZK_CHECK(azk_health_of(&G, &CS, i2) == printed_h);
    azk_move(&G, &CS, i2, AZK_Z_HAND, 0);
    INV();
    AZK_CHECK(G.aura_src[0] == 0 && G.cost_src[0] == 0);
    AZK_CHECK(azk_cost_of(&G, &CS, orb) == 1);
    AZK_CHECK(azk_status_of(&G, &CS, rei) & AZK_ST_CHARGE);
    /* a rebuild gives the same hints */
    azk_move(&G, &CS, i2, AZK_Z_GARDEN, 4);
    uint16_t before = G.aura_src[0];
    azk_rebuild_hints(&G, &CS);
    AZK_CHECK(before == G.aura_src[0] && G.aura_src[0] == AZK_CODE_GARDEN(4));
    INV();
}

/* --- events (docs/rules.md §15) --- */
static void test_op_destroy(void) {
    int ab;
    /* an opponent's garden entity goes to its owner's discard pile, as destroyed */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_OPP_GARDEN, 0, OP(DESTROY), 0, OP(DESTROY), 0, OP(END));
    int rei = place(1, DEF_REI, AZK_Z_GARDEN, 2);
    G.events_rd = G.events_wr;
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[rei].zone == AZK_Z_DISCARD && G.pl[1].garden[2] == AZK_NONE);
    AZK_CHECK_EQ_U64(G.pl[1].discard_n, 1); /* the second DESTROY names a dead object: nothing */
    int destroyed = 0;
    for (uint32_t i = G.events_rd; i != G.events_wr; i++)
        destroyed += (G.events[i & (AZK_EVENT_CAP - 1)] & 0xFF) == AZK_EV_DESTROYED;
    AZK_CHECK_EQ_U64(destroyed, 1);
    /* godmode stops it (rules §15.3); a leader is never destroyed */
    vm_base();
    LOAD_PROG(ab, OP(CHOOSE), 0, (uint8_t)S_GARDEN, 0, OP(GRANT), 0, AZK_ST_GODMODE, 0, AZK_DUR_END_OF_TURN,
              OP(DESTROY), 0, OP(LOAD), 1, REF_OWN_LEADER, OP(DESTROY), 1, OP(END));
    int e = place(0, DEF_INDRA, AZK_Z_GARDEN, 0);
    run(ab);
    AZK_CHECK(idle());
    AZK_CHECK(G.cards[e].zone == AZK_Z_GARDEN && G.cards[G.pl[0].leader].zone == AZK_Z_LEADER);
}

static void test_op_win_lose(void) {
    int ab;
    vm_base(); /* WIN: the controller wins at the state check when the ability ends */
    LOAD_PROG(ab, OP(WIN), OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_WIN_P0 && G.end_reason == AZK_END_EFFECT && G.pending_end == 0);
    vm_base(); /* LOSE */
    LOAD_PROG(ab, OP(LOSE), OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_WIN_P1 && G.end_reason == AZK_END_EFFECT);
    vm_base(); /* both at one state check: a draw (D10) */
    LOAD_PROG(ab, OP(WIN), OP(LOSE), OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_DRAW && G.end_reason == AZK_END_EFFECT);
    vm_base(); /* a question after WIN is never asked: the game ends first */
    LOAD_PROG(ab, OP(WIN), OP(MAY), 0, OP(END));
    run(ab);
    AZK_CHECK(G.result == AZK_RES_WIN_P0 && G.phase == AZK_PHASE_GAME_OVER);
    vm_base(); /* a field change right after WIN: the check after it ends the game */
    LOAD_PROG(ab, OP(LOSE), OP(SETI), 0, 1, OP(DRAW), 0, OP(SETI), 0, 2, OP(DRAW), 0, OP(END));
    int h = G.pl[0].hand_n;
    run(ab);
    AZK_CHECK(G.result == AZK_RES_WIN_P1 && G.pl[0].hand_n == h + 1);
}

static void test_verify_replacement(void) {
    /* the starter set uses none of the events mechanics: every gate of the hot paths is closed */
    base();
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    AZK_CHECK_EQ_U64(CS.set_facts, 0);
    /* replacement statements never ask (azk_verify_program mode 2); loops are allowed */
    base();
    static const uint8_t ok[] = {OP(SETI), 0, 1, OP(JZ), 0, 10, 0, OP(JMP), 0, 0, OP(END)};
    static const uint8_t asks[] = {OP(MAY), 0, OP(END)};
    uint16_t pc = add_code(ok, (int)sizeof ok, 1);
    uint16_t pc2 = add_code(asks, (int)sizeof asks, 1);
    AZK_CHECK(azk_verify_program(&CS, pc2, 0) == 0 && azk_verify_program(&CS, pc2, 2) != 0);
    AZK_CHECK(azk_verify_program(&CS, pc, 2) == 0 && azk_verify_program(&CS, pc, 1) != 0); /* a loop: not in a condition */
    int ab = add_ability(AZK_AB_REPLACEMENT, pc2, AZK_NO_PC, AZK_NO_PC);
    CS.abilities[ab].trigger = AZK_TRIG_ON_DESTROYED;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* it asks */
    CS.abilities[ab].program = AZK_NO_PC;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* does nothing */
    CS.abilities[ab].trigger = AZK_TRIG_ON_DAMAGED;
    CS.abilities[ab].amount = 1;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK); /* prevent 1 */
    CS.abilities[ab].trigger = AZK_TRIG_ON_PLAY;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* not an event a replacement replaces */
    CS.abilities[ab].trigger = AZK_TRIG_ON_DESTROYED;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK); /* prevent: damage only */
    /* an on_destroyed ability runs from the discard pile: no once-per-turn mark, no zone */
    CS.abilities[ab].kind = AZK_AB_TRIGGERED;
    CS.abilities[ab].amount = 0;
    CS.abilities[ab].program = pc;
    AZK_CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CS.abilities[ab].flags = AZK_ABF_ONCE_PER_TURN;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.abilities[ab].flags = AZK_ABF_GARDEN_ONLY;
    AZK_CHECK(azk_cardset_finish(&CS) != AZK_OK);
}

int main(void) {
    AZK_RUN(test_verify_default_and_minimal);
    AZK_RUN(test_verify_unknown_opcode);
    AZK_RUN(test_verify_registers);
    AZK_RUN(test_verify_t_registers);
    AZK_RUN(test_verify_selectors);
    AZK_RUN(test_verify_enums);
    AZK_RUN(test_verify_jumps);
    AZK_RUN(test_verify_termination);
    AZK_RUN(test_verify_foreach);
    AZK_RUN(test_verify_pure);
    AZK_RUN(test_verify_ability_fields);
    AZK_RUN(test_op_end);
    AZK_RUN(test_op_seti_draw);
    AZK_RUN(test_op_addi);
    AZK_RUN(test_op_add_sub);
    AZK_RUN(test_op_min);
    AZK_RUN(test_op_compare);
    AZK_RUN(test_op_jz_jmp);
    AZK_RUN(test_op_ctx);
    AZK_RUN(test_op_ctx_ikz_and_untap);
    AZK_RUN(test_op_count);
    AZK_RUN(test_op_valid_load);
    AZK_RUN(test_self_is_stale_after_zone_change);
    AZK_RUN(test_op_match);
    AZK_RUN(test_op_choose);
    AZK_RUN(test_op_may);
    AZK_RUN(test_op_choose_num);
    AZK_RUN(test_defs_assumed);
    AZK_RUN(test_op_damage);
    AZK_RUN(test_op_mod_attack);
    AZK_RUN(test_op_grant);
    AZK_RUN(test_op_draw);
    AZK_RUN(test_op_mill);
    AZK_RUN(test_op_discard);
    AZK_RUN(test_op_return);
    AZK_RUN(test_op_play_free);
    AZK_RUN(test_op_tap);
    AZK_RUN(test_op_sacrifice);
    AZK_RUN(test_op_look_to_hand_bottom);
    AZK_RUN(test_op_search); /* --- deck --- */
    AZK_RUN(test_op_search_verifier);
    AZK_RUN(test_op_shuffle);
    AZK_RUN(test_op_top_looked);
    AZK_RUN(test_op_put_on_deck);
    AZK_RUN(test_op_foreach_next);
    AZK_RUN(test_condition_programs);
    AZK_RUN(test_step_limit);
    AZK_RUN(test_discard_respects_godmode);
    AZK_RUN(test_return_cost_moves_godmode);
    AZK_RUN(test_leader_cannot_be_moved);
    AZK_RUN(test_verify_activation_owner);
    AZK_RUN(test_declared_operands);
    AZK_RUN(test_every_opcode_runs);
    /* --- effects --- */
    AZK_RUN(test_op_mul_max_abs);
    AZK_RUN(test_op_stat);
    AZK_RUN(test_op_random);
    AZK_RUN(test_op_choose_mode_jtab);
    AZK_RUN(test_op_heal);
    AZK_RUN(test_op_untap_cooldown);
    AZK_RUN(test_op_remove_status);
    AZK_RUN(test_op_swap_move);
    AZK_RUN(test_op_portal);
    AZK_RUN(test_op_attach);
    AZK_RUN(test_op_run_ability);
    AZK_RUN(test_op_count_ge);
    AZK_RUN(test_op_destroy); /* events */
    AZK_RUN(test_op_win_lose);
    AZK_RUN(test_verify_replacement);
    AZK_RUN(test_keywords_and_statuses);
    AZK_RUN(test_auras_and_cost_modifiers); /* --- cont --- */
    return azk_test_summary();
}
