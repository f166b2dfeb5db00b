/* play.c — many games played to their end in one call: the loops behind
 * azuki.simulate (azk_sim_*) and azuki._core.play_games (azk_play_rows_run),
 * so the binding only validates, calls these in stretches without the GIL
 * (checking signals between stretches) and reports (docs/python_api.md).
 *
 * The top layer (csrc/layers.def): it plays through the public API of
 * azuki.h only; game.h gives it no more than the capacities it checks, the
 * simulate stream's constant and the card set's deck count. Nothing below
 * calls it.
 *
 * Invariants:
 *  - the results are a pure function of the arguments: a stretch [a, b) after
 *    [0, a) plays what [0, b) plays (the streams and counters live in the
 *    caller's azk_sim), so a binding may split a run anywhere;
 *  - the random players choose legal[bounded(n)] from azk_legal_actions with
 *    one pcg32 stream over all games, the bots through azk_bot_act /
 *    azk_bot_act_search / azk_pbot_act: the same choices as stepping the
 *    games one by one through the public API (tests/c/test_play.c);
 *  - nothing allocates (the game, the policy bots' workspaces and the columns
 *    are the caller's; the legal list lives on the stack) and nothing prints;
 *  - bad arguments return AZK_ERR_ARG before any game is played.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11: the seats' thinking time */
#include <time.h>

#include "game.h"

_Static_assert((int)AZK_RES_COUNT <= (int)AZK_SIM_MAX_RESULTS, "azk_sim counts every result");
_Static_assert((int)AZK_END_COUNT <= (int)AZK_SIM_MAX_END_REASONS, "azk_sim counts every end reason");
_Static_assert((int)AZK_PLAY_MAX_PBOTS >= 2, "simulate gives each side its own policy bot");

static double play_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int kind_ok(const azk_lineup *p, int kind) {
    return (kind >= 0 && kind < AZK_BOT_COUNT) || (kind < 0 && -1 - kind < p->npbots && p->pbot[-1 - kind].pol);
}

static int players_ok(const azk_lineup *p) {
    return p && p->cs && p->npbots >= 0 && p->npbots <= AZK_PLAY_MAX_PBOTS;
}

void azk_lineup_init(azk_lineup *p, const azk_cardset *cs) {
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->cs = cs;
    p->turn_cap = AZK_DEFAULT_TURN_CAP;
    p->decision_cap = AZK_DEFAULT_DECISION_CAP;
    azk_search_defaults(&p->search);
}

/* The action of the player `kind` for whoever is to act (or minus a status). */
static int choose(const azk_game *g, const azk_lineup *p, int kind, uint64_t rng[2]) {
    if (kind < 0) {
        const azk_pbot *b = &p->pbot[-1 - kind];
        return azk_pbot_act(g, p->cs, b->pol, &b->params, rng, b->work, b->work_len);
    }
    if (kind == AZK_BOT_SEARCH) return azk_bot_act_search(g, p->cs, rng, &p->search);
    return azk_bot_act(g, p->cs, kind, rng);
}

int azk_play_game(azk_game *g, const azk_lineup *p, const int kinds[2], uint64_t rng[4], int32_t seat_decisions[2],
                  double seat_seconds[2]) {
    if (!g || !players_ok(p) || !kinds || !rng || !kind_ok(p, kinds[0]) || !kind_ok(p, kinds[1]))
        return -(int)AZK_ERR_ARG;
    int decisions = 0;
    while (!azk_is_terminal(g)) {
        int q = azk_current_player(g);
        double t0 = seat_seconds ? play_now() : 0.0;
        int a = choose(g, p, kinds[q], rng + 2 * q);
        if (seat_seconds) seat_seconds[q] += play_now() - t0;
        if (seat_decisions) seat_decisions[q]++;
        if (a < 0) return a;
        azk_status st = azk_step(g, p->cs, a);
        if (st != AZK_OK) return -(int)st;
        decisions++;
    }
    return decisions;
}

/* Deal game `seed` of decks d0 (seat 0) and d1 with the players' caps. */
static void deal(azk_game *g, const azk_lineup *p, uint64_t seed, int d0, int d1) {
    azk_game_init(g, p->cs, seed, d0, d1);
    azk_game_set_turn_cap(g, p->turn_cap);
    azk_game_set_decision_cap(g, p->decision_cap);
}

static int deck_ok(const azk_lineup *p, int d) { return d >= 0 && d < p->cs->num_decks; }

azk_status azk_sim_init(azk_sim *s, const azk_lineup *p, uint64_t seed, int deck0, int deck1, const int side_kind[2]) {
    if (!s || !players_ok(p) || !deck_ok(p, deck0) || !deck_ok(p, deck1)) return AZK_ERR_ARG;
    if (side_kind && (!kind_ok(p, side_kind[0]) || !kind_ok(p, side_kind[1]))) return AZK_ERR_ARG;
    memset(s, 0, sizeof *s);
    s->players = *p;
    s->seed = seed;
    s->deck[0] = deck0;
    s->deck[1] = deck1;
    s->bots = side_kind != NULL;
    azk_rng pick;
    azk_rng_seed(&pick, seed, AZK_SIM_RNG_STREAM);
    s->pick[0] = pick.state;
    s->pick[1] = pick.inc;
    for (int k = 0; k < 2; k++) {
        s->side_kind[k] = side_kind ? side_kind[k] : AZK_BOT_RANDOM;
        azk_bot_seed(&s->side_rng[2 * k], azk_bot_seed_for(seed, (uint64_t)k));
    }
    return AZK_OK;
}

/* The random players: uniform over the legal list from the one stream.
 * Returns the decisions, or -1 when the engine refused (a bug). */
static int sim_random_game(azk_sim *s, azk_game *g, long long *decisions) {
    int32_t legal[AZK_NUM_ACTIONS_];
    azk_rng pick = {s->pick[0], s->pick[1]};
    int bad = 0;
    while (!azk_is_terminal(g)) {
        int n = azk_legal_actions(g, s->players.cs, legal, AZK_NUM_ACTIONS_);
        if (n <= 0 || azk_step(g, s->players.cs, legal[azk_rng_bounded(&pick, (uint32_t)n)]) != AZK_OK) {
            bad = 1;
            break;
        }
        ++*decisions;
    }
    s->pick[0] = pick.state;
    s->pick[1] = pick.inc;
    return bad ? -1 : 0;
}

azk_status azk_sim_run(azk_sim *s, azk_game *g, uint64_t start, uint64_t end) {
    if (!s || !g || end < start || !players_ok(&s->players)) return AZK_ERR_ARG;
    const azk_lineup *p = &s->players;
    for (uint64_t i = start; i < end; i++) {
        int swap = (int)(i & 1); /* seat k is played by side k ^ swap */
        deal(g, p, s->seed + i, s->deck[swap], s->deck[swap ^ 1]);
        if (!s->bots) {
            if (sim_random_game(s, g, &s->decisions) < 0) s->errors++;
        } else {
            int kinds[2];
            uint64_t rng[4];
            for (int k = 0; k < 2; k++) {
                kinds[k] = s->side_kind[k ^ swap];
                rng[2 * k] = s->side_rng[2 * (k ^ swap)];
                rng[2 * k + 1] = s->side_rng[2 * (k ^ swap) + 1];
            }
            int n = azk_play_game(g, p, kinds, rng, NULL, NULL);
            for (int k = 0; k < 2; k++) {
                s->side_rng[2 * (k ^ swap)] = rng[2 * k];
                s->side_rng[2 * (k ^ swap) + 1] = rng[2 * k + 1];
            }
            if (n < 0)
                s->errors++;
            else
                s->decisions += n;
        }
        int r = azk_result(g);
        if (r >= 0 && r < AZK_RES_COUNT) {
            s->results[r]++;
            s->end_reasons[azk_end_reason(g)]++;
        }
        s->turns += azk_turn(g);
        int w = azk_winner(g);
        if (w >= 0) {
            s->wins_by_seat[w]++;
            s->wins_by_side[w ^ swap]++;
            if (w == azk_first_player(g)) s->first_player_wins++;
        }
    }
    return AZK_OK;
}

azk_status azk_play_rows_columns(azk_play_rows *r, void *const *cols, int ncols) {
    if (!r || !cols || ncols != AZK_PLAY_NCOLS) return AZK_ERR_ARG;
    for (int k = 0; k < ncols; k++)
        if (!cols[k]) return AZK_ERR_ARG;
    void *const *c = cols;
    *r = (azk_play_rows){c[0], {c[1], c[2]}, {c[3], c[4]}, {c[5], c[6]}, c[7], c[8], c[9], c[10], c[11], c[12], c[13],
                         {c[16], c[17]}, {c[14], c[15]}};
    return AZK_OK;
}

azk_status azk_play_rows_run(const azk_lineup *p, azk_game *g, const azk_play_rows *r, size_t start, size_t end) {
    if (!players_ok(p) || !g || !r || end < start) return AZK_ERR_ARG;
    for (size_t i = start; i < end; i++)
        for (int q = 0; q < 2; q++)
            if (!deck_ok(p, r->deck[q][i]) || !kind_ok(p, r->kind[q][i])) return AZK_ERR_ARG;
    for (size_t i = start; i < end; i++) {
        deal(g, p, r->seed[i], r->deck[0][i], r->deck[1][i]);
        int kinds[2] = {r->kind[0][i], r->kind[1][i]};
        uint64_t rng[4];
        azk_bot_seed(&rng[0], r->bot_seed[0][i]);
        azk_bot_seed(&rng[2], r->bot_seed[1][i]);
        int32_t dec[2] = {0, 0};
        double sec[2] = {0.0, 0.0};
        int m = azk_play_game(g, p, kinds, rng, dec, sec);
        for (int q = 0; q < 2; q++) {
            r->seat_decisions[q][i] = dec[q];
            r->seat_seconds[q][i] = sec[q];
        }
        r->error[i] = m < 0;
        r->decisions[i] = m >= 0 ? m : azk_decisions(g);
        r->result[i] = azk_result(g);
        r->winner[i] = azk_winner(g);
        r->first_player[i] = azk_first_player(g);
        r->end_reason[i] = azk_end_reason(g);
        r->turns[i] = azk_turn(g);
    }
    return AZK_OK;
}
