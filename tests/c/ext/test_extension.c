/* test_extension.c — built only by tests/test_extending.py, in a copy of the
 * tree whose .def files gained a test-only keyword (TESTKW) and opcode
 * (TESTOP, with its VM case under -DAZK_TEST_EXTENSIONS): the recipes of
 * docs/extending.md, end to end. Prints "ok" and exits 0 when the keyword
 * aliases no status and the opcode verifies and runs. */
#include <stdio.h>

#include "azk_ops.h"
#include "ext_check.h"
#include "game.h"

#define AZK_REF(name, doc) REF_##name,
enum {
#include "azk_enums.def"
    REF_COUNT_ };
#undef AZK_REF

static azk_cardset CS;
static azk_game G;

int main(void) {
    /* the keyword is a status bit of its own: after the old keywords, before
     * every condition, and the keyword bit is the status bit */
    CHECK(AZK_KWI_TESTKW == AZK_KWI_COUNT - 1 && (int)AZK_STI_TESTKW == (int)AZK_KWI_TESTKW);
    CHECK((unsigned)AZK_KW_TESTKW == (unsigned)AZK_ST_TESTKW);
    CHECK(AZK_ST_TESTKW != AZK_ST_FROZEN && AZK_ST_TESTKW != AZK_ST_SHOCKED);
    CHECK((int)AZK_STI_FROZEN == (int)AZK_KWI_COUNT && (int)AZK_STI_SHOCKED == (int)AZK_KWI_COUNT + 1);
    /* the opcode is declared: appended, operands (T, DUR), FIELD */
    CHECK(AZK_OP_TESTOP == AZK_NUM_OPCODES - 1);
    CHECK(azk_op_operands(AZK_OP_TESTOP) == 2 && azk_op_props(AZK_OP_TESTOP) == AZK_OPP_FIELD);
    CHECK(azk_op_kind(AZK_OP_TESTOP, 0) == AZK_OPK_T && azk_op_kind(AZK_OP_TESTOP, 1) == AZK_OPK_DUR);

    /* a card printing the keyword has the status, and not FROZEN */
    memcpy(&CS, azk_default_cardset(), sizeof CS);
    int leader_def = CS.decks[0].leader;
    CS.defs[leader_def].keywords |= AZK_KW_TESTKW;
    /* LOAD T0, own leader; TESTOP T0, end of turn; END */
    uint16_t pc = CS.bytecode_len;
    const uint8_t prog[] = {AZK_OP_LOAD, 0, REF_OWN_LEADER, AZK_OP_TESTOP, 0, AZK_DUR_END_OF_TURN, AZK_OP_END};
    memcpy(&CS.bytecode[pc], prog, sizeof prog);
    CS.bytecode_len = (uint16_t)(pc + sizeof prog);
    azk_ability *ab = &CS.abilities[CS.num_abilities];
    memset(ab, 0, sizeof *ab);
    ab->kind = AZK_AB_TRIGGERED;
    ab->program = pc;
    ab->requirement = ab->condition = AZK_NO_PC;
    int ai = CS.num_abilities++;
    CHECK(azk_cardset_finish(&CS) == AZK_OK);
    CHECK(azk_verify_program(&CS, pc, 0) == 0);
    CHECK(azk_verify_program(&CS, pc, 1) != 0); /* not pure */

    CHECK(azk_game_init(&G, &CS, 7, 0, 1) == AZK_OK);
    int leader = G.pl[0].leader;
    unsigned st = azk_status_of(&G, &CS, leader);
    CHECK((st & AZK_ST_TESTKW) && !(st & AZK_ST_FROZEN));
    /* the opcode runs: it grants TESTKW to the opponent's leader too */
    int opp = G.pl[1].leader;
    CHECK(!(azk_status_of(&G, &CS, opp) & AZK_ST_TESTKW));
    azk_vm_start(&G, &CS, ai, opp, 1, -1, 0, -1);
    azk_advance(&G, &CS);
    CHECK(!G.vm.active && G.result == AZK_RES_ONGOING);
    st = azk_status_of(&G, &CS, opp);
    CHECK((st & AZK_ST_TESTKW) && !(st & AZK_ST_FROZEN));
    CHECK(azk_check_invariants(&G, &CS) == 0);

    /* out-of-range operands are refused by the generated checks */
    CS.bytecode[pc + 4] = AZK_TREGS;
    CHECK(azk_cardset_finish(&CS) != AZK_OK);
    CS.bytecode[pc + 4] = 0;
    CS.bytecode[pc + 5] = AZK_DUR_COUNT;
    CHECK(azk_cardset_finish(&CS) != AZK_OK);
    printf("ok\n");
    return 0;
}
