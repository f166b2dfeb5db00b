/* test_vec_threads.c — the vector of games' worker pool (azk_vec_set_threads):
 * for every mode (SELF, BOT, POLICY with the bot answering from C), both
 * waiting policies and both illegal-action
 * policies, a vector stepped with k threads writes exactly the bytes k = 1
 * writes (observations, masks, rewards, flags, the log, every game's hash
 * and episode) over hundreds of steps and many episodes; threads can be
 * changed between calls; bad k; the deal schedule (azk_deal_schedule) is
 * what the vector plays. Runs under ASan+UBSan (make asan) and TSan (make
 * tsan). */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "azuki.h"
#include "azk_test.h"

static const int32_t PAIRS[4] = {0, 1, 1, 0};

struct run {
    azk_vec *v;
    int rows, n;
    uint8_t *obs, *masks, *opp_obs, *opp_masks, *pend, *term, *trunc;
    float *rew;
    int32_t *act, *acting;
};

static void run_open(struct run *r, const azk_cardset *cs, int n, int mode, int waiting, int illegal,
                     int threads) {
    r->n = n;
    r->v = malloc(azk_vec_size(n));
    AZK_CHECK(azk_vec_init(r->v, cs, n, 1234, mode, 1, PAIRS, 2) == AZK_OK);
    AZK_CHECK(azk_vec_set_obs(r->v, AZK_VEC_OBS_U8, waiting) == AZK_OK);
    AZK_CHECK(azk_vec_set_illegal(r->v, illegal) == AZK_OK);
    AZK_CHECK(azk_vec_set_threads(r->v, threads) == AZK_OK);
    AZK_CHECK(azk_vec_threads(r->v) == threads);
    r->rows = azk_vec_rows(r->v);
    size_t ob = (size_t)azk_obs_len(), na = (size_t)azk_num_actions();
    r->obs = calloc((size_t)r->rows, ob);
    r->masks = calloc((size_t)r->rows, na);
    r->opp_obs = calloc((size_t)n, ob);
    r->opp_masks = calloc((size_t)n, na);
    r->pend = calloc((size_t)n, 1);
    r->term = calloc((size_t)r->rows, 1);
    r->trunc = calloc((size_t)r->rows, 1);
    r->rew = calloc((size_t)r->rows, sizeof(float));
    r->act = calloc((size_t)r->rows, sizeof(int32_t));
    r->acting = calloc((size_t)r->rows, sizeof(int32_t));
    AZK_CHECK(azk_vec_observe(r->v, cs, r->obs, r->masks, r->acting) == AZK_OK);
}

static void run_close(struct run *r) {
    AZK_CHECK(azk_vec_set_threads(r->v, 1) == AZK_OK);
    free(r->v);
    free(r->obs), free(r->masks), free(r->opp_obs), free(r->opp_masks), free(r->pend);
    free(r->term), free(r->trunc), free(r->rew), free(r->act), free(r->acting);
}

/* the actions of a step: a legal one drawn from each mask row by a counter
 * hash (both runs draw the same), now and then an illegal one (LOSE) */
static void choose(struct run *r, const uint8_t *masks, int rows, uint32_t step, int illegal) {
    int na = azk_num_actions();
    for (int k = 0; k < rows; k++) {
        const uint8_t *m = masks + (size_t)k * (size_t)na;
        int cnt = 0;
        for (int a = 0; a < na; a++) cnt += m[a];
        uint32_t h = (step * 2654435761u) ^ ((uint32_t)k * 40503u);
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        h ^= h >> 15;
        int j = (int)(h % (uint32_t)(cnt ? cnt : 1));
        r->act[k] = 0;
        for (int a = 0; a < na; a++)
            if (m[a] && j-- == 0) {
                r->act[k] = a;
                break;
            }
        if (illegal && h % 97 == 0) r->act[k] = na - 1; /* usually illegal */
    }
}

static void step(struct run *r, const azk_cardset *cs, uint32_t s, int mode, int illegal) {
    choose(r, r->masks, r->rows, s, illegal);
    int bad = -1;
    AZK_CHECK(azk_vec_step(r->v, cs, r->act, r->obs, r->masks, r->rew, r->term, r->trunc, &bad) == AZK_OK);
    if (mode == AZK_VEC_POLICY) {
        AZK_CHECK(azk_vec_observe_opponent(r->v, cs, r->opp_obs, r->opp_masks, r->pend) == AZK_OK);
        AZK_CHECK(azk_vec_bot_opponent(r->v, cs, 1, r->act) == AZK_OK);
        AZK_CHECK(azk_vec_step_opponent(r->v, cs, r->act, r->obs, r->masks, r->rew, r->term, r->trunc, &bad) ==
                  AZK_OK);
        AZK_CHECK(azk_vec_observe_opponent(r->v, cs, r->opp_obs, r->opp_masks, r->pend) == AZK_OK);
    }
}

static int same(const struct run *a, const struct run *b, int mode) {
    size_t ob = (size_t)azk_obs_len(), na = (size_t)azk_num_actions(), rows = (size_t)a->rows;
    int ok = memcmp(a->obs, b->obs, rows * ob) == 0 && memcmp(a->masks, b->masks, rows * na) == 0 &&
             memcmp(a->rew, b->rew, rows * sizeof(float)) == 0 && memcmp(a->term, b->term, rows) == 0 &&
             memcmp(a->trunc, b->trunc, rows) == 0;
    if (mode == AZK_VEC_POLICY)
        ok = ok && memcmp(a->opp_obs, b->opp_obs, (size_t)a->n * ob) == 0 &&
             memcmp(a->opp_masks, b->opp_masks, (size_t)a->n * na) == 0 && memcmp(a->pend, b->pend, (size_t)a->n) == 0;
    for (int i = 0; i < a->n; i++)
        ok = ok && azk_hash(azk_vec_game(a->v, i)) == azk_hash(azk_vec_game(b->v, i)) &&
             azk_vec_episode(a->v, i) == azk_vec_episode(b->v, i) &&
             azk_vec_agent_seat(a->v, i) == azk_vec_agent_seat(b->v, i);
    return ok;
}

static void test_threads_equal_one_thread(void) {
    const azk_cardset *cs = azk_default_cardset();
#if defined(AZK_DEBUG) || defined(__SANITIZE_THREAD__)
    enum { N = 9, STEPS = 300 }; /* sanitizer builds (invariants at every step; TSan): fewer games */
#else
    enum { N = 37, STEPS = 300 };
#endif
    int configs = 0;
    for (int mode = 0; mode < AZK_VEC_MODE_COUNT; mode++)
        for (int waiting = 0; waiting < 2; waiting++)
                for (int illegal = 0; illegal < 2; illegal++) {
#if defined(AZK_DEBUG) || defined(__SANITIZE_THREAD__)
                    if (waiting) continue;
#endif
                    struct run a, b;
                    run_open(&a, cs, N, mode, waiting, illegal, 1);
                    run_open(&b, cs, N, mode, waiting, illegal, 3);
                    int ok = same(&a, &b, mode), first_bad = -1;
                    for (uint32_t s = 0; s < STEPS && ok; s++) {
                        step(&a, cs, s, mode, illegal);
                        step(&b, cs, s, mode, illegal);
                        if (s == STEPS / 2) AZK_CHECK(azk_vec_set_threads(b.v, 2) == AZK_OK); /* k changes */
                        ok = same(&a, &b, mode);
                        if (!ok) first_bad = (int)s;
                    }
                    if (!ok)
                        fprintf(stderr, "mode %d waiting %d illegal %d: outputs differ at step %d\n", mode,
                                waiting, illegal, first_bad);
                    AZK_CHECK(ok);
                    float la[AZK_VEC_LOG_LEN], lb[AZK_VEC_LOG_LEN];
                    AZK_CHECK(azk_vec_log(a.v, la, AZK_VEC_LOG_LEN) == AZK_VEC_LOG_LEN);
                    AZK_CHECK(azk_vec_log(b.v, lb, AZK_VEC_LOG_LEN) == AZK_VEC_LOG_LEN);
                    AZK_CHECK(memcmp(la, lb, sizeof la) == 0);
                    AZK_CHECK(la[AZK_VLOG_EPISODES] >= N); /* many episodes ended and began again */
                    if (illegal) AZK_CHECK(la[AZK_VLOG_ILLEGAL] > 0);
                    run_close(&a);
                    run_close(&b);
                    configs++;
                }
#if defined(AZK_DEBUG) || defined(__SANITIZE_THREAD__)
    AZK_CHECK(configs == 3 * 2);
#else
    AZK_CHECK(configs == 3 * 4);
#endif
}

static void test_threads_bad_arguments(void) {
    const azk_cardset *cs = azk_default_cardset();
    azk_vec *v = malloc(azk_vec_size(4));
    AZK_CHECK(azk_vec_init(v, cs, 4, 1, AZK_VEC_SELF, 0, PAIRS, 1) == AZK_OK);
    AZK_CHECK(azk_vec_threads(v) == 1);
    AZK_CHECK(azk_vec_set_threads(v, 0) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_threads(v, -3) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_threads(v, AZK_VEC_MAX_THREADS + 1) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_threads(NULL, 2) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_threads(v) == 1);
    AZK_CHECK(azk_vec_threads(NULL) == -1);
    AZK_CHECK(azk_vec_set_threads(v, 8) == AZK_OK); /* more threads than chunks: the rest idle */
    AZK_CHECK(azk_vec_threads(v) == 8);
    AZK_CHECK(azk_vec_set_threads(v, 8) == AZK_OK);
    AZK_CHECK(azk_vec_set_threads(v, 1) == AZK_OK);
    AZK_CHECK(azk_vec_threads(v) == 1);
    free(v);
}

/* the schedule the vector plays is azk_deal_schedule's */
static void test_deal_schedule(void) {
    const azk_cardset *cs = azk_default_cardset();
    azk_deal d;
    AZK_CHECK(azk_deal_schedule(5, 0, 0, 0, &d) == AZK_ERR_ARG);
    AZK_CHECK(azk_deal_schedule(5, 0, AZK_VEC_MAX_PAIRS + 1, 0, &d) == AZK_ERR_ARG);
    AZK_CHECK(azk_deal_schedule(5, 0, 1, 2, &d) == AZK_ERR_ARG);
    AZK_CHECK(azk_deal_schedule(5, 0, 1, 0, NULL) == AZK_ERR_ARG);
    for (int paired = 0; paired < 2; paired++) {
        enum { N = 6 };
        azk_vec *v = malloc(azk_vec_size(N));
        AZK_CHECK(azk_vec_init(v, cs, N, 99, AZK_VEC_BOT, 0, PAIRS, 2) == AZK_OK);
        AZK_CHECK(azk_vec_set_paired(v, cs, paired) == AZK_OK);
        azk_game *g = malloc(azk_game_size());
        for (int i = 0; i < N; i++) {
            AZK_CHECK(azk_deal_schedule(99, (uint64_t)azk_vec_episode(v, i), 2, paired, &d) == AZK_OK);
            AZK_CHECK_EQ_U64(d.engine_seed, 99 + d.deal);
            AZK_CHECK_EQ_U64(d.deal, paired ? (uint64_t)i / 2 : (uint64_t)i);
            AZK_CHECK(azk_vec_agent_seat(v, i) == d.agent_seat);
            int d0 = PAIRS[2 * d.pairing], d1 = PAIRS[2 * d.pairing + 1];
            if (d.swapped) { int t = d0; d0 = d1; d1 = t; }
            AZK_CHECK(azk_game_init(g, cs, d.engine_seed, d0, d1) == AZK_OK);
            /* before any decision of the agent, the game equals the deal played by the bot (random) */
            AZK_CHECK(azk_current_player(azk_vec_game(v, i)) == d.agent_seat);
            AZK_CHECK_EQ_U64(d.bot_seed, 99ULL ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1)));
        }
        free(g);
        free(v);
    }
    /* splitmix64 against its published first outputs for seed 0 (Vigna's splitmix64.c) */
    AZK_CHECK_EQ_U64(azk_splitmix64(0), 0xE220A8397B1DCDAFULL);
    AZK_CHECK_EQ_U64(azk_bot_seed_for(0, 1), azk_splitmix64(0x9E3779B97F4A7C15ULL));
}

int main(void) {
    AZK_RUN(test_threads_equal_one_thread);
    AZK_RUN(test_threads_bad_arguments);
    AZK_RUN(test_deal_schedule);
    return azk_test_summary();
}
