/* test_cards.c — smoke test of the generated default card set
 * (generated/cards_autogen.c, from azuki/data/cards.json): counts, spot
 * checks of printed facts (starter_cards.csv), decklists, and that the
 * engine's own verifier accepts it. */
#include <string.h>

#include "azk_test.h"
#include "azuki.h"
#include "cardset.h"

static const azk_card_def *find(const azk_cardset *cs, const char *id)
{
    for (int i = 0; i < cs->num_defs; i++)
        if (strcmp(cs->defs[i].id, id) == 0)
            return &cs->defs[i];
    return NULL;
}

static void test_counts(void)
{
    const azk_cardset *cs = azk_default_cardset();
    AZK_CHECK_EQ_U64(cs->num_defs, 36);
    AZK_CHECK_EQ_U64(cs->num_decks, 2);
    AZK_CHECK(cs->num_abilities >= 30);
    AZK_CHECK(cs->bytecode_len > 0 && cs->bytecode_len <= AZK_MAX_BYTECODE);
    int types[AZK_CT_COUNT] = {0};
    for (int i = 0; i < cs->num_defs; i++)
        types[cs->defs[i].card_type]++;
    AZK_CHECK_EQ_U64(types[AZK_CT_LEADER], 2);
    AZK_CHECK_EQ_U64(types[AZK_CT_GATE], 2);
    AZK_CHECK_EQ_U64(types[AZK_CT_ENTITY], 20);
    AZK_CHECK_EQ_U64(types[AZK_CT_WEAPON], 5);
    AZK_CHECK_EQ_U64(types[AZK_CT_SPELL], 5);
    AZK_CHECK_EQ_U64(types[AZK_CT_IKZ], 2);
}

static void test_spot_checks(void)
{
    const azk_cardset *cs = azk_default_cardset();
    const azk_card_def *d = find(cs, "STT01-011");
    AZK_CHECK(d != NULL);
    if (d) {
        AZK_CHECK(strcmp(d->name, "Raizan") == 0);
        AZK_CHECK_EQ_U64(d->card_type, AZK_CT_ENTITY);
        AZK_CHECK_EQ_U64(d->cost, 6);
        AZK_CHECK_EQ_U64(d->attack, 4);
        AZK_CHECK_EQ_U64(d->health, 3);
        AZK_CHECK_EQ_U64(d->gate_points, 4);
        AZK_CHECK_EQ_U64(d->element, AZK_EL_LIGHTNING);
        AZK_CHECK_EQ_U64(d->rarity, AZK_RAR_SR);
    }
    d = find(cs, "STT02-012");
    AZK_CHECK(d != NULL);
    if (d) {
        AZK_CHECK(strcmp(d->name, "Young Shao") == 0);
        AZK_CHECK_EQ_U64(d->cost, 4);
        AZK_CHECK_EQ_U64(d->attack, 2);
        AZK_CHECK_EQ_U64(d->health, 2);
        AZK_CHECK_EQ_U64(d->gate_points, 2);
        AZK_CHECK_EQ_U64(d->element, AZK_EL_NEUTRAL);
    }
    d = find(cs, "STT01-001");
    AZK_CHECK(d && d->card_type == AZK_CT_LEADER && d->health == 20);
    d = find(cs, "STT01-010");
    AZK_CHECK(d && (d->keywords & AZK_KW_CHARGE));
    d = find(cs, "STT02-006");
    AZK_CHECK(d && (d->keywords & AZK_KW_DEFENDER) && (d->keywords & AZK_KW_EFFECT_IMMUNE) && d->attack == 0);
    d = find(cs, "STT01-016");
    AZK_CHECK(d && d->card_type == AZK_CT_WEAPON && d->cost == 4 && d->attack == 4);
    d = find(cs, "STT02-017");
    AZK_CHECK(d && d->card_type == AZK_CT_SPELL && d->cost == 6 && d->ability_count == 1);
    d = find(cs, "IKZ-002");
    AZK_CHECK(d && d->card_type == AZK_CT_IKZ);
}

static void test_decks(void)
{
    const azk_cardset *cs = azk_default_cardset();
    static const char *names[2] = {"STT01", "STT02"};
    static const char *leaders[2] = {"STT01-001", "STT02-001"};
    for (int k = 0; k < 2; k++) {
        int di = azk_cardset_find_deck(cs, names[k]);
        AZK_CHECK_EQ_U64(di, k);
        if (di < 0)
            continue;
        const azk_decklist *dk = &cs->decks[di];
        AZK_CHECK(strcmp(cs->defs[dk->leader].id, leaders[k]) == 0);
        AZK_CHECK_EQ_U64(cs->defs[dk->gate].card_type, AZK_CT_GATE);
        AZK_CHECK(strcmp(cs->defs[dk->token].id, "IKZ-002") == 0);
        int copies[AZK_MAX_CARD_DEFS] = {0};
        for (int i = 0; i < AZK_DECK_MAIN; i++) {
            int t = cs->defs[dk->main[i]].card_type;
            AZK_CHECK(t == AZK_CT_ENTITY || t == AZK_CT_WEAPON || t == AZK_CT_SPELL);
            AZK_CHECK(strncmp(cs->defs[dk->main[i]].id, names[k], 5) == 0);
            copies[dk->main[i]]++;
        }
        int distinct = 0;
        for (int i = 0; i < AZK_MAX_CARD_DEFS; i++) {
            AZK_CHECK(copies[i] <= 4);
            distinct += copies[i] > 0;
        }
        AZK_CHECK_EQ_U64(distinct, 15);
        for (int i = 0; i < AZK_DECK_IKZ; i++)
            AZK_CHECK(strcmp(cs->defs[dk->ikz[i]].id, "IKZ-001") == 0);
    }
    AZK_CHECK_EQ_U64(azk_cardset_find_deck(cs, "nope"), (uint64_t)-1);
}

static void test_verifier_accepts_default(void)
{
    static azk_cardset copy;
    memcpy(&copy, azk_default_cardset(), sizeof copy);
    AZK_CHECK_EQ_U64(azk_cardset_finish(&copy), AZK_OK);
    /* a corrupted opcode is rejected */
    copy.bytecode[0] = 0xEE;
    AZK_CHECK(azk_cardset_finish(&copy) != AZK_OK);
}

int main(void)
{
    AZK_RUN(test_counts);
    AZK_RUN(test_spot_checks);
    AZK_RUN(test_decks);
    AZK_RUN(test_verifier_accepts_default);
    return azk_test_summary();
}
