/* fuzz_state.c — libFuzzer: arbitrary bytes into azk_deserialize.
 *
 * Byte 0 selects the mode: even = the rest is used as is (exercises the
 * header, size and checksum checks); odd = the rest becomes the payload of an
 * otherwise valid header with a recomputed checksum, so mutations reach the
 * content validation (invariant checker) and, when accepted, game play.
 * Either the bytes are rejected (game untouched) or the state passes the
 * invariant checker and plays on safely for up to 300 random legal steps. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static azk_game g, untouched, tmpl;
    static uint8_t buf[8192], valid[8192];
    static size_t valid_len = 0;
    const azk_cardset *cs = azk_env_cardset();
    if (!valid_len) { /* a template: the header of a real state */
        azk_game_init(&tmpl, cs, 1, 0, 1);
        valid_len = azk_serialize(&tmpl, cs, valid, sizeof valid);
        FUZZ_REQUIRE(valid_len > 32);
    }
    if (size < 1) return 0;
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    if (data[0] & 1) {
        const size_t header = 24, payload = valid_len - header - 8;
        memcpy(buf, valid, valid_len);
        memcpy(buf + header, in, n < payload ? n : payload);
        uint64_t sum = azk_hash_bytes(buf, header + payload);
        memcpy(buf + header + payload, &sum, 8);
        in = buf;
        n = valid_len;
    }
    memset(&g, 0xA5, sizeof g);
    memcpy(&untouched, &g, sizeof g);
    azk_status st = azk_deserialize(&g, cs, in, n);
    if (st != AZK_OK) {
        FUZZ_REQUIRE(st == AZK_ERR_CORRUPT || st == AZK_ERR_CARDSET || st == AZK_ERR_ARG);
        FUZZ_REQUIRE(memcmp(&g, &untouched, sizeof g) == 0);
        return 0;
    }
    FUZZ_REQUIRE(azk_check_invariants(&g, cs) == 0);
    fuzz_play(&g, cs, azk_hash(&g), 300);
    return 0;
}
