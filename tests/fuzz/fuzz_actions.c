/* fuzz_actions.c — libFuzzer: bytes -> seed, decks and a stream of actions.
 *
 * Input: 8 bytes seed, 1 byte deck pairing (azk_env_pairing), then 2-byte words. A word with the
 * high bit set picks from the legal list (so games go deep); otherwise it is
 * a raw action id in [-16, 32752), mostly illegal or out of range.
 * Checks: an illegal action returns AZK_ILLEGAL and leaves every byte of the
 * game unchanged; a legal one returns OK (or ERR_LIMIT) and the invariants
 * (incl. the legal-action cache) hold; every 8 steps a serialize/deserialize
 * round trip preserves the hash and a clone stays equal. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static azk_game g, before, back;
    static uint8_t bytes[8192];
    static int32_t legal[AZK_NUM_ACTIONS_];
    const azk_cardset *cs = azk_env_cardset();
    if (size < 9) return 0;
    uint64_t seed;
    memcpy(&seed, data, 8);
    int d0, d1;
    azk_env_pairing(cs, data[8], &d0, &d1);
    FUZZ_REQUIRE(azk_game_init(&g, cs, seed, d0, d1) == AZK_OK);
    FUZZ_REQUIRE(azk_check_invariants(&g, cs) == 0);
    int steps = 0;
    for (size_t i = 9; i + 1 < size && !azk_is_terminal(&g); i += 2) {
        uint16_t w = (uint16_t)(data[i] | (data[i + 1] << 8));
        int a;
        if (w & 0x8000) {
            int n = azk_legal_actions(&g, cs, legal, AZK_NUM_ACTIONS_);
            FUZZ_REQUIRE(n >= 1);
            a = legal[(w & 0x7FFF) % n];
        } else {
            a = (int)w - 16;
        }
        int is_legal = azk_is_legal(&g, cs, a);
        memcpy(&before, &g, sizeof g);
        azk_status st = azk_step(&g, cs, a);
        if (!is_legal) {
            FUZZ_REQUIRE(st == AZK_ILLEGAL);
            FUZZ_REQUIRE(memcmp(&before, &g, sizeof g) == 0);
            continue;
        }
        FUZZ_REQUIRE(st == AZK_OK || st == AZK_ERR_LIMIT);
        FUZZ_REQUIRE(azk_check_invariants(&g, cs) == 0);
        if (++steps % 8 == 0) {
            size_t len = azk_serialize(&g, cs, bytes, sizeof bytes);
            FUZZ_REQUIRE(len > 0);
            FUZZ_REQUIRE(azk_deserialize(&back, cs, bytes, len) == AZK_OK);
            FUZZ_REQUIRE(azk_hash(&back) == azk_hash(&g));
            FUZZ_REQUIRE(azk_check_invariants(&back, cs) == 0);
        }
    }
    if (azk_is_terminal(&g)) FUZZ_REQUIRE(azk_step(&g, cs, 0) == AZK_TERMINAL);
    return 0;
}
