/* test_play.c — many games in one call (csrc/play.c: azk_sim_*, azk_play_rows_run)
 * and the bench loops behind one call (csrc/bench.c: azk_bench_run).
 *
 * Each entry point against a reference written here over the public API, game
 * by game and decision by decision (as the binding's loops were before they
 * moved to C): the same counters for simulate with random players, built-in
 * bots and a policy bot on one side; a run split into stretches equals the
 * run in one call; the same per-row columns for play_games; no heap
 * allocation inside the runs (malloc interposed, azk_noalloc.h; the policy
 * bot plays from the caller's workspace); bad arguments refused with
 * AZK_ERR_ARG before anything is written. */
#include <stdlib.h>

#include "azk_test.h"
#include "azk_reference.h"
#include "game.h"

#include "azk_noalloc.h"

static const azk_cardset *CS;
static azk_game G;

/* The reference simulate: the counters of azk_sim, computed step by step. */
typedef struct ref_sim {
    long long results[AZK_SIM_MAX_RESULTS], end_reasons[AZK_SIM_MAX_END_REASONS];
    long long wins_by_seat[2], wins_by_side[2], first_player_wins, decisions, turns, errors;
} ref_sim;

static void ref_simulate(ref_sim *o, const azk_lineup *p, uint64_t seed, const int deck[2], const int *side_kind,
                         uint64_t games) {
    static azk_game g;
    int32_t legal[AZK_NUM_ACTIONS_];
    memset(o, 0, sizeof *o);
    azk_rng pick;
    azk_rng_seed(&pick, seed, AZK_SIM_RNG_STREAM);
    uint64_t side_rng[4];
    azk_bot_seed(&side_rng[0], azk_bot_seed_for(seed, 0));
    azk_bot_seed(&side_rng[2], azk_bot_seed_for(seed, 1));
    for (uint64_t i = 0; i < games; i++) {
        int swap = (int)(i & 1);
        AZK_CHECK(azk_game_init(&g, p->cs, seed + i, deck[swap], deck[!swap]) == AZK_OK);
        azk_game_set_turn_cap(&g, p->turn_cap);
        azk_game_set_decision_cap(&g, p->decision_cap);
        int bad = 0;
        while (!azk_is_terminal(&g)) {
            int q = azk_current_player(&g), a;
            if (!side_kind) {
                int n = azk_legal_actions(&g, p->cs, legal, AZK_NUM_ACTIONS_);
                a = n > 0 ? legal[azk_rng_bounded(&pick, (uint32_t)n)] : -1;
            } else {
                int side = q ^ swap, kind = side_kind[side];
                uint64_t *r = &side_rng[2 * side];
                a = kind < 0 ? azk_pbot_act(&g, p->cs, p->pbot[-1 - kind].pol, &p->pbot[-1 - kind].params, r, NULL, 0)
                    : kind == AZK_BOT_SEARCH ? azk_bot_act_search(&g, p->cs, r, &p->search)
                                             : azk_bot_act(&g, p->cs, kind, r);
            }
            if (a < 0 || azk_step(&g, p->cs, a) != AZK_OK) {
                bad = 1;
                break;
            }
            o->decisions++;
        }
        o->errors += bad;
        o->results[azk_result(&g)]++;
        o->end_reasons[azk_end_reason(&g)]++;
        o->turns += azk_turn(&g);
        int w = azk_winner(&g);
        if (w >= 0) {
            o->wins_by_seat[w]++;
            o->wins_by_side[w ^ swap]++;
            o->first_player_wins += w == azk_first_player(&g);
        }
    }
}

static void same_counters(const azk_sim *s, const ref_sim *o) {
    AZK_CHECK(memcmp(s->results, o->results, sizeof o->results) == 0);
    AZK_CHECK(memcmp(s->end_reasons, o->end_reasons, sizeof o->end_reasons) == 0);
    for (int k = 0; k < 2; k++) {
        AZK_CHECK_EQ_U64(s->wins_by_seat[k], o->wins_by_seat[k]);
        AZK_CHECK_EQ_U64(s->wins_by_side[k], o->wins_by_side[k]);
    }
    AZK_CHECK_EQ_U64(s->first_player_wins, o->first_player_wins);
    AZK_CHECK_EQ_U64(s->decisions, o->decisions);
    AZK_CHECK_EQ_U64(s->turns, o->turns);
    AZK_CHECK_EQ_U64(s->errors, o->errors);
}

/* One configuration: the whole run in one call and in uneven stretches, against the reference. */
static void check_sim(const azk_lineup *p, uint64_t seed, int d0, int d1, const int *side_kind, uint64_t games) {
    static azk_sim whole, parts;
    ref_sim ref;
    int deck[2] = {d0, d1};
    ref_simulate(&ref, p, seed, deck, side_kind, games);
    AZK_CHECK(azk_sim_init(&whole, p, seed, d0, d1, side_kind) == AZK_OK);
    long long allocs = n_alloc;
    AZK_CHECK(azk_sim_run(&whole, &G, 0, games) == AZK_OK);
    AZK_CHECK_EQ_U64(n_alloc - allocs, 0);
    same_counters(&whole, &ref);
    AZK_CHECK(azk_sim_init(&parts, p, seed, d0, d1, side_kind) == AZK_OK);
    for (uint64_t a = 0, step = 1; a < games; a += step, step = step * 2 + 1)
        AZK_CHECK(azk_sim_run(&parts, &G, a, a + step < games ? a + step : games) == AZK_OK);
    AZK_CHECK(memcmp(&whole, &parts, sizeof whole) == 0);
    long long n = 0;
    for (int r = 0; r < AZK_SIM_MAX_RESULTS; r++) n += whole.results[r];
    AZK_CHECK_EQ_U64(n, games);
    AZK_CHECK(whole.errors == 0 && whole.decisions > 0);
}

static void test_sim_random_players(void) {
    azk_lineup p;
    azk_lineup_init(&p, CS);
    for (int d = 0; d < 4; d++) check_sim(&p, 1000 + (uint64_t)d, d & 1, d >> 1, NULL, 40);
    p.turn_cap = 6; /* truncated games count too */
    check_sim(&p, 7, 0, 1, NULL, 20);
}

static void test_sim_bots(void) {
    azk_lineup p;
    azk_lineup_init(&p, CS);
    p.search.sims = 4;
    const int kinds[][2] = {{AZK_BOT_GREEDY, AZK_BOT_RANDOM}, {AZK_BOT_RANDOM, AZK_BOT_RANDOM},
                            {AZK_BOT_SEARCH, AZK_BOT_GREEDY}};
    for (int k = 0; k < 3; k++) check_sim(&p, 50 + (uint64_t)k, 0, 1, kinds[k], k == 2 ? 3 : 20);
}

static void test_sim_policy_bot(void) {
    azk_policy *pol = azk_test_reference_policy();
    AZK_CHECK(pol != NULL);
    if (!pol) return;
    azk_lineup p;
    azk_lineup_init(&p, CS);
    p.npbots = 1;
    p.pbot[0].pol = pol;
    azk_pbot_defaults(&p.pbot[0].params, AZK_PBOT_POLICY);
    p.pbot[0].work_len = azk_pbot_work_size(pol, &p.pbot[0].params);
    p.pbot[0].work = malloc(p.pbot[0].work_len);
    AZK_CHECK(p.pbot[0].work != NULL);
    const int kinds[2] = {AZK_BOT_GREEDY, -1};
    check_sim(&p, 3, 1, 0, kinds, 6);
    /* the counter sees a policy bot without a workspace allocate (one malloc per decision) */
    uint64_t rng[2];
    azk_bot_seed(rng, 1);
    AZK_CHECK(azk_game_init(&G, CS, 1, 0, 1) == AZK_OK);
    long long allocs = n_alloc;
    AZK_CHECK(azk_pbot_act(&G, CS, pol, &p.pbot[0].params, rng, NULL, 0) >= 0);
    AZK_CHECK(!AZK_INTERPOSE || n_alloc > allocs);
    free(p.pbot[0].work);
    azk_policy_free(pol);
}

static void test_play_rows(void) {
    enum { N = 12 };
    uint64_t seed[N], bs0[N], bs1[N];
    int32_t d0[N], d1[N], k0[N], k1[N];
    int32_t res[N], win[N], first[N], end[N], turns[N], dec[N], err[N], n0[N], n1[N];
    double t0[N], t1[N];
    for (int i = 0; i < N; i++) {
        seed[i] = 900 + (uint64_t)i;
        bs0[i] = 17 * (uint64_t)i;
        bs1[i] = 31 * (uint64_t)i + 5;
        d0[i] = i & 1;
        d1[i] = (i >> 1) & 1;
        k0[i] = i % 3 == 0 ? AZK_BOT_GREEDY : AZK_BOT_RANDOM;
        k1[i] = i % 5 == 0 ? AZK_BOT_SEARCH : AZK_BOT_RANDOM;
    }
    azk_play_rows r = {seed, {bs0, bs1}, {d0, d1}, {k0, k1}, res, win, first, end, turns, dec, err, {n0, n1}, {t0, t1}};
    azk_lineup p;
    azk_lineup_init(&p, CS);
    p.search.sims = 3;
    long long allocs = n_alloc;
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 0, 5) == AZK_OK);
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 5, N) == AZK_OK);
    AZK_CHECK_EQ_U64(n_alloc - allocs, 0);
    static azk_game g;
    for (int i = 0; i < N; i++) { /* the reference: the row's game, one decision at a time */
        uint64_t rng[4];
        azk_bot_seed(&rng[0], bs0[i]);
        azk_bot_seed(&rng[2], bs1[i]);
        AZK_CHECK(azk_game_init(&g, CS, seed[i], d0[i], d1[i]) == AZK_OK);
        int kinds[2] = {k0[i], k1[i]}, m = 0, seat[2] = {0, 0};
        while (!azk_is_terminal(&g)) {
            int q = azk_current_player(&g);
            int a = kinds[q] == AZK_BOT_SEARCH ? azk_bot_act_search(&g, CS, rng + 2 * q, &p.search)
                                               : azk_bot_act(&g, CS, kinds[q], rng + 2 * q);
            seat[q]++;
            AZK_CHECK(a >= 0 && azk_step(&g, CS, a) == AZK_OK);
            m++;
        }
        AZK_CHECK(err[i] == 0 && dec[i] == m && n0[i] == seat[0] && n1[i] == seat[1]);
        AZK_CHECK(res[i] == azk_result(&g) && win[i] == azk_winner(&g) && first[i] == azk_first_player(&g));
        AZK_CHECK(end[i] == azk_end_reason(&g) && turns[i] == azk_turn(&g));
        AZK_CHECK(t0[i] >= 0.0 && t1[i] >= 0.0);
    }
}

static void test_bad_arguments(void) {
    azk_lineup p;
    azk_lineup_init(&p, CS);
    static azk_sim s;
    const int bad_kind[2] = {AZK_BOT_RANDOM, -1}; /* no policy bot given */
    const int over[2] = {AZK_BOT_COUNT, 0};
    memset(&s, 0x5a, sizeof s);
    AZK_CHECK(azk_sim_init(&s, &p, 1, 0, 99, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_sim_init(&s, &p, 1, -1, 0, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_sim_init(&s, &p, 1, 0, 1, bad_kind) == AZK_ERR_ARG);
    AZK_CHECK(azk_sim_init(&s, &p, 1, 0, 1, over) == AZK_ERR_ARG);
    AZK_CHECK(azk_sim_init(NULL, &p, 1, 0, 1, NULL) == AZK_ERR_ARG);
    AZK_CHECK(((unsigned char *)&s)[0] == 0x5a); /* nothing written */
    AZK_CHECK(azk_sim_init(&s, &p, 1, 0, 1, NULL) == AZK_OK);
    AZK_CHECK(azk_sim_run(&s, &G, 5, 4) == AZK_ERR_ARG && s.decisions == 0);
    AZK_CHECK(azk_sim_run(&s, NULL, 0, 1) == AZK_ERR_ARG && s.decisions == 0);
    AZK_CHECK(azk_play_game(&G, &p, bad_kind, s.side_rng, NULL, NULL) == -(int)AZK_ERR_ARG);
    /* play rows: a bad kind in a later row refuses the whole call before any row is played */
    uint64_t seed[2] = {1, 2}, bs[2] = {3, 4};
    int32_t dk[2] = {0, 1}, kk[2] = {0, 0}, kbad[2] = {0, -1};
    int32_t out[9][2];
    double sec[2][2];
    memset(out, 0x7f, sizeof out);
    azk_play_rows r = {seed, {bs, bs}, {dk, dk}, {kk, kbad}, out[0], out[1], out[2], out[3], out[4], out[5], out[6],
                       {out[7], out[8]}, {sec[0], sec[1]}};
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 0, 2) == AZK_ERR_ARG);
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 1, 0) == AZK_ERR_ARG);
    AZK_CHECK(out[0][0] == 0x7f7f7f7f);
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 0, 1) == AZK_OK && out[6][0] == 0 && out[0][1] == 0x7f7f7f7f);
    int32_t dbad[2] = {0, 64};
    r.deck[1] = dbad;
    r.kind[1] = kk;
    AZK_CHECK(azk_play_rows_run(&p, &G, &r, 0, 2) == AZK_ERR_ARG);
}

/* The bench loops run from the caller's workspace and refuse bad arguments (their figures: tests/test_play.py). */
static void test_bench_run(void) {
    azk_bench_args a;
    azk_bench_result o;
    memset(&a, 0, sizeof a);
    a.n = 50;
    a.seed = 3;
    azk_search_defaults(&a.search);
    size_t wl = azk_bench_work_size(AZK_BENCH_MICRO, &a);
    void *w = malloc(wl);
    AZK_CHECK(w != NULL && wl > 2 * azk_game_size());
    AZK_CHECK(azk_bench_run(AZK_BENCH_MICRO, &a, w, wl - 1, &o) == AZK_ERR_ARG);
    long long allocs = n_alloc;
    AZK_CHECK(azk_bench_run(AZK_BENCH_MICRO, &a, w, wl, &o) == AZK_OK);
    AZK_CHECK_EQ_U64(n_alloc - allocs, 0);
    AZK_CHECK(o.calibration_ns > 0 && o.clone_ns > 0 && o.observe_ns > 0 && o.memcpy_bytes_per_s > 0);
    a.n = 2;
    a.search.sims = 2;
    AZK_CHECK(azk_bench_work_size(AZK_BENCH_SEARCH, &a) <= wl);
    AZK_CHECK(azk_bench_run(AZK_BENCH_SEARCH, &a, w, wl, &o) == AZK_OK && o.count == 2 && o.seconds > 0);
    AZK_CHECK(azk_bench_run(AZK_BENCH_VEC, &a, w, wl, &o) == AZK_ERR_ARG); /* no vector */
    AZK_CHECK(azk_bench_run((azk_bench_kind)7, &a, w, wl, &o) == AZK_ERR_ARG);
    a.n = 0;
    AZK_CHECK(azk_bench_run(AZK_BENCH_SEARCH, &a, w, wl, &o) == AZK_ERR_ARG);
    free(w);
}

int main(void) {
    CS = azk_default_cardset();
    AZK_RUN(test_sim_random_players);
    AZK_RUN(test_sim_bots);
    AZK_RUN(test_sim_policy_bot);
    AZK_RUN(test_play_rows);
    AZK_RUN(test_bad_arguments);
    AZK_RUN(test_bench_run);
    return azk_test_summary();
}
