/* test_vec.c — the vector of games (csrc/vec.c) through the public API:
 * AZK_VEC_POLICY (agent rows stepped by azk_vec_step, the opponent seat by
 * azk_vec_step_opponent) equals the same games stepped alone episode after
 * episode; every game waits for exactly one side; an illegal opponent action
 * changes nothing; a waiting self-play row is its seat's view with a
 * NO_OP-only packed MASK, and every self-play row after every step is its
 * seat's view, over many episodes of two pairings; bad arguments (a float32 observation dtype among
 * them). Runs under ASan+UBSan too (make asan). */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>

#include "azuki.h"
#include "azk_test.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t next_rand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* a uniform legal action from a mask row */
static int pick(const uint8_t *m, int na) {
    int cnt = 0;
    for (int k = 0; k < na; k++) cnt += m[k];
    if (cnt == 0) return -1;
    int j = (int)(next_rand() % (uint32_t)cnt);
    for (int k = 0; k < na; k++)
        if (m[k] && j-- == 0) return k;
    return -1;
}

static const int32_t PAIRS[4] = {0, 1, 1, 1};

static void solo_init(azk_game *g, const azk_cardset *cs, uint64_t seed, int e) {
    int pair = (e / 2) % 2, d0 = PAIRS[2 * pair], d1 = PAIRS[2 * pair + 1];
    if (e & 1) { int t = d0; d0 = d1; d1 = t; }
    azk_game_init(g, cs, seed + (uint64_t)e, d0, d1);
}

static void test_policy_mode_equals_solo_games(void) {
    const azk_cardset *cs = azk_default_cardset();
    enum { N = 4 };
    const uint64_t seed = 77;
    int na = azk_num_actions(), len = azk_obs_len();
    azk_vec *v = malloc(azk_vec_size(N));
    AZK_CHECK(azk_vec_init(v, cs, N, seed, AZK_VEC_POLICY, 0, PAIRS, 2) == AZK_OK);
    AZK_CHECK(azk_vec_set_obs(v, AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL) == AZK_OK);
    AZK_CHECK(azk_vec_rows(v) == N);
    uint8_t *obs = malloc((size_t)N * len), *opp_obs = malloc((size_t)N * len), *mine = malloc((size_t)len);
    uint8_t *masks = malloc((size_t)N * na), *opp_masks = malloc((size_t)N * na), *solo_mask = malloc((size_t)na);
    uint8_t pending[N], term[N], trunc[N];
    float rew[N];
    int32_t acting[N], act[N];
    azk_game *solo[N];
    for (int i = 0; i < N; i++) {
        solo[i] = malloc(azk_game_size());
        solo_init(solo[i], cs, seed, azk_vec_episode(v, i));
    }
    AZK_CHECK(azk_vec_observe(v, cs, obs, masks, acting) == AZK_OK);
    AZK_CHECK(azk_vec_observe_opponent(v, cs, opp_obs, opp_masks, pending) == AZK_OK);
    int episodes = 0, opp_decisions = 0, bad = 0;
    for (int it = 0; it < 3000 && !bad; it++) {
        for (int opp = 0; opp < 2 && !bad; opp++) {
            int seats[N];
            for (int i = 0; i < N; i++) {
                seats[i] = azk_vec_agent_seat(v, i);
                act[i] = 0;
                int live = opp ? pending[i] : acting[i];
                if (!live) continue;
                act[i] = pick(opp ? opp_masks + (size_t)i * na : masks + (size_t)i * na, na);
                opp_decisions += opp;
                if (azk_step(solo[i], cs, act[i]) != AZK_OK) bad = 1;
            }
            azk_status st = opp ? azk_vec_step_opponent(v, cs, act, obs, masks, rew, term, trunc, NULL)
                                : azk_vec_step(v, cs, act, obs, masks, rew, term, trunc, NULL);
            AZK_CHECK(st == AZK_OK);
            azk_vec_observe(v, cs, NULL, NULL, acting);
            azk_vec_observe_opponent(v, cs, opp_obs, opp_masks, pending);
            for (int i = 0; i < N; i++) {
                if (azk_is_terminal(solo[i])) {
                    int w = azk_winner(solo[i]);
                    AZK_CHECK(term[i] + trunc[i] == 1);
                    AZK_CHECK(rew[i] == (w < 0 ? 0.f : w == seats[i] ? 1.f : -1.f));
                    episodes++;
                    solo_init(solo[i], cs, seed, azk_vec_episode(v, i));
                } else {
                    AZK_CHECK(term[i] == 0 && trunc[i] == 0 && rew[i] == 0.f);
                }
                if (azk_hash(solo[i]) != azk_hash(azk_vec_game(v, i))) bad = 1;
                int seat = azk_vec_agent_seat(v, i), cp = azk_current_player(solo[i]);
                AZK_CHECK(seat == ((azk_vec_episode(v, i) >> 1) & 1));
                AZK_CHECK(acting[i] == (cp == seat) && pending[i] == (cp == 1 - seat));
                azk_legal_mask(solo[i], cs, solo_mask);
                if (pending[i]) {
                    AZK_CHECK(memcmp(opp_masks + (size_t)i * na, solo_mask, (size_t)na) == 0);
                    azk_observe(solo[i], cs, 1 - seat, mine);
                    AZK_CHECK(memcmp(opp_obs + (size_t)i * len, mine, (size_t)len) == 0);
                } else {
                    AZK_CHECK(memcmp(masks + (size_t)i * na, solo_mask, (size_t)na) == 0);
                    azk_observe(solo[i], cs, seat, mine);
                    AZK_CHECK(memcmp(obs + (size_t)i * len, mine, (size_t)len) == 0);
                }
            }
        }
    }
    AZK_CHECK(!bad);
    AZK_CHECK(episodes >= 8 && opp_decisions > 100);
    float log[AZK_VEC_LOG_LEN];
    AZK_CHECK(azk_vec_log(v, log, AZK_VEC_LOG_LEN) == AZK_VEC_LOG_LEN);
    AZK_CHECK((int)log[AZK_VLOG_EPISODES] == episodes);
    AZK_CHECK((int)(log[AZK_VLOG_AGENT_GAMES_SEAT0] + log[AZK_VLOG_AGENT_GAMES_SEAT1]) == episodes);

    /* an illegal opponent action in a pending game: AZK_ILLEGAL, nothing changed */
    int p = -1;
    for (int k = 0; k < 200 && p < 0; k++) {
        for (int i = 0; i < N; i++) act[i] = acting[i] ? pick(masks + (size_t)i * na, na) : 0;
        azk_vec_step(v, cs, act, obs, masks, rew, term, trunc, NULL);
        azk_vec_observe(v, cs, NULL, NULL, acting);
        azk_vec_observe_opponent(v, cs, opp_obs, opp_masks, pending);
        for (int i = 0; i < N; i++)
            if (pending[i]) p = i;
    }
    AZK_CHECK(p >= 0);
    if (p >= 0) {
        uint64_t h[N];
        for (int i = 0; i < N; i++) {
            h[i] = azk_hash(azk_vec_game(v, i));
            act[i] = pending[i] ? pick(opp_masks + (size_t)i * na, na) : 0;
        }
        for (int k = 0; k < na; k++)
            if (!opp_masks[(size_t)p * na + k]) { act[p] = k; break; }
        int bad_row = -1;
        AZK_CHECK(azk_vec_step_opponent(v, cs, act, obs, masks, rew, term, trunc, &bad_row) == AZK_ILLEGAL);
        AZK_CHECK(bad_row == p);
        for (int i = 0; i < N; i++) AZK_CHECK(azk_hash(azk_vec_game(v, i)) == h[i]);
    }
    for (int i = 0; i < N; i++) free(solo[i]);
    free(v); free(obs); free(opp_obs); free(mine); free(masks); free(opp_masks); free(solo_mask);
}

/* Self-play: the waiting seat's row is its full view (AZK_VEC_WAIT_FULL)
 * with a NO_OP-only packed MASK field (bit 0), the acting row its full view. */
static void test_waiting_row_mask(void) {
    const azk_cardset *cs = azk_default_cardset();
    int len = azk_obs_len(), na = azk_num_actions(), moff = -1, mbytes = 0;
    for (int f = 0; f < azk_obs_num_fields(); f++)
        if (strcmp(azk_obs_field_name(f), "MASK") == 0) azk_obs_field(f, &moff, NULL, &mbytes, NULL, NULL);
    AZK_CHECK(moff > 0 && mbytes == (na + 7) / 8);
    azk_vec *v = malloc(azk_vec_size(2));
    AZK_CHECK(azk_vec_init(v, cs, 2, 5, AZK_VEC_SELF, 0, PAIRS, 1) == AZK_OK);
    AZK_CHECK(azk_vec_set_obs(v, AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL) == AZK_OK);
    uint8_t *obs = malloc((size_t)4 * len), *mine = malloc((size_t)len), *masks = malloc((size_t)4 * na);
    int32_t acting[4], act[4];
    float rew[4];
    uint8_t term[4], trunc[4];
    int checked = 0;
    for (int it = 0; it < 200; it++) {
        AZK_CHECK(azk_vec_observe(v, cs, obs, masks, acting) == AZK_OK);
        for (int r = 0; r < 4; r++) {
            const azk_game *g = azk_vec_game(v, r / 2);
            AZK_CHECK(azk_observe(g, cs, r & 1, mine) == len);
            if (!acting[r]) {
                AZK_CHECK(obs[(size_t)r * len + moff] == 1);
                for (int k = 1; k < mbytes; k++) AZK_CHECK(obs[(size_t)r * len + moff + k] == 0);
                memcpy(mine + moff, obs + (size_t)r * len + moff, (size_t)mbytes);
                checked++;
            }
            AZK_CHECK(memcmp(obs + (size_t)r * len, mine, (size_t)len) == 0);
            act[r] = acting[r] ? pick(masks + (size_t)r * na, na) : 0;
        }
        AZK_CHECK(azk_vec_step(v, cs, act, obs, masks, rew, term, trunc, NULL) == AZK_OK);
    }
    AZK_CHECK(checked >= 200);
    free(v); free(obs); free(mine); free(masks);
}

/* Self-play over many episodes of two pairings (each deck from each seat):
 * after every step each row is its seat's full view (azk_observe; a waiting
 * row with a NO_OP-only MASK field). VecGame writes both rows of a game in
 * one pass and keeps each game's sorted lists between steps (azk_obs_memo,
 * dropped at every new episode: new cards): a stale list shows here. */
static void test_self_play_rows_are_observations(void) {
    const azk_cardset *cs = azk_default_cardset();
    int len = azk_obs_len(), na = azk_num_actions(), moff = -1, mbytes = 0;
    for (int f = 0; f < azk_obs_num_fields(); f++)
        if (strcmp(azk_obs_field_name(f), "MASK") == 0) azk_obs_field(f, &moff, NULL, &mbytes, NULL, NULL);
    enum { N = 6, ROWS = 2 * N };
    azk_vec *v = malloc(azk_vec_size(N));
    AZK_CHECK(azk_vec_init(v, cs, N, 11, AZK_VEC_SELF, 0, PAIRS, 2) == AZK_OK);
    uint8_t *obs = malloc((size_t)ROWS * len), *mine = malloc((size_t)len), *masks = malloc((size_t)ROWS * na);
    int32_t acting[ROWS], act[ROWS];
    float rew[ROWS];
    uint8_t term[ROWS], trunc[ROWS];
    long long rows = 0, bad = 0;
    AZK_CHECK(azk_vec_observe(v, cs, obs, masks, acting) == AZK_OK);
    for (int it = 0; it < 3000; it++) {
        for (int r = 0; r < ROWS; r++) act[r] = acting[r] ? pick(masks + (size_t)r * na, na) : 0;
        AZK_CHECK(azk_vec_step(v, cs, act, obs, masks, rew, term, trunc, NULL) == AZK_OK);
        AZK_CHECK(azk_vec_observe(v, cs, NULL, NULL, acting) == AZK_OK);
        for (int r = 0; r < ROWS; r++) {
            AZK_CHECK(azk_observe(azk_vec_game(v, r / 2), cs, r & 1, mine) == len);
            if (!acting[r]) {
                memset(mine + moff, 0, (size_t)mbytes);
                mine[moff] = 1;
            }
            bad += memcmp(obs + (size_t)r * len, mine, (size_t)len) != 0;
            rows++;
        }
    }
    int episodes = 0;
    for (int i = 0; i < N; i++) episodes += azk_vec_episode(v, i);
    AZK_CHECK(bad == 0);
    AZK_CHECK(episodes >= 4 * N); /* every game went through several episodes, of both pairings */
    free(v); free(obs); free(mine); free(masks);
}

static void test_bad_arguments(void) {
    const azk_cardset *cs = azk_default_cardset();
    azk_vec *v = malloc(azk_vec_size(2));
    int32_t act[4] = {0, 0, 0, 0};
    float rew[4];
    uint8_t term[4], trunc[4], pend[2];
    AZK_CHECK(azk_vec_init(v, cs, 2, 1, AZK_VEC_MODE_COUNT, 0, PAIRS, 1) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_init(v, cs, 2, 1, AZK_VEC_SELF, 0, PAIRS, 1) == AZK_OK);
    AZK_CHECK(azk_vec_step_opponent(v, cs, act, NULL, NULL, rew, term, trunc, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_observe_opponent(v, cs, NULL, NULL, pend) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_obs(v, 2, AZK_VEC_WAIT_FULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_obs(v, 0, AZK_VEC_WAIT_FULL) == AZK_ERR_ARG); /* float32: gone with layout v4 */
    AZK_CHECK(azk_vec_set_obs(v, AZK_VEC_OBS_U8, 2) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_set_obs(NULL, AZK_VEC_OBS_U8, AZK_VEC_WAIT_FULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_init(v, cs, 2, 1, AZK_VEC_POLICY, 0, PAIRS, 1) == AZK_OK);
    AZK_CHECK(azk_vec_step_opponent(v, cs, NULL, NULL, NULL, rew, term, trunc, NULL) == AZK_ERR_ARG);
    AZK_CHECK(azk_vec_observe_opponent(v, NULL, NULL, NULL, pend) == AZK_ERR_ARG);
    free(v);
}

int main(void) {
    AZK_RUN(test_policy_mode_equals_solo_games);
    AZK_RUN(test_waiting_row_mask);
    AZK_RUN(test_self_play_rows_are_observations);
    AZK_RUN(test_bad_arguments);
    return azk_test_summary();
}
