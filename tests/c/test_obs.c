/* test_obs.c — the observation encoder and the resampler through the public
 * API (csrc/obs.c): the layout (contiguous fields, kinds, a multiple of 8
 * bytes, at most 1.5 KB), random games of every deck pairing (AZK_TEST_GAMES,
 * default 200): at every decision both seats' observations have every byte
 * of every field within its kind's range (ID <= 127, ENUM < n, PLACE <= 24,
 * BITS: no bit at or past n), the packed MASK field is the legal mask for the
 * decider and 0 for the other seat, and azk_resample leaves the resampled
 * seat's observation byte-identical, passes the invariant checker and plays
 * on. Runs under ASan+UBSan too. */
#include <stdlib.h>
#include <stdint.h>

#include "azuki.h"
#include "azk_test.h"

#define MAX_FIELDS 128
static int nf, f_off[MAX_FIELDS], f_rows[MAX_FIELDS], f_cols[MAX_FIELDS], f_kind[MAX_FIELDS], f_n[MAX_FIELDS];

static int field_index(const char *name) {
    for (int i = 0; i < azk_obs_num_fields(); i++)
        if (strcmp(azk_obs_field_name(i), name) == 0) return i;
    return -1;
}

static void test_layout(void) {
    int off = 0;
    nf = azk_obs_num_fields();
    AZK_CHECK(nf > 0 && nf <= MAX_FIELDS);
    for (int i = 0; i < nf; i++) {
        int o = -1, r = 0, c = 0, k = -1, n = -1;
        AZK_CHECK(azk_obs_field(i, &o, &r, &c, &k, &n) == 0);
        AZK_CHECK(o == off && r > 0 && c >= 0 && n > 0);
        AZK_CHECK(azk_obs_field_doc(i) && azk_obs_field_name(i) && azk_obs_kind_name(k));
        if (k == AZK_OBSK_BITS) AZK_CHECK(n <= 8 * c);
        if (k == AZK_OBSK_ID) AZK_CHECK(n == 128);
        if (k == AZK_OBSK_PLACE) AZK_CHECK(n == 25);
        if (k == AZK_OBSK_ENUM) AZK_CHECK(n <= 256);
        f_off[i] = o, f_rows[i] = r, f_cols[i] = c, f_kind[i] = k, f_n[i] = n;
        off += r * c;
    }
    AZK_CHECK(off == azk_obs_len() && off % 8 == 0 && off <= 1536);
    AZK_CHECK(azk_obs_field(nf, NULL, NULL, NULL, NULL, NULL) == -1);
    AZK_CHECK(azk_obs_field_name(-1) == NULL && azk_obs_kind_name(AZK_OBSK_COUNT) == NULL);
    int m = field_index("MASK");
    AZK_CHECK(m >= 0 && f_kind[m] == AZK_OBSK_BITS && f_n[m] == azk_num_actions());
    AZK_CHECK(f_rows[m] * f_cols[m] == (azk_num_actions() + 7) / 8);
}

/* Every byte within its field's kind (0 when the check fails, else 1). */
static int in_range(const uint8_t *a) {
    for (int f = 0; f < nf; f++) {
        int n = f_n[f];
        for (int r = 0; r < f_rows[f]; r++)
            for (int c = 0; c < f_cols[f]; c++) {
                unsigned v = a[f_off[f] + r * f_cols[f] + c];
                switch (f_kind[f]) {
                case AZK_OBSK_ID:
                case AZK_OBSK_ENUM:
                case AZK_OBSK_PLACE:
                    if (v >= (unsigned)n) return 0;
                    break;
                case AZK_OBSK_BITS:
                    for (int b = 0; b < 8; b++)
                        if ((v >> b & 1) && 8 * c + b >= n) return 0;
                    break;
                default: break; /* NUM, SNUM: every byte is a value */
                }
            }
    }
    return 1;
}

static void test_random_games(void) {
    const azk_cardset *cs = azk_default_cardset();
    int len = azk_obs_len(), na = azk_num_actions();
    int moff = f_off[field_index("MASK")];
    const char *env = getenv("AZK_TEST_GAMES");
    int games = env ? atoi(env) / 50 : 200;
    if (games < 8) games = 8;
    azk_game *g = malloc(azk_game_size()), *h = malloc(azk_game_size());
    uint8_t *a = malloc((size_t)len), *b = malloc((size_t)len);
    uint8_t *mask = malloc((size_t)na);
    int32_t *legal = malloc(sizeof(int32_t) * (size_t)na);
    AZK_CHECK(azk_observe(g, cs, 2, a) == -1 && azk_observe(NULL, cs, 0, a) == -1 && azk_observe(g, cs, 0, NULL) == -1);
    int bad = 0, resampled = 0;
    uint64_t x = 88172645463325252ull;
    for (int gi = 0; gi < games && !bad; gi++) {
        AZK_CHECK(azk_game_init(g, cs, (uint64_t)gi, gi & 1, (gi >> 1) & 1) == AZK_OK);
        while (!azk_is_terminal(g) && !bad) {
            int cp = azk_current_player(g);
            azk_legal_mask(g, cs, mask);
            for (int seat = 0; seat < 2; seat++) {
                memset(a, 0xa5, (size_t)len); /* every byte is written */
                AZK_CHECK(azk_observe(g, cs, seat, a) == len);
                if (!in_range(a)) bad = 1;
                for (int i = 0; i < na; i++)
                    if ((a[moff + (i >> 3)] >> (i & 7) & 1) != (seat == cp ? mask[i] : 0)) bad = 2;
            }
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if ((x & 7) == 0) { /* resample a clone for one seat */
                int seat = (int)(x >> 8) & 1;
                azk_game_clone(h, g);
                AZK_CHECK(azk_observe(g, cs, seat, a) == len);
                AZK_CHECK(azk_resample(h, cs, seat, x) == AZK_OK);
                AZK_CHECK(azk_observe(h, cs, seat, b) == len);
                if (memcmp(a, b, (size_t)len) != 0) bad = 3;
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
