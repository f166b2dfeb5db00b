/* test_bots.c — the built-in bots' C API (csrc/bot.c, docs/bots.md).
 *
 * Over games of every deck pairing and every pairing of bot kinds: each
 * action a bot returns is in the legal list; the game asked about is left
 * byte-for-byte unchanged (hashed part and the legal cache); the same seeds
 * give the same trajectory; bad arguments and finished games are refused
 * with the documented negative statuses; azk_bot_play_game agrees with the
 * step-by-step loop. Prints the greedy bot's mean time per decision
 * (informative only; `make asan` runs it too, where it is slow). */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "azk_test.h"
#include "azk_reference.h"
#include "game.h"

#include "azk_noalloc.h"

static const azk_cardset *CS;
static int NA;

static int env_games(int dflt) {
    const char *s = getenv("AZK_BOT_TEST_GAMES");
    return s ? atoi(s) : dflt;
}

/* Play one game step by step with bots kinds[p]; check every choice; return
 * the trajectory hash (hash of every state hash), or 0 on failure. */
static uint64_t play_checked(uint64_t seed, int d0, int d1, const int kinds[2], uint64_t bseed, long *decisions) {
    static azk_game g, before;
    int32_t legal[2048];
    uint64_t rng[4];
    azk_bot_seed(rng, bseed);
    azk_bot_seed(rng + 2, bseed + 1);
    AZK_CHECK(azk_game_init(&g, CS, seed, d0, d1) == AZK_OK);
    uint64_t traj = azk_hash(&g);
    while (!azk_is_terminal(&g)) {
        int p = azk_current_player(&g);
        int n = azk_legal_actions(&g, CS, legal, NA);
        azk_game_clone(&before, &g);
        int a = azk_bot_act(&g, CS, kinds[p], rng + 2 * p);
        AZK_CHECK(memcmp(&before, &g, sizeof g) == 0); /* not even the caches change */
        int ok = 0;
        for (int i = 0; i < n; i++) ok |= legal[i] == a;
        AZK_CHECK(ok);
        if (!ok) return 0;
        AZK_CHECK(azk_step(&g, CS, a) == AZK_OK);
        traj = traj * 0x100000001b3ULL ^ azk_hash(&g);
        (*decisions)++;
    }
    AZK_CHECK(azk_result(&g) != AZK_RES_ONGOING);
    return traj ? traj : 1;
}

static void test_legal_unchanged_deterministic(void) {
    int games = env_games(40);
    long dec = 0;
    for (int k0 = 0; k0 < AZK_BOT_SEARCH; k0++) /* the search bot: test_search (small budgets) */
        for (int k1 = 0; k1 < AZK_BOT_SEARCH; k1++)
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < games / 16 + 1; i++) {
                    int kinds[2] = {k0, k1};
                    uint64_t seed = 1000 + (uint64_t)i * 7 + (uint64_t)d;
                    uint64_t t1 = play_checked(seed, d & 1, d >> 1, kinds, seed * 3, &dec);
                    uint64_t t2 = play_checked(seed, d & 1, d >> 1, kinds, seed * 3, &dec);
                    AZK_CHECK(t1 != 0 && t1 == t2);
                }
    AZK_CHECK(dec > 0);
}

static void test_play_game_matches(void) {
    static azk_game g;
    int kinds[2] = {AZK_BOT_GREEDY, AZK_BOT_RANDOM};
    for (uint64_t s = 0; s < 6; s++) {
        long dec = 0;
        uint64_t t = play_checked(s, 0, 1, kinds, 77 + s, &dec);
        (void)t;
        uint64_t rng[4];
        azk_bot_seed(rng, 77 + s);
        azk_bot_seed(rng + 2, 78 + s);
        AZK_CHECK(azk_game_init(&g, CS, s, 0, 1) == AZK_OK);
        int n = azk_bot_play_game(&g, CS, kinds, rng);
        AZK_CHECK(n == dec);
        AZK_CHECK(azk_is_terminal(&g));
    }
}

static void test_bad_arguments(void) {
    static azk_game g;
    uint64_t rng[4];
    azk_bot_seed(rng, 5);
    azk_bot_seed(rng + 2, 6);
    AZK_CHECK(azk_game_init(&g, CS, 3, 0, 1) == AZK_OK);
    AZK_CHECK(azk_bot_act(NULL, CS, AZK_BOT_RANDOM, rng) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_act(&g, NULL, AZK_BOT_RANDOM, rng) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_act(&g, CS, AZK_BOT_RANDOM, NULL) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_act(&g, CS, -1, rng) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_act(&g, CS, AZK_BOT_COUNT, rng) == -(int)AZK_ERR_ARG);
    int bad[2] = {0, 9};
    AZK_CHECK(azk_bot_play_game(&g, CS, bad, rng) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_name(AZK_BOT_GREEDY) && strcmp(azk_bot_name(AZK_BOT_GREEDY), "greedy") == 0);
    AZK_CHECK(azk_bot_name(AZK_BOT_COUNT) == NULL);
    AZK_CHECK(azk_bot_version(AZK_BOT_GREEDY) == AZK_BOT_GREEDY_VERSION);
    AZK_CHECK(azk_bot_version(-1) == -1);
    AZK_CHECK(azk_bot_num_kinds() == AZK_BOT_COUNT);
    int kinds[2] = {AZK_BOT_RANDOM, AZK_BOT_RANDOM};
    AZK_CHECK(azk_bot_play_game(&g, CS, kinds, rng) > 0);
    uint64_t h = azk_hash(&g), r0 = rng[0];
    AZK_CHECK(azk_bot_act(&g, CS, AZK_BOT_GREEDY, rng) == -(int)AZK_TERMINAL);
    AZK_CHECK(azk_hash(&g) == h && rng[0] == r0);
}

static void test_timing(void) {
    static azk_game g;
    int kinds[2] = {AZK_BOT_GREEDY, AZK_BOT_GREEDY};
    uint64_t rng[4];
    azk_bot_seed(rng, 11);
    azk_bot_seed(rng + 2, 12);
    long dec = 0;
    clock_t t0 = clock();
    int games = env_games(40);
    long long alloc0 = n_alloc;
    for (int i = 0; i < games; i++) {
        AZK_CHECK(azk_game_init(&g, CS, 500 + (uint64_t)i, i & 1, (i >> 1) & 1) == AZK_OK);
        int n = azk_bot_play_game(&g, CS, kinds, rng);
        AZK_CHECK(n > 0);
        dec += n;
    }
    AZK_CHECK(n_alloc == alloc0); /* the bots never allocate */
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("greedy self-play: %d games, %ld decisions, %.2f us/decision\n", games, dec, dec ? 1e6 * s / dec : 0.0);
}

/* The search bot with a small budget: legal, game unchanged, deterministic,
 * no allocation; the same decision on a position resampled from its own
 * seat (only what it cannot know changes); bad settings refused. The walk
 * over greedy-game positions is alike in test_policy_bots (the tool
 * `duplicates` pairs them): each checks different bots at every position
 * (that one three, with their own rng copies), so the loops stay inline. */
static void test_search(void) {
    static azk_game g, before, v;
    int32_t legal[2048];
    azk_search_params p;
    azk_search_defaults(&p);
    AZK_CHECK(p.sims == AZK_BOT_SEARCH_SIMS);
    p.sims = 4;
    long long alloc0 = n_alloc;
    long checked = 0, changed = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t grng[2], srng[2];
        azk_bot_seed(grng, 40 + (uint64_t)i);
        azk_bot_seed(srng, 90 + (uint64_t)i);
        AZK_CHECK(azk_game_init(&g, CS, 300 + (uint64_t)i, i & 1, (i >> 1) & 1) == AZK_OK);
        int k = 0;
        while (!azk_is_terminal(&g)) {
            int n = azk_legal_actions(&g, CS, legal, NA);
            if (n >= 2 && (k++ % 3) == 0) {
                int me = azk_current_player(&g);
                uint64_t r1[2] = {srng[0], srng[1]}, r2[2] = {srng[0], srng[1]};
                azk_game_clone(&before, &g);
                int a = azk_bot_act_search(&g, CS, r1, &p);
                AZK_CHECK(memcmp(&before, &g, sizeof g) == 0);
                int ok = 0;
                for (int j = 0; j < n; j++) ok |= legal[j] == a;
                AZK_CHECK(ok);
                azk_game_clone(&v, &g);
                AZK_CHECK(azk_resample(&v, CS, me, 1000 + (uint64_t)checked) == AZK_OK);
                changed += azk_hash(&v) != azk_hash(&g);
                int b = azk_bot_act_search(&v, CS, r2, &p);
                AZK_CHECK(a == b);
                AZK_CHECK(r1[0] == r2[0] && r1[1] == r2[1]);
                checked++;
                srng[0] = r1[0];
                srng[1] = r1[1];
            }
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
        }
    }
    AZK_CHECK(n_alloc == alloc0);
    AZK_CHECK(checked > 100 && changed > checked / 2);
    /* play_game with the search bot equals itself; bad settings refused */
    int kinds[2] = {AZK_BOT_SEARCH, AZK_BOT_RANDOM};
    uint64_t rng[4], rng2[4];
    azk_bot_seed(rng, 1);
    azk_bot_seed(rng + 2, 2);
    memcpy(rng2, rng, sizeof rng);
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    AZK_CHECK(azk_game_init(&v, CS, 9, 0, 1) == AZK_OK);
    int n1 = azk_bot_play_game_search(&g, CS, kinds, rng, &p);
    int n2 = azk_bot_play_game_search(&v, CS, kinds, rng2, &p);
    AZK_CHECK(n1 > 0 && n1 == n2 && azk_hash(&g) == azk_hash(&v));
    AZK_CHECK(azk_winner(&g) == 0); /* search beats random */
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    azk_search_params bad = p;
    bad.sims = 0;
    AZK_CHECK(azk_bot_act_search(&g, CS, rng, &bad) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_play_game_search(&g, CS, kinds, rng, &bad) == -(int)AZK_ERR_ARG);
    bad = p;
    bad.rollout_depth = 3;
    AZK_CHECK(azk_bot_act_search(&g, CS, rng, &bad) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_act_search(&g, CS, rng, NULL) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_bot_version(AZK_BOT_SEARCH) == AZK_BOT_SEARCH_VERSION);
    AZK_CHECK(strcmp(azk_bot_name(AZK_BOT_SEARCH), "search") == 0);
    printf("search no-peeking: %ld positions, %ld changed by the resample\n", checked, changed);
}

/* Search labels (azk_bot_search_label, azk_pbot_label): the action and rng words of the plain call,
 * visit shares over the root's legal actions summing to 1 (a forced decision: 1 on the action, value
 * -1), a value in [0, 1] when simulations ran; no peeking: the labels of a position and of its
 * resample from the labelled player's seat are the same bytes; bad arguments write nothing.
 * pol: the reference policy for psearch, or NULL (the search bot only); threads: psearch's trees. */
static long check_labels(const azk_policy *pol, int threads) {
    static azk_game g, v;
    int32_t legal[2048];
    static float vis[2048], vis2[2048];
    azk_search_params p;
    azk_search_defaults(&p);
    p.sims = 6;
    azk_pbot_params ps;
    azk_pbot_defaults(&ps, AZK_PBOT_PSEARCH);
    ps.sims = 6;
    ps.threads = threads;
    long checked = 0, simulated = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t grng[2], srng[2];
        azk_bot_seed(grng, 60 + (uint64_t)i);
        azk_bot_seed(srng, 70 + (uint64_t)i);
        AZK_CHECK(azk_game_init(&g, CS, 700 + (uint64_t)i, i & 1, (i >> 1) & 1) == AZK_OK);
        int k = 0;
        while (!azk_is_terminal(&g)) {
            int n = azk_legal_actions(&g, CS, legal, NA);
            if ((k++ % 3) == 0) {
                int me = azk_current_player(&g);
                uint64_t r0[2] = {srng[0], srng[1]}, r1[2] = {srng[0], srng[1]}, r2[2] = {srng[0], srng[1]};
                float val = -2.0f, val2 = -3.0f;
                int a0 = pol ? azk_pbot_act(&g, CS, pol, &ps, r0, NULL, 0) : azk_bot_act_search(&g, CS, r0, &p);
                int a = pol ? azk_pbot_label(&g, CS, pol, &ps, r1, NULL, 0, vis, NA, &val)
                            : azk_bot_search_label(&g, CS, r1, &p, vis, NA, &val);
                AZK_CHECK(a >= 0 && a == a0 && r0[0] == r1[0] && r0[1] == r1[1]);
                double sum = 0.0;
                int on_legal = 1;
                for (int j = 0; j < NA; j++) {
                    sum += vis[j];
                    if (vis[j] != 0.0f) {
                        int ok = 0;
                        for (int q = 0; q < n; q++) ok |= legal[q] == j;
                        on_legal &= ok;
                    }
                }
                AZK_CHECK(on_legal && sum > 0.999 && sum < 1.001 && vis[a] > 0.0f);
                if (n == 1) AZK_CHECK(vis[a] == 1.0f && val == -1.0f);
                if (val != -1.0f) {
                    AZK_CHECK(val >= 0.0f && val <= 1.0f);
                    simulated++;
                }
                azk_game_clone(&v, &g);
                AZK_CHECK(azk_resample(&v, CS, me, 5000 + (uint64_t)checked) == AZK_OK);
                int b = pol ? azk_pbot_label(&v, CS, pol, &ps, r2, NULL, 0, vis2, NA, &val2)
                            : azk_bot_search_label(&v, CS, r2, &p, vis2, NA, &val2);
                AZK_CHECK(a == b && memcmp(vis, vis2, sizeof(float) * (size_t)NA) == 0 &&
                          memcmp(&val, &val2, sizeof val) == 0);
                checked++;
                srng[0] = r1[0];
                srng[1] = r1[1];
            }
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
        }
    }
    AZK_CHECK(checked > 40 && simulated > checked / 4);
    /* refusals write nothing */
    uint64_t rng[2];
    azk_bot_seed(rng, 3);
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    for (int j = 0; j < NA; j++) vis[j] = 7.0f;
    float val = 9.0f;
    if (pol) {
        AZK_CHECK(azk_pbot_label(&g, CS, pol, &ps, rng, NULL, 0, vis, NA - 1, &val) == -(int)AZK_ERR_ARG);
        AZK_CHECK(azk_pbot_label(&g, CS, pol, &ps, rng, NULL, 0, NULL, NA, &val) == -(int)AZK_ERR_ARG);
        azk_pbot_params pp;
        azk_pbot_defaults(&pp, AZK_PBOT_POLICY);
        AZK_CHECK(azk_pbot_label(&g, CS, pol, &pp, rng, NULL, 0, vis, NA, &val) == -(int)AZK_ERR_ARG);
    } else {
        AZK_CHECK(azk_bot_search_label(&g, CS, rng, &p, vis, NA - 1, &val) == -(int)AZK_ERR_ARG);
        AZK_CHECK(azk_bot_search_label(&g, CS, rng, &p, vis, NA, NULL) == -(int)AZK_ERR_ARG);
        AZK_CHECK(azk_bot_search_label(&g, CS, rng, NULL, vis, NA, &val) == -(int)AZK_ERR_ARG);
        azk_search_params bad = p;
        bad.sims = 0;
        AZK_CHECK(azk_bot_search_label(&g, CS, rng, &bad, vis, NA, &val) == -(int)AZK_ERR_ARG);
        int kinds[2] = {AZK_BOT_RANDOM, AZK_BOT_RANDOM};
        uint64_t r4[4];
        azk_bot_seed(r4, 1);
        azk_bot_seed(r4 + 2, 2);
        AZK_CHECK(azk_bot_play_game(&g, CS, kinds, r4) > 0);
        AZK_CHECK(azk_bot_search_label(&g, CS, rng, &p, vis, NA, &val) == -(int)AZK_TERMINAL);
    }
    int untouched = val == 9.0f;
    for (int j = 0; j < NA; j++) untouched &= vis[j] == 7.0f;
    AZK_CHECK(untouched);
    return checked;
}

static void test_search_labels(void) {
    long n = check_labels(NULL, 1);
    printf("search labels: %ld positions, the same after a resample\n", n);
}

/* A search stopped through azk_search_ctl: a flag set before the call runs no
 * simulation (1000000 would take minutes) and still answers a legal action;
 * without the flag the count is the settings' sims. */
static void test_search_cancel(void) {
    static azk_game g;
    int32_t legal[2048];
    azk_search_ctl ctl = {0};
    azk_search_params p;
    azk_search_defaults(&p);
    AZK_CHECK(p.ctl == NULL);
    uint64_t grng[2], srng[2];
    azk_bot_seed(grng, 5);
    azk_bot_seed(srng, 6);
    AZK_CHECK(azk_game_init(&g, CS, 77, 0, 1) == AZK_OK);
    int tested = 0;
    while (!azk_is_terminal(&g) && tested < 6) {
        int n = azk_legal_actions(&g, CS, legal, NA);
        if (n >= 3 && g.phase == AZK_PHASE_MAIN) {
            p.ctl = &ctl;
            p.sims = AZK_BOT_SEARCH_MAX_SIMS;
            azk_search_cancel(&ctl);
            AZK_CHECK(azk_search_cancelled(&ctl));
            ctl.sims_run = -1;
            int a = azk_bot_act_search(&g, CS, srng, &p);
            AZK_CHECK(ctl.sims_run == 0);
            int ok = 0;
            for (int j = 0; j < n; j++) ok |= legal[j] == a;
            AZK_CHECK(ok);
            azk_search_reset(&ctl);
            AZK_CHECK(!azk_search_cancelled(&ctl));
            p.sims = 3;
            AZK_CHECK(azk_bot_act_search(&g, CS, srng, &p) >= 0);
            AZK_CHECK(ctl.sims_run == 3);
            tested++;
        }
        AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
    }
    AZK_CHECK(tested > 0);
}

/* psearch's root parallelism (threads = K trees, the sims split between them): no peeking with K = 2
 * (a position and its resample from the bot's seat: the same decision and rng words, as the one-tree
 * test), deterministic for a fixed seed and K (the same answer twice, whichever thread ran which
 * tree), threads 0 and 1 the same one-tree search, K = 2 a different search (its own
 * determinizations: its labels differ somewhere), the caller's workspace means no allocation (the K - 1
 * threads started per decision included: glibc reuses their stacks and allocates nothing we count),
 * the stop flag honoured by every tree, bad thread counts refused. */
static void test_psearch_threads(const azk_policy *pol) {
    static azk_game g, v;
    int32_t legal[2048];
    azk_pbot_params p1, p0, p2;
    azk_pbot_defaults(&p1, AZK_PBOT_PSEARCH);
    AZK_CHECK(p1.threads == 1);
    p1.sims = 9; /* odd: tree 0 runs 5, tree 1 runs 4 */
    p0 = p1, p2 = p1;
    p0.threads = 0;
    p2.threads = 2;
    size_t wl1 = azk_pbot_work_size(pol, &p1), wl2 = azk_pbot_work_size(pol, &p2);
    AZK_CHECK(wl1 > 0 && wl1 == azk_pbot_work_size(pol, &p0) && wl2 > wl1);
    void *work = malloc(wl2);
    long checked = 0, changed = 0, differs = 0;
    long long alloc_k2 = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t grng[2], srng[2];
        azk_bot_seed(grng, 140 + (uint64_t)i);
        azk_bot_seed(srng, 190 + (uint64_t)i);
        AZK_CHECK(azk_game_init(&g, CS, 500 + (uint64_t)i, i & 1, (i >> 1) & 1) == AZK_OK);
        int k = 0;
        while (!azk_is_terminal(&g)) {
            int n = azk_legal_actions(&g, CS, legal, NA);
            if (n >= 2 && (k++ % 3) == 0) {
                int me = azk_current_player(&g);
                uint64_t r0[2] = {srng[0], srng[1]}, r1[2] = {srng[0], srng[1]};
                uint64_t r2[2] = {srng[0], srng[1]}, r3[2] = {srng[0], srng[1]}, r4[2] = {srng[0], srng[1]};
                long long before = n_alloc;
                int a0 = azk_pbot_act(&g, CS, pol, &p0, r0, work, wl2);
                int a1 = azk_pbot_act(&g, CS, pol, &p1, r1, work, wl2);
                AZK_CHECK(n_alloc == before); /* one tree: nothing allocated */
                AZK_CHECK(a0 == a1 && r0[0] == r1[0] && r0[1] == r1[1]);
                before = n_alloc;
                int a2 = azk_pbot_act(&g, CS, pol, &p2, r2, work, wl2);
                alloc_k2 += n_alloc - before;
                int ok = 0;
                for (int j = 0; j < n; j++) ok |= legal[j] == a2;
                AZK_CHECK(ok);
                AZK_CHECK(a2 == azk_pbot_act(&g, CS, pol, &p2, r3, work, wl2) && r2[0] == r3[0] && r2[1] == r3[1]);
                azk_game_clone(&v, &g);
                AZK_CHECK(azk_resample(&v, CS, me, 3000 + (uint64_t)checked) == AZK_OK);
                changed += azk_hash(&v) != azk_hash(&g);
                AZK_CHECK(a2 == azk_pbot_act(&v, CS, pol, &p2, r4, work, wl2) && r2[0] == r4[0] && r2[1] == r4[1]);
                { /* the visit shares: the two searches are different searches */
                    static float vis1[2048], vis2[2048];
                    float val1 = -2.0f, val2 = -3.0f;
                    uint64_t q1[2] = {srng[0], srng[1]}, q2[2] = {srng[0], srng[1]};
                    AZK_CHECK(azk_pbot_label(&g, CS, pol, &p1, q1, work, wl2, vis1, NA, &val1) == a1);
                    AZK_CHECK(azk_pbot_label(&g, CS, pol, &p2, q2, work, wl2, vis2, NA, &val2) == a2);
                    differs += memcmp(vis1, vis2, sizeof(float) * (size_t)NA) != 0 || val1 != val2;
                }
                checked++;
                srng[0] = r1[0];
                srng[1] = r1[1];
            }
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
        }
    }
    AZK_CHECK(checked > 40 && changed > checked / 2 && differs > 0 && alloc_k2 == 0);
    /* the stop flag: set before the call, no tree runs a simulation; clear, the trees run all sims */
    {
        azk_search_ctl ctl = {0, -1};
        azk_pbot_params pc = p2;
        pc.sims = AZK_PSEARCH_MAX_SIMS;
        pc.ctl = &ctl;
        azk_search_cancel(&ctl);
        uint64_t rng[2];
        azk_bot_seed(rng, 5);
        AZK_CHECK(azk_game_init(&g, CS, 11, 0, 1) == AZK_OK);
        int guard = 0;
        while (!azk_is_terminal(&g) && (azk_phase(&g) != AZK_PHASE_MAIN || azk_legal_actions(&g, CS, legal, NA) < 2) &&
               guard++ < 100)
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, rng)) == AZK_OK);
        int a = azk_pbot_act(&g, CS, pol, &pc, rng, NULL, 0);
        AZK_CHECK(a >= 0 && azk_is_legal(&g, CS, a) && ctl.sims_run == 0);
        azk_search_reset(&ctl);
        pc.sims = 5;
        a = azk_pbot_act(&g, CS, pol, &pc, rng, NULL, 0);
        AZK_CHECK(a >= 0 && ctl.sims_run == 5);
    }
    /* refusals: more trees than sims, or than AZK_PSEARCH_MAX_THREADS, or negative */
    azk_pbot_params bad = p2;
    uint64_t rng[2];
    azk_bot_seed(rng, 6);
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    bad.sims = 1;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG && azk_pbot_work_size(pol, &bad) == 0);
    bad = p2;
    bad.sims = 1000;
    bad.threads = AZK_PSEARCH_MAX_THREADS + 1;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG);
    bad.threads = -1;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG);
    bad.threads = AZK_PSEARCH_MAX_THREADS;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) >= 0);
    free(work);
    printf("psearch 2 trees: %ld positions (no peeking: %ld changed by the resample), other labels than 1 tree on %ld\n",
           checked, changed, differs);
}

/* psearch's root sequential halving (halving = m >= 2, the default 8; csrc/bot.c ps_halving): the
 * schedule is exact whatever the position. With m = 4 and 16 simulations, one tree or two: phase 1
 * gives the 4 candidates 2 simulations each, phase 2 the better 2 of them 4 more each, so the root's
 * visit shares are {6, 6, 2, 2} / 16 where at least 4 edges are open (2 or 3 edges: m shrinks to
 * them) and the played action is one of the two with 6; sims_run is the budget; m = 0 and m = 1 are
 * the PUCT root (the same search); common random numbers across trees; defaults, refusals. */
static void test_psearch_halving(const azk_policy *pol) {
    static azk_game g;
    static float vis[2048];
    int32_t legal[2048];
    azk_pbot_params p;
    azk_pbot_defaults(&p, AZK_PBOT_PSEARCH);
    AZK_CHECK(p.halving == 8 && azk_pbot_version(AZK_PBOT_PSEARCH) == 2);
    p.sims = 16;
    p.halving = 4;
    long checked = 0, four = 0;
    for (int threads = 1; threads <= 2; threads++) {
        p.threads = threads;
        for (int i = 0; i < 2; i++) {
            uint64_t grng[2], srng[2];
            azk_bot_seed(grng, 300 + (uint64_t)i);
            azk_bot_seed(srng, 310 + (uint64_t)i);
            AZK_CHECK(azk_game_init(&g, CS, 900 + (uint64_t)i, i & 1, 0) == AZK_OK);
            int k = 0;
            while (!azk_is_terminal(&g)) {
                int n = azk_legal_actions(&g, CS, legal, NA);
                if (n >= 2 && azk_phase(&g) != AZK_PHASE_MULLIGAN && (k++ % 2) == 0) {
                    azk_search_ctl ctl = {0, -1};
                    p.ctl = &ctl;
                    float val = -2.0f;
                    int a = azk_pbot_label(&g, CS, pol, &p, srng, NULL, 0, vis, NA, &val);
                    p.ctl = NULL;
                    AZK_CHECK(a >= 0 && azk_is_legal(&g, CS, a));
                    int c6 = 0, c2 = 0, other = 0, open = 0;
                    for (int j = 0; j < NA; j++) {
                        if (vis[j] == 0.0f) continue;
                        open++;
                        if (fabsf(vis[j] - 6.0f / 16.0f) < 1e-6f) c6++;
                        else if (fabsf(vis[j] - 2.0f / 16.0f) < 1e-6f) c2++;
                        else other++;
                    }
                    if (open > 1) { /* a merged-to-one root plays without simulations */
                        AZK_CHECK(ctl.sims_run == 16);
                        if (open == 4) {
                            AZK_CHECK(c6 == 2 && c2 == 2 && other == 0 && fabsf(vis[a] - 6.0f / 16.0f) < 1e-6f);
                            four++;
                        }
                        AZK_CHECK(open <= 4);
                    }
                    checked++;
                }
                AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
            }
        }
    }
    AZK_CHECK(checked > 40 && four > 10);
    /* m = 0 and m = 1: the PUCT root, the same search */
    {
        azk_pbot_params p0 = p, p1 = p;
        p0.threads = p1.threads = 1;
        p0.halving = 0, p1.halving = 1;
        uint64_t r0[2], r1[2], gr[2];
        azk_bot_seed(r0, 77);
        azk_bot_seed(r1, 77);
        azk_bot_seed(gr, 78);
        AZK_CHECK(azk_game_init(&g, CS, 12, 0, 1) == AZK_OK);
        static float v0[2048], v1[2048];
        float a0v, a1v;
        for (int t = 0; t < 30 && !azk_is_terminal(&g); t++) {
            if (azk_legal_actions(&g, CS, legal, NA) >= 2 && azk_phase(&g) != AZK_PHASE_MULLIGAN) {
                int a0 = azk_pbot_label(&g, CS, pol, &p0, r0, NULL, 0, v0, NA, &a0v);
                int a1 = azk_pbot_label(&g, CS, pol, &p1, r1, NULL, 0, v1, NA, &a1v);
                AZK_CHECK(a0 == a1 && memcmp(v0, v1, sizeof(float) * (size_t)NA) == 0 && a0v == a1v);
            }
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, gr)) == AZK_OK);
        }
    }
    /* common random numbers: a phase's l-th simulation of every candidate is played in one
     * determinization whichever tree runs it. With 2 candidates and 2 simulations, one each, two
     * trees search what one tree does (each candidate's subtree is new either way): the same action
     * and the same root mean, bit for bit; with per-tree draws the second candidate's would differ */
    {
        azk_pbot_params p1 = p, p2 = p;
        p1.sims = p2.sims = 2, p1.halving = p2.halving = 2;
        p1.threads = 1, p2.threads = 2;
        p1.value_milli = p2.value_milli = 0; /* greedy playouts through the opponent's turn: they see the draw */
        uint64_t gr[2];
        azk_bot_seed(gr, 79);
        static float v1[2048], v2[2048];
        long same = 0;
        for (int i = 0; i < 2; i++) {
            AZK_CHECK(azk_game_init(&g, CS, 13 + (uint64_t)i, i & 1, 0) == AZK_OK);
            for (int t = 0; t < 400 && !azk_is_terminal(&g); t++) {
                if (azk_legal_actions(&g, CS, legal, NA) >= 2 && azk_phase(&g) != AZK_PHASE_MULLIGAN) {
                    uint64_t r1[2] = {gr[0], gr[1] + 2}, r2[2] = {gr[0], gr[1] + 2};
                    float a1v = -2.0f, a2v = -3.0f;
                    int a1 = azk_pbot_label(&g, CS, pol, &p1, r1, NULL, 0, v1, NA, &a1v);
                    int a2 = azk_pbot_label(&g, CS, pol, &p2, r2, NULL, 0, v2, NA, &a2v);
                    AZK_CHECK(a1 >= 0 && a1 == a2 && memcmp(v1, v2, sizeof(float) * (size_t)NA) == 0 && a1v == a2v);
                    same += a1v >= 0.0f;
                }
                AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, gr)) == AZK_OK);
            }
        }
        AZK_CHECK(same > 20);
    }
    azk_pbot_params bad = p;
    uint64_t rng[2];
    azk_bot_seed(rng, 8);
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    bad.halving = -1;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG && azk_pbot_work_size(pol, &bad) == 0);
    bad.halving = AZK_PSEARCH_MAX_HALVING + 1;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG);
    bad.halving = AZK_PSEARCH_MAX_HALVING;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) >= 0);
    printf("psearch halving: %ld positions, %ld with 4 candidates ({6, 6, 2, 2} / 16 visits)\n", checked, four);
}

/* The policy bots with the shipped reference policy (read from the repository root, where make
 * ctest / asan run): every answer legal, the game unchanged, deterministic; psearch never peeks (a
 * position and its resample from the bot's seat get the same decision and leave the same rng
 * words, as the search bot's test, whose walk over positions this one repeats with three bots at
 * each); the caller's workspace means no allocation; bad settings and a short workspace refused. */
static void test_policy_bots(void) {
    azk_policy *pol = azk_test_reference_policy();
    AZK_CHECK(pol != NULL);
    if (!pol) return;
    static azk_game g, before, v;
    int32_t legal[2048];
    azk_pbot_params pp, ps;
    azk_pbot_defaults(&pp, AZK_PBOT_POLICY);
    azk_pbot_defaults(&ps, AZK_PBOT_PSEARCH);
    AZK_CHECK(pp.kind == AZK_PBOT_POLICY && ps.kind == AZK_PBOT_PSEARCH && ps.sims == AZK_BOT_SEARCH_SIMS);
    AZK_CHECK(strcmp(azk_pbot_name(AZK_PBOT_PSEARCH), "psearch") == 0 && azk_pbot_name(2) == NULL);
    ps.sims = 8;
    azk_pbot_params pt = pp;
    pt.temp_milli = 1000;
    size_t wl = azk_pbot_work_size(pol, &ps);
    AZK_CHECK(wl > azk_pbot_work_size(pol, &pp) && azk_pbot_work_size(pol, &pp) > 0);
    void *work = malloc(wl);
    long checked = 0, changed = 0, sampled_differs = 0;
    long long alloc0 = n_alloc;
    for (int i = 0; i < 6; i++) {
        uint64_t grng[2], srng[2];
        azk_bot_seed(grng, 40 + (uint64_t)i);
        azk_bot_seed(srng, 90 + (uint64_t)i);
        AZK_CHECK(azk_game_init(&g, CS, 300 + (uint64_t)i, i & 1, (i >> 1) & 1) == AZK_OK);
        int k = 0;
        while (!azk_is_terminal(&g)) {
            int n = azk_legal_actions(&g, CS, legal, NA);
            if (n >= 2 && (k++ % 4) == 0) {
                int me = azk_current_player(&g);
                uint64_t r1[2] = {srng[0], srng[1]}, r2[2] = {srng[0], srng[1]}, r3[2] = {srng[0], srng[1]};
                azk_game_clone(&before, &g);
                int a = azk_pbot_act(&g, CS, pol, &ps, r1, work, wl);
                AZK_CHECK(memcmp(&before, &g, sizeof g) == 0);
                int ok = 0;
                for (int j = 0; j < n; j++) ok |= legal[j] == a;
                AZK_CHECK(ok);
                azk_game_clone(&v, &g);
                AZK_CHECK(azk_resample(&v, CS, me, 1000 + (uint64_t)checked) == AZK_OK);
                changed += azk_hash(&v) != azk_hash(&g);
                int b = azk_pbot_act(&v, CS, pol, &ps, r2, work, wl);
                AZK_CHECK(a == b);
                AZK_CHECK(r1[0] == r2[0] && r1[1] == r2[1]);
                /* the policy alone: legal, greedy deterministic, sampling from the stream */
                uint64_t q1[2] = {srng[0], srng[1]};
                int pa = azk_pbot_act(&g, CS, pol, &pp, q1, work, wl);
                ok = 0;
                for (int j = 0; j < n; j++) ok |= legal[j] == pa;
                AZK_CHECK(ok && pa == azk_pbot_act(&v, CS, pol, &pp, q1, work, wl));
                int sa = azk_pbot_act(&g, CS, pol, &pt, r3, work, wl);
                ok = 0;
                for (int j = 0; j < n; j++) ok |= legal[j] == sa;
                AZK_CHECK(ok && !(r3[0] == srng[0] && r3[1] == srng[1]));
                sampled_differs += sa != pa;
                checked++;
                srng[0] = r1[0];
                srng[1] = r1[1];
            }
            AZK_CHECK(azk_step(&g, CS, azk_bot_act(&g, CS, AZK_BOT_GREEDY, grng)) == AZK_OK);
        }
    }
    AZK_CHECK(n_alloc == alloc0); /* the caller's workspace: nothing allocated */
    AZK_CHECK(checked > 60 && changed > checked / 2 && sampled_differs > 0);
    /* refusals */
    uint64_t rng[2];
    azk_bot_seed(rng, 1);
    AZK_CHECK(azk_game_init(&g, CS, 9, 0, 1) == AZK_OK);
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &ps, rng, work, wl - 1) == -(int)AZK_ERR_ARG);
    AZK_CHECK(azk_pbot_act(&g, CS, NULL, &ps, rng, work, wl) == -(int)AZK_ERR_ARG);
    azk_pbot_params bad = ps;
    bad.sims = 0;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG && azk_pbot_work_size(pol, &bad) == 0);
    bad = ps;
    bad.prior_temp_milli = 0;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG);
    bad = ps;
    bad.kind = 7;
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &bad, rng, NULL, 0) == -(int)AZK_ERR_ARG);
    /* a stop flag set before the call: no simulation runs, the answer is still legal */
    {
        azk_search_ctl ctl = {0, -1};
        azk_pbot_params pc = ps;
        pc.sims = AZK_PSEARCH_MAX_SIMS;
        pc.ctl = &ctl;
        azk_search_cancel(&ctl);
        static azk_game m;
        AZK_CHECK(azk_game_init(&m, CS, 11, 0, 1) == AZK_OK);
        int guard = 0;
        while (!azk_is_terminal(&m) && (azk_phase(&m) != AZK_PHASE_MAIN || azk_legal_actions(&m, CS, legal, NA) < 2) &&
               guard++ < 100)
            AZK_CHECK(azk_step(&m, CS, azk_bot_act(&m, CS, AZK_BOT_GREEDY, rng)) == AZK_OK);
        int a = azk_pbot_act(&m, CS, pol, &pc, rng, NULL, 0);
        AZK_CHECK(a >= 0 && azk_is_legal(&m, CS, a) && ctl.sims_run == 0);
        azk_search_reset(&ctl);
        pc.sims = 5;
        a = azk_pbot_act(&m, CS, pol, &pc, rng, NULL, 0);
        AZK_CHECK(a >= 0 && ctl.sims_run == 5);
    }
    /* NULL workspace: the same answer (one malloc per decision) */
    uint64_t w1[2] = {rng[0], rng[1]}, w2[2] = {rng[0], rng[1]};
    AZK_CHECK(azk_pbot_act(&g, CS, pol, &ps, w1, NULL, 0) == azk_pbot_act(&g, CS, pol, &ps, w2, work, wl));
    printf("psearch labels: %ld positions, the same after a resample\n", check_labels(pol, 1));
    printf("psearch labels, 2 trees: %ld positions, the same after a resample\n", check_labels(pol, 2));
    test_psearch_threads(pol);
    test_psearch_halving(pol);
    printf("policy bots: %ld positions (no peeking: %ld changed by the resample), sampled != greedy on %ld\n",
           checked, changed, sampled_differs);
    free(work);
    azk_policy_free(pol);
}

int main(void) {
    CS = azk_default_cardset();
    NA = azk_num_actions();
    AZK_RUN(test_bad_arguments);
    AZK_RUN(test_play_game_matches);
    AZK_RUN(test_legal_unchanged_deterministic);
    AZK_RUN(test_timing);
    AZK_RUN(test_search);
    AZK_RUN(test_search_cancel);
    AZK_RUN(test_search_labels);
    AZK_RUN(test_policy_bots);
    return azk_test_summary();
}
