/* test_obs.c — the observation encoder and the resampler through the public
 * API (csrc/obs.c): random games of every deck pairing (AZK_TEST_GAMES, default
 * 200), at every decision both seats' observations are finite and in [-1, 1],
 * the MASK slice is the legal mask for the decider and 0 for the other seat,
 * and azk_resample leaves the resampled seat's observation byte-identical,
 * passes the invariant checker and plays on. Runs under ASan+UBSan too. */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>

#include "azuki.h"
#include "azk_test.h"

static int mask_offset(void) {
    for (int i = 0; i < azk_obs_num_fields(); i++)
        if (strcmp(azk_obs_field_name(i), "MASK") == 0) {
            int off = -1, rows = 0, cols = 0;
            azk_obs_field(i, &off, &rows, &cols);
            return rows * cols == azk_num_actions() ? off : -1;
        }
    return -1;
}

static void test_layout(void) {
    int off = 0;
    for (int i = 0; i < azk_obs_num_fields(); i++) {
        int o = -1, r = 0, c = 0;
        AZK_CHECK(azk_obs_field(i, &o, &r, &c) == 0);
        AZK_CHECK(o == off && r > 0 && c > 0);
        AZK_CHECK(azk_obs_field_doc(i) && azk_obs_field_norm(i) && azk_obs_field_name(i));
        off += r * c;
    }
    AZK_CHECK(off == azk_obs_len());
    AZK_CHECK(azk_obs_field(azk_obs_num_fields(), NULL, NULL, NULL) == -1);
    AZK_CHECK(azk_obs_field_name(-1) == NULL);
    AZK_CHECK(mask_offset() + azk_num_actions() == azk_obs_len());
}

static void test_random_games(void) {
    const azk_cardset *cs = azk_default_cardset();
    int len = azk_obs_len(), moff = mask_offset(), na = azk_num_actions();
    const char *env = getenv("AZK_TEST_GAMES");
    int games = env ? atoi(env) / 50 : 200;
    if (games < 8) games = 8;
    azk_game *g = malloc(azk_game_size()), *h = malloc(azk_game_size());
    float *a = malloc(sizeof(float) * (size_t)len), *b = malloc(sizeof(float) * (size_t)len);
    uint8_t *mask = malloc((size_t)na);
    int32_t *legal = malloc(sizeof(int32_t) * (size_t)na);
    AZK_CHECK(azk_observe(g, cs, 2, a) == -1 && azk_observe(NULL, cs, 0, a) == -1);
    int bad = 0, resampled = 0;
    uint64_t x = 88172645463325252ull;
    for (int gi = 0; gi < games && !bad; gi++) {
        AZK_CHECK(azk_game_init(g, cs, (uint64_t)gi, gi & 1, (gi >> 1) & 1) == AZK_OK);
        while (!azk_is_terminal(g) && !bad) {
            int cp = azk_current_player(g);
            azk_legal_mask(g, cs, mask);
            for (int seat = 0; seat < 2; seat++) {
                AZK_CHECK(azk_observe(g, cs, seat, a) == len);
                for (int i = 0; i < len; i++)
                    if (!isfinite(a[i]) || a[i] < -1.f || a[i] > 1.f) bad = 1;
                for (int i = 0; i < na; i++)
                    if (a[moff + i] != (seat == cp ? (float)mask[i] : 0.f)) bad = 2;
            }
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if ((x & 7) == 0) { /* resample a clone for one seat */
                int seat = (int)(x >> 8) & 1;
                azk_game_clone(h, g);
                AZK_CHECK(azk_observe(g, cs, seat, a) == len);
                AZK_CHECK(azk_resample(h, cs, seat, x) == AZK_OK);
                AZK_CHECK(azk_observe(h, cs, seat, b) == len);
                if (memcmp(a, b, sizeof(float) * (size_t)len) != 0) bad = 3;
                if (azk_check_invariants(h, cs) != 0) bad = 4;
                for (int k = 0; k < 30 && !azk_is_terminal(h); k++) {
                    int n = azk_legal_actions(h, cs, legal, na);
                    if (n <= 0 || azk_step(h, cs, legal[(x >> 16) % (uint64_t)n]) != AZK_OK) { bad = 5; break; }
                }
                resampled++;
            }
            int n = azk_legal_actions(g, cs, legal, na);
            AZK_CHECK(n > 0);
            if (n <= 0) break;
            AZK_CHECK(azk_step(g, cs, legal[(x >> 24) % (uint64_t)n]) == AZK_OK);
        }
        AZK_CHECK(azk_resample(g, cs, 0, 1) == AZK_ERR_ARG); /* finished */
    }
    if (bad) fprintf(stderr, "observation check %d failed\n", bad);
    AZK_CHECK(bad == 0);
    AZK_CHECK(resampled > games);
    free(g); free(h); free(a); free(b); free(mask); free(legal);
}

int main(void) {
    AZK_RUN(test_layout);
    AZK_RUN(test_random_games);
    return azk_test_summary();
}
