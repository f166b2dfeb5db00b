/* azuki_wasm.c — the thin C glue of the WebAssembly build (wasm/build.py,
 * docs/play.md "Static site"). The page's worker (azuki/web/static/wasm/
 * azuki-worker.js) calls the public API of csrc/azuki.h directly; this file
 * adds only what JavaScript cannot do through it: allocate a game or a card
 * set of the right size (azk_cardset is opaque in azuki.h), drive the search
 * bot with a chosen simulation count, the self-test loop (whole games in
 * C, so its decisions/s measure the engine, not the JS boundary), and, when
 * the core has the policy forward pass (csrc/policy.c; wasm/build.py then
 * defines AZW_POLICY), one observation and forward pass per decision of a
 * checkpoint opponent.
 *
 * Everything here is single-threaded: the module runs inside one Web Worker.
 * Nothing prints or aborts; errors are returned as values (azuki.h's
 * contract). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "azuki.h"
#include "cardset.h" /* sizeof(azk_cardset) only: the set is opaque in azuki.h */

#define AZW_EXPORT __attribute__((used, visibility("default")))
/* The step-hash sequence digest: 64-bit FNV-1a over whole hashes, so the
 * native side recomputes it in a line of Python. */
#define AZW_SEQ_BASIS 0xcbf29ce484222325ULL
#define AZW_SEQ_PRIME 0x100000001b3ULL

/* A game of card set `cs`, or NULL (a bad deck index, out of memory). */
AZW_EXPORT azk_game *azw_game_new(const azk_cardset *cs, uint64_t seed, int deck0, int deck1, int turn_cap) {
    azk_game *g = malloc(azk_game_size());
    if (!g) return NULL;
    if (azk_game_init(g, cs, seed, deck0, deck1) != AZK_OK) {
        free(g);
        return NULL;
    }
    if (turn_cap > 0) azk_game_set_turn_cap(g, turn_cap);
    return g;
}

AZW_EXPORT azk_game *azw_game_clone(const azk_game *src) {
    azk_game *g = malloc(azk_game_size());
    if (g) azk_game_clone(g, src);
    return g;
}

AZW_EXPORT void azw_free(void *p) { free(p); }
AZW_EXPORT void *azw_alloc(size_t n) { return malloc(n); }

/* A card set from pack.py's bytes (azk_cardset_load), or NULL; *status
 * receives the azk_status. */
AZW_EXPORT azk_cardset *azw_cardset_load(const uint8_t *bytes, size_t len, int *status) {
    azk_cardset *cs = calloc(1, sizeof(azk_cardset));
    if (!cs) {
        *status = AZK_ERR_ARG;
        return NULL;
    }
    *status = azk_cardset_load(cs, bytes, len);
    if (*status != AZK_OK) {
        free(cs);
        return NULL;
    }
    return cs;
}

/* A bot pcg32 stream (two uint64 words) seeded by azk_bot_seed. */
AZW_EXPORT uint64_t *azw_bot_rng(uint64_t seed) {
    uint64_t *rng = malloc(2 * sizeof(uint64_t));
    if (rng) azk_bot_seed(rng, seed);
    return rng;
}

/* The bot's action (azk_bot_act), the search bot with `sims` simulations
 * (<= 0: its default); minus an azk_status on error. */
AZW_EXPORT int azw_bot_act(const azk_game *g, const azk_cardset *cs, int kind, uint64_t *rng, int sims) {
    if (kind != AZK_BOT_SEARCH || sims <= 0) return azk_bot_act(g, cs, kind, rng);
    azk_search_params p;
    azk_search_defaults(&p);
    p.sims = sims;
    return azk_bot_act_search(g, cs, rng, &p);
}

/* The state hash as two 32-bit halves (JS reads them without BigInt). */
AZW_EXPORT void azw_hash(const azk_game *g, uint32_t *out) {
    uint64_t h = azk_hash(g);
    out[0] = (uint32_t)h;
    out[1] = (uint32_t)(h >> 32);
}

/* The self-test (`?selftest=N`): game i plays engine seed seed + i with the
 * decks deck0, deck1, its seat s played by bot kinds[s] drawing from the
 * stream azk_bot_seed(seed + i + s * 2^32); the search bot runs `sims`
 * simulations. out[2i], out[2i+1]: the final state hash and the digest of
 * every step's state hash (seq = (seq ^ hash) * AZW_SEQ_PRIME) (both as in tests/test_wasm.py's
 * native replay of the same games). Returns the decisions made, or minus an
 * azk_status. */
AZW_EXPORT long long azw_selftest(const azk_cardset *cs, int n, uint64_t seed, int deck0, int deck1, int kind0,
                                  int kind1, int sims, uint64_t *out) {
    azk_game *g = malloc(azk_game_size());
    if (!g) return -AZK_ERR_ARG;
    long long decisions = 0;
    int kinds[2] = {kind0, kind1};
    for (int i = 0; i < n; i++) {
        uint64_t rng[2][2], seq = AZW_SEQ_BASIS;
        if (azk_game_init(g, cs, seed + (uint64_t)i, deck0, deck1) != AZK_OK) {
            free(g);
            return -AZK_ERR_ARG;
        }
        for (int s = 0; s < 2; s++) azk_bot_seed(rng[s], seed + (uint64_t)i + ((uint64_t)s << 32));
        while (!azk_is_terminal(g)) {
            int p = azk_current_player(g);
            int a = azw_bot_act(g, cs, kinds[p], rng[p], sims);
            if (a < 0 || azk_step(g, cs, a) != AZK_OK) {
                free(g);
                return a < 0 ? a : -AZK_ILLEGAL;
            }
            seq = (seq ^ azk_hash(g)) * AZW_SEQ_PRIME;
            decisions++;
        }
        out[2 * i] = azk_hash(g);
        out[2 * i + 1] = seq;
    }
    free(g);
    return decisions;
}

#ifdef AZW_POLICY
/* A policy from an AZKW weight file's bytes (azk_policy_load), or NULL; *status
 * receives the azk_policy_status and msg what was wrong. */
AZW_EXPORT azk_policy *azw_policy_load(const uint8_t *bytes, size_t len, int *status, char *msg, size_t msg_cap) {
    azk_policy *p = NULL;
    *status = azk_policy_load(bytes, len, &p, msg, msg_cap);
    return *status == AZK_POLICY_OK ? p : NULL;
}

/* The policy's log-probabilities of every flat action (logp[azk_num_actions()])
 * and its value for the player to act in g, from that player's observation.
 * 0, or minus an azk_policy_status (-AZK_POLICY_E_ARG for a finished game). */
AZW_EXPORT int azw_policy_forward(const azk_policy *p, const azk_game *g, const azk_cardset *cs, float *logp,
                                  float *value) {
    int me = azk_current_player(g);
    if (me < 0) return -AZK_POLICY_E_ARG;
    uint8_t *obs = malloc((size_t)azk_obs_len());
    if (!obs) return -AZK_POLICY_E_NOMEM;
    azk_observe(g, cs, me, obs);
    int bad = -1;
    azk_policy_status st = azk_policy_forward(p, obs, 1, (size_t)azk_obs_len(), logp, value, &bad);
    free(obs);
    return st == AZK_POLICY_OK ? 0 : -(int)st;
}
#endif
