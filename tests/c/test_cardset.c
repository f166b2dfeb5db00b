/* test_cardset.c — azk_cardset_load and azk_cardset_layout (cardset.c): the
 * bytes of a set (8-byte header + the data declared in azk_cardset.def) load
 * into the same set, and wrong lengths, magics, versions and unverifiable
 * data are refused. The Python side (tests/test_cardset_layout.py) checks
 * azuki/convert/pack.py against the same layout table. */
#include <stdlib.h>
#include <string.h>

#include "azk_test.h"
#include "azuki.h"
#include "cardset.h"

#define LEN (AZK_CARDSET_HEADER_BYTES + AZK_CARDSET_HASHED_BYTES)

/* The default set's bytes, as azuki/convert/pack.py writes them. */
static uint8_t *default_bytes(void) {
    uint8_t *b = calloc(1, LEN);
    uint32_t magic = AZK_CARDSET_MAGIC, version = AZK_CARDSET_FORMAT_VERSION;
    memcpy(b, &magic, 4);
    memcpy(b + 4, &version, 4);
    memcpy(b + AZK_CARDSET_HEADER_BYTES, azk_default_cardset(), AZK_CARDSET_HASHED_BYTES);
    return b;
}

static void test_load_round_trip(void) {
    uint8_t *b = default_bytes();
    azk_cardset *cs = malloc(sizeof *cs);
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, LEN), AZK_OK);
    AZK_CHECK_EQ_U64(azk_cardset_hash(cs), azk_cardset_hash(azk_default_cardset()));
    /* the derived tables are rebuilt, not read */
    AZK_CHECK(memcmp(cs, azk_default_cardset(), sizeof *cs) == 0);
    free(cs);
    free(b);
}

static void test_load_refuses(void) {
    uint8_t *b = default_bytes();
    azk_cardset *cs = malloc(sizeof *cs);
    memset(cs, 0x5a, sizeof *cs);
    AZK_CHECK_EQ_U64(azk_cardset_load(NULL, b, LEN), AZK_ERR_ARG);
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, NULL, LEN), AZK_ERR_ARG);
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, LEN - 1), AZK_ERR_CORRUPT);
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, AZK_CARDSET_HASHED_BYTES), AZK_ERR_CORRUPT);
    b[0] ^= 1;
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, LEN), AZK_ERR_CORRUPT);
    b[0] ^= 1;
    b[4] ^= 1;
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, LEN), AZK_ERR_CORRUPT);
    AZK_CHECK(((uint8_t *)cs)[0] == 0x5a);   /* untouched by a refused header */
    b[4] ^= 1;
    /* data that fails verification: num_defs = 0 */
    memset(b + AZK_CARDSET_HEADER_BYTES + offsetof(azk_cardset, num_defs), 0, sizeof cs->num_defs);
    AZK_CHECK_EQ_U64(azk_cardset_load(cs, b, LEN), AZK_ERR_CARDSET);
    free(cs);
    free(b);
}

static void test_layout_table(void) {
    int n = 0;
    const azk_field_layout *t = azk_cardset_layout(&n);
    AZK_CHECK(t != NULL && n > 5);
    int records = 0;
    uint32_t end = 0;
    for (int i = 0; i < n; i++) {
        if (!t[i].field[0]) {
            records++;
            end = 0;
            if (!strcmp(t[i].record, "azk_cardset")) AZK_CHECK_EQ_U64(t[i].size, AZK_CARDSET_HASHED_BYTES);
            if (!strcmp(t[i].record, "azk_card_def")) AZK_CHECK_EQ_U64(t[i].size, sizeof(azk_card_def));
            continue;
        }
        AZK_CHECK(t[i].offset >= end);       /* declaration order is struct order */
        end = t[i].offset + t[i].size;
    }
    AZK_CHECK_EQ_U64(records, 5);
    AZK_CHECK_EQ_U64(end, AZK_CARDSET_HASHED_BYTES);   /* the last row: azk_cardset.bytecode */
}

int main(void) {
    AZK_RUN(test_load_round_trip);
    AZK_RUN(test_load_refuses);
    AZK_RUN(test_layout_table);
    return azk_test_summary();
}
