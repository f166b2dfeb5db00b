/* fuzz_cards.c — libFuzzer: hostile card sets into the verifier.
 *
 * The input is a list of 3-byte patches (16-bit offset, value) applied to a
 * copy of the embedded card set or $AZK_CARDSET (offsets wrap over the whole azk_cardset:
 * counts, definitions, decklists, abilities, selectors, bytecode). The patched
 * set goes through azk_cardset_finish; if it is accepted, two short games
 * with random legal play must keep every invariant. A verified set that can
 * crash, hang or corrupt a game is a verifier bug. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static azk_cardset cs;
    static azk_game g;
    memcpy(&cs, azk_env_cardset(), sizeof cs);
    uint8_t *raw = (uint8_t *)&cs;
    for (size_t i = 0; i + 2 < size; i += 3) {
        size_t off = (size_t)(data[i] | (data[i + 1] << 8));
        /* bias toward the parts that carry programs: bytecode and abilities */
        if (off & 0x8000) {
            size_t span = (size_t)cs.bytecode_len + 8u; /* bytecode_len itself may have been patched */
            if (span > AZK_MAX_BYTECODE) span = AZK_MAX_BYTECODE;
            off = offsetof(azk_cardset, bytecode) + (off & 0x7FFF) % span;
        }
        else off = off % sizeof cs;
        raw[off] = data[i + 2];
    }
    if (azk_cardset_finish(&cs) != AZK_OK) return 0;
    for (int k = 0; k < 2; k++) {
        if (azk_game_init(&g, &cs, (uint64_t)size * 31u + (uint64_t)k, k % cs.num_decks, (k + 1) % cs.num_decks) != AZK_OK)
            return 0;
        azk_game_set_turn_cap(&g, 8);
        FUZZ_REQUIRE(azk_check_invariants(&g, &cs) == 0);
        fuzz_play(&g, &cs, (uint64_t)k + size, 400);
    }
    return 0;
}
