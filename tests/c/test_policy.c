/* test_policy.c — the C policy (csrc/policy.c) under the sanitizers: the shipped reference weight
 * file (azuki/data/reference/reference.azkw, read from the repository root where `make ctest` /
 * `make asan` run) loads, plays random games' observations of both seats (forward, sampled and
 * greedy act: legal actions, finite log-probabilities summing to 1), refuses every truncation and
 * a garbage observation with a status, never reading out of bounds. The exactness against torch
 * and numpy is tests/test_cpolicy.py and tests/envs/test_cpolicy_torch.py. */
#include "azk_test.h"
#include "azk_reference.h"
#include "azuki.h"

#include <math.h>
#include <stdlib.h>

static void test_reference_plays(void) {
    long n = 0;
    uint8_t *b = azk_test_file_bytes(AZK_TEST_REFERENCE_AZKW, &n);
    AZK_CHECK(b != NULL);
    if (!b) return;
    char msg[256];
    azk_policy *p = NULL;
    AZK_CHECK(azk_policy_load(b, (size_t)n, &p, msg, sizeof msg) == AZK_POLICY_OK);
    if (!p) { free(b); return; }
    AZK_CHECK(azk_policy_arch(p) == AZK_POLICY_ARCH_STRUCTURED && azk_policy_head(p) == AZK_POLICY_HEAD_FACTORED);
    AZK_CHECK(azk_policy_hash(p, 2) && strlen(azk_policy_hash(p, 2)) == 16 && !azk_policy_hash(p, 3));
    azk_game *g = malloc(azk_game_size());
    const azk_cardset *cs = azk_default_cardset();
    int L = azk_obs_len(), NA = azk_num_actions();
    uint8_t *obs = malloc(2 * (size_t)L), *mask = malloc((size_t)NA);
    float *lp = malloc(2 * (size_t)NA * sizeof(float)), v[2];
    int32_t a[2], la[2048];
    double u[2] = {0.3, 0.999};
    uint64_t rs = 1;
    for (int gi = 0; gi < 6; gi++) {
        azk_game_init(g, cs, (uint64_t)gi, 0, 1);
        while (!azk_is_terminal(g)) {
            int cp = azk_current_player(g);
            azk_observe(g, cs, cp, obs);
            azk_observe(g, cs, 1 - cp, obs + L);
            AZK_CHECK(azk_policy_forward(p, obs, 2, (size_t)L, lp, v, NULL) == AZK_POLICY_OK);
            double s = 0.0;
            for (int k = 0; k < NA; k++) s += isfinite(lp[k]) ? exp(lp[k]) : 0.0;
            AZK_CHECK(fabs(s - 1.0) < 1e-4 && isfinite(v[0]));
            AZK_CHECK(azk_policy_act(p, obs, 2, (size_t)L, u, a, v, NULL) == AZK_POLICY_OK);
            azk_legal_mask(g, cs, mask);
            AZK_CHECK(a[0] >= 0 && a[0] < NA && mask[a[0]]);
            AZK_CHECK(azk_policy_act(p, obs, 1, (size_t)L, NULL, a, NULL, NULL) == AZK_POLICY_OK && mask[a[0]]);
            int k = azk_legal_actions(g, cs, la, 2048);
            rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
            azk_step(g, cs, la[(rs >> 33) % (uint64_t)k]);
        }
    }
    for (int i = 0; i < L; i++) obs[i] = (uint8_t)(i * 7 + 255);
    int bad = -2;
    AZK_CHECK(azk_policy_forward(p, obs, 1, (size_t)L, lp, v, &bad) == AZK_POLICY_E_OBS && bad == 0);
    AZK_CHECK(azk_policy_forward(p, obs, 1, 3, lp, v, NULL) == AZK_POLICY_E_ARG);
    for (long cut = 0; cut < n; cut += 401) {
        azk_policy *q = NULL;
        AZK_CHECK(azk_policy_load(b, (size_t)cut, &q, msg, sizeof msg) != AZK_POLICY_OK && q == NULL && msg[0]);
    }
    azk_policy_free(p);
    free(g);
    free(obs);
    free(mask);
    free(lp);
    free(b);
}

static void test_keyed_uniform(void) {
    /* azuki.sampler.keyed_uniforms(0, [0, 1]) (tests/test_cpolicy.py checks every key against Python) */
    double u0 = azk_keyed_uniform(0, 0), u1 = azk_keyed_uniform(0, 1);
    AZK_CHECK(u0 >= 0.0 && u0 < 1.0 && u1 >= 0.0 && u1 < 1.0 && u0 != u1);
    AZK_CHECK(azk_keyed_uniform(5, 9) == azk_keyed_uniform(5, 9));
}

int main(void) {
    AZK_RUN(test_reference_plays);
    AZK_RUN(test_keyed_uniform);
    return azk_test_summary();
}
