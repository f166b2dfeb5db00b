/* test_noalloc.c — the step path never allocates (issue: reliability §5).
 *
 * The program defines malloc/calloc/realloc/free itself (forwarding to
 * glibc's __libc_* functions), so every allocation in the process goes
 * through a counter. After the game is created, a million decisions of
 * legal-list + mask + step + hash + clone + serialize + deserialize +
 * events + render must not allocate or free once.
 *
 * The same for a vector of games whose opponent seat a C policy answers
 * (azk_vec_policy_opponent with the vector's workspace, one and three
 * threads): after the workspace is allocated, observe + answer + step never
 * allocate, and the answers equal the allocating azk_policy_act's bit for bit;
 * the same for the `policy` bot answering through azk_vec_pbot_opponent (its
 * greedy answers equal the policy's).
 *
 * Under AddressSanitizer the allocator belongs to ASan, so the sanitizer
 * build runs the same steps without interposing (the count is not checked
 * there; the optimized build is the proof). */
#include <stdlib.h>

#include "azk_test.h"
#include "azk_reference.h"
#include "game.h"

#include "azk_noalloc.h"

static void test_interposition_works(void) {
#if AZK_INTERPOSE
    long long before = n_alloc;
    void *volatile p = malloc(16);
    free(p);
    AZK_CHECK(n_alloc == before + 2); /* the counter sees allocations */
#endif
}

static void test_step_path_does_not_allocate(void) {
    const azk_cardset *cs = azk_default_cardset();
    static azk_game g, c;
    static int32_t legal[AZK_NUM_ACTIONS_];
    static uint8_t mask[AZK_NUM_ACTIONS_], bytes[8192];
    static uint32_t events[256];
    static char text[16384];
    long long target = AZK_INTERPOSE ? 1000000 : 100000, decisions = 0, games = 0;
    uint64_t rs = 12345, sink = 0;
    long long before = n_alloc;
    while (decisions < target) {
        AZK_CHECK(azk_game_init(&g, cs, (uint64_t)games, (int)(games & 1), (int)((games >> 1) & 1)) == AZK_OK);
        games++;
        while (!azk_is_terminal(&g)) {
            int n = azk_legal_actions(&g, cs, legal, AZK_NUM_ACTIONS_);
            rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
            if ((decisions & 15) == 0) {
                sink += (uint64_t)azk_legal_mask(&g, cs, mask);
                sink += azk_hash(&g);
                azk_game_clone(&c, &g);
                size_t len = azk_serialize(&g, cs, bytes, sizeof bytes);
                sink += (uint64_t)azk_deserialize(&c, cs, bytes, len);
                sink += (uint64_t)azk_events(&g, events, 256);
                sink += (uint64_t)azk_is_legal(&g, cs, legal[0]);
            }
            if ((decisions & 1023) == 0) sink += (uint64_t)azk_render(&g, cs, text, sizeof text);
            azk_step(&g, cs, legal[rs % (uint64_t)n]);
            decisions++;
        }
    }
    AZK_CHECK_EQ_U64(n_alloc - before, 0);
    printf("no-alloc: %lld decisions, %lld games, %lld allocations (interposed: %s)\n", decisions, games,
           n_alloc - before, AZK_INTERPOSE ? "yes" : "no, ASan build");
    (void)sink;
}

/* The shipped reference policy answering a vector's opponent seat: no allocation per decision, on one
 * thread and on three, and the same actions as the allocating azk_policy_act (greedy and keyed). */
static void test_policy_opponent_does_not_allocate(void) {
    azk_policy *p = azk_test_reference_policy();
    AZK_CHECK(p != NULL);
    if (!p) return;
    const azk_cardset *cs = azk_default_cardset();
    enum { N = 12 };
    int L = azk_obs_len(), NA = azk_num_actions();
    static const int32_t PAIRS[4] = {0, 1, 1, 0};
    for (int threads = 1; threads <= 3; threads += 2) {
        azk_vec *v = malloc(azk_vec_size(N));
        AZK_CHECK(azk_vec_init(v, cs, N, 77, AZK_VEC_POLICY, 0, PAIRS, 2) == AZK_OK);
        AZK_CHECK(azk_vec_set_obs(v, AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL) == AZK_OK);
        AZK_CHECK(azk_vec_set_threads(v, threads) == AZK_OK);
        size_t wl = azk_vec_policy_work_size(v, p);
        AZK_CHECK(wl == (size_t)threads * azk_policy_work_size(p) && wl > 0);
        uint8_t *work = malloc(wl), *obs = malloc((size_t)N * L), *opp_obs = malloc((size_t)N * L);
        uint8_t *masks = malloc((size_t)N * NA), pending[N], term[N], trunc[N];
        float rew[N];
        int32_t acts[N], opp[N], ref[N], opp2[N];
        azk_pbot_params pp;
        azk_pbot_defaults(&pp, AZK_PBOT_POLICY); /* the policy bot, greedy: azk_policy_act's greedy action */
        size_t pwl = azk_vec_pbot_work_size(v, p, &pp);
        uint8_t *pwork = malloc(pwl);
        AZK_CHECK(pwl == (size_t)threads * azk_pbot_work_size(p, &pp));
        AZK_CHECK(azk_vec_pbot_opponent(v, cs, p, &pp, opp2, pwork, pwl - 1) == AZK_ERR_ARG);
        uint64_t keys[N];
        int pst = 0;
        /* a short workspace is refused, changing nothing */
        AZK_CHECK(azk_vec_policy_opponent(v, cs, p, opp_obs, 1, keys, 0, opp, work, wl - 1, &pst) == AZK_ERR_ARG &&
                  pst == 0);
        AZK_CHECK(azk_vec_policy_opponent(v, cs, p, opp_obs, 1, keys, 0, opp, NULL, wl, &pst) == AZK_ERR_ARG);
        AZK_CHECK(azk_vec_observe(v, cs, obs, masks, NULL) == AZK_OK);
        AZK_CHECK(azk_vec_observe_opponent(v, cs, opp_obs, NULL, pending) == AZK_OK); /* every row, once */
        long long checked = 0, before = n_alloc, refs = 0;
        for (int step = 0; step < 600; step++) {
            for (int i = 0; i < N; i++) { /* the agent: the first legal action */
                acts[i] = 0;
                for (int a = 0; a < NA; a++)
                    if (masks[(size_t)i * NA + a]) { acts[i] = a; break; }
            }
            AZK_CHECK(azk_vec_step(v, cs, acts, obs, masks, rew, term, trunc, NULL) == AZK_OK);
            AZK_CHECK(azk_vec_observe_opponent(v, cs, opp_obs, NULL, pending) == AZK_OK);
            for (int i = 0; i < N; i++) keys[i] = (uint64_t)step * N + (uint64_t)i;
            int greedy = step & 1;
            AZK_CHECK(azk_vec_policy_opponent(v, cs, p, opp_obs, 5, keys, greedy, opp, work, wl, &pst) == AZK_OK);
            AZK_CHECK(azk_vec_pbot_opponent(v, cs, p, &pp, opp2, pwork, pwl) == AZK_OK);
            if (greedy)
                for (int i = 0; i < N; i++) AZK_CHECK(!pending[i] || opp2[i] == opp[i]);
            if (step % 50 == 0) { /* the allocating call on the same rows (outside the counted path) */
                long long a0 = n_alloc;
                for (int i = 0; i < N; i++) {
                    if (!pending[i]) continue;
                    double u = azk_keyed_uniform(5, keys[i]);
                    AZK_CHECK(azk_policy_act(p, opp_obs + (size_t)i * L, 1, (size_t)L, greedy ? NULL : &u, &ref[i],
                                             NULL, NULL) == AZK_POLICY_OK);
                    AZK_CHECK(ref[i] == opp[i]);
                    refs++;
                }
                before += n_alloc - a0;
            }
            for (int i = 0; i < N; i++) checked += pending[i];
            AZK_CHECK(azk_vec_step_opponent(v, cs, opp, obs, masks, rew, term, trunc, NULL) == AZK_OK);
            /* the rows of the games this call stepped (the next call rewrites only its own) */
            AZK_CHECK(azk_vec_observe_opponent(v, cs, opp_obs, NULL, pending) == AZK_OK);
        }
        if (AZK_INTERPOSE) AZK_CHECK_EQ_U64(n_alloc - before, 0);
        AZK_CHECK(checked > 1000 && refs > 20);
        printf("policy opponent, %d thread(s): %lld answers, %lld allocations\n", threads, checked, n_alloc - before);
        azk_vec_set_threads(v, 1);
        free(pwork);
        free(work);
        free(obs);
        free(opp_obs);
        free(masks);
        free(v);
    }
    azk_policy_free(p);
}

int main(void) {
    AZK_RUN(test_interposition_works);
    AZK_RUN(test_step_path_does_not_allocate);
    AZK_RUN(test_policy_opponent_does_not_allocate);
    return azk_test_summary();
}
