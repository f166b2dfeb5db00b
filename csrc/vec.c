/* vec.c — N games stepped by one call (azuki.h "Vector of games"), in the
 * shape PufferLib's native environments take: caller-owned I/O buffers, one
 * C call for the whole batch, finished games reset in place.
 *
 * Layer: a service on top of the engine (it uses only azuki.h functions,
 * game.h's struct size and the bots of bot.c); nothing below knows it.
 *
 * Invariants:
 *  - game i's k-th episode (k = 0, 1, ...) is exactly Game(seed = base + e,
 *    decks = pairing) where e is the vector's episode counter when it began
 *    (episodes are numbered in the order they start, games in index order
 *    at init): the same trajectory as one game stepped alone (tested);
 *  - deck pairings are drawn in turn from the list, each used twice in a
 *    row with the seats swapped, so per-deck and per-seat results balance;
 *  - a step either applies every row's action or, if any acting row's action
 *    is illegal, changes nothing and reports the first such row (the same
 *    for the opponent actions of AZK_VEC_POLICY); with AZK_VEC_ILLEGAL_LOSE
 *    an illegal action instead ends its own episode, lost by its chooser,
 *    and the other rows' actions are applied;
 *  - AZK_VEC_POLICY: a game is never left where nobody decides: after every
 *    call each game waits either for its agent (its row acts) or for its
 *    opponent (pending), never both, never a finished game;
 *  - threads (azk_vec_set_threads): k - 1 persistent workers and the caller
 *    step chunks of the games; every output and every game equals what one
 *    thread computes: a game's work touches only that game and its rows, and
 *    what is shared (the episode counter, the log) is updated by the caller
 *    alone, in game order, between two parallel phases;
 *  - no allocation (the worker pool is allocated once, by
 *    azk_vec_set_threads), nothing printed.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, getpid, clock_gettime under -std=c11 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "game.h"

struct azk_vec_game {
    azk_game g;
    uint64_t bot_rng[2];
    uint32_t episode;       /* the episode counter value this episode started with */
    uint32_t steps;         /* agent decisions in this episode */
    uint8_t agent_seat;     /* AZK_VEC_BOT / POLICY: the agent's seat this episode */
    uint8_t touched;        /* stepped by the last call (AZK_VEC_POLICY rewrites only those rows) */
    uint8_t deck[2];        /* the deck indices of seat 0 and seat 1 this episode (for the log) */
    /* set by a step's first phase for the second (vec_step): the episode
     * ended (1), or ended by an illegal action (2); its winner and result */
    uint8_t ended;
    int8_t end_w;
    uint8_t end_res;
    uint8_t pad_;
    /* the sorted lists of the game's last self-play observations (azk_observe_both): a cache, rewritten
     * by the outputs phase of the thread that owns the game, dropped when an episode begins (new cards) */
    azk_obs_memo memo;
};

struct vec_pool;

struct azk_vec {
    int n, mode, bot_kind, npairs;
    int waiting;            /* azk_vec_set_obs */
    int illegal;            /* azk_vec_set_illegal */
    int paired;             /* azk_vec_set_paired */
    int obs_len, mask_off;  /* the observation's length and its MASK field (azk_obs_field) */
    uint64_t seed;
    uint32_t next_episode;
    int32_t pairs[2 * AZK_VEC_MAX_PAIRS];
    float log[AZK_VEC_LOG_LEN];
    struct vec_pool *pool;  /* NULL: one thread (azk_vec_set_threads) */
    struct azk_vec_game games[];  /* n entries */
};

size_t azk_vec_size(int n) {
    if (n < 1 || n > AZK_VEC_MAX_GAMES) return 0;
    return sizeof(azk_vec) + (size_t)n * sizeof(struct azk_vec_game);
}

int azk_vec_rows(const azk_vec *v) { return v->mode == AZK_VEC_SELF ? 2 * v->n : v->n; }

/* The one definition of the deal schedule (azuki.h; the binding's
 * azuki.deal_schedule and every Python evaluator ask this function). */
static void deal_of(uint64_t seed, uint64_t episode, int npairs, int paired, azk_deal *out) {
    /* deal index: every episode its own deal, or (paired) one deal per two episodes */
    uint64_t k = paired ? episode / 2 : episode;
    out->deal = k;
    out->engine_seed = seed + k;
    out->pairing = (int)((k / 2) % (uint64_t)npairs);
    out->swapped = (int)(k & 1); /* the same pairing from the other seat */
    /* with the swap: each deck from each seat every 4 episodes (paired: the agent takes both seats of a deal) */
    out->agent_seat = (int)(paired ? episode & 1 : (episode >> 1) & 1);
    out->bot_seed = azk_vec_bot_seed(seed, episode);
}

azk_status azk_deal_schedule(uint64_t seed, uint64_t episode, int npairs, int paired, azk_deal *out) {
    if (!out || npairs < 1 || npairs > AZK_VEC_MAX_PAIRS || (paired != 0 && paired != 1)) return AZK_ERR_ARG;
    deal_of(seed, episode, npairs, paired, out);
    return AZK_OK;
}

azk_status azk_arena_deal(uint64_t seed, uint64_t game, int npairs, azk_deal *out) {
    if (!out || npairs < 1) return AZK_ERR_ARG;
    out->deal = game / 2;
    out->engine_seed = seed + out->deal;
    out->pairing = (int)(out->deal % (uint64_t)npairs);
    out->agent_seat = (int)(game & 1); /* A's seat; each player keeps its deck */
    out->swapped = out->agent_seat;
    out->bot_seed = azk_bot_seed_for(seed, game);
    return AZK_OK;
}

uint64_t azk_vec_bot_seed(uint64_t seed, uint64_t episode) {
    return seed ^ azk_weyl(episode); /* stream `episode` of seed, unmixed (rng.h says why) */
}

/* Begin episode ep in slot i: seed, decks and seats from the schedule. */
static void vec_begin_episode(azk_vec *v, const azk_cardset *cs, int i, uint32_t ep) {
    struct azk_vec_game *e = &v->games[i];
    azk_deal d;
    deal_of(v->seed, ep, v->npairs, v->paired, &d);
    int d0 = v->pairs[2 * d.pairing], d1 = v->pairs[2 * d.pairing + 1];
    if (d.swapped) { int t = d0; d0 = d1; d1 = t; }
    azk_game_init(&e->g, cs, d.engine_seed, d0, d1);
    e->deck[0] = (uint8_t)d0;
    e->deck[1] = (uint8_t)d1;
    azk_events(&e->g, NULL, 1 << 30); /* a vector of games keeps no event log */
    e->memo.have = 0;                 /* the cards were dealt anew */
    e->episode = ep;
    e->steps = 0;
    e->agent_seat = (uint8_t)d.agent_seat;
    azk_bot_seed(e->bot_rng, d.bot_seed);
}

/* Begin the next episode in slot i (the counter in game order). */
static void vec_reset_game(azk_vec *v, const azk_cardset *cs, int i) {
    vec_begin_episode(v, cs, i, v->next_episode++);
}

/* AZK_VEC_BOT: the bot answers while it is to act. */
static void vec_bot_moves(azk_vec *v, const azk_cardset *cs, struct azk_vec_game *e) {
    while (!azk_is_terminal(&e->g) && azk_current_player(&e->g) != e->agent_seat) {
        int a = azk_bot_act(&e->g, cs, v->bot_kind, e->bot_rng);
        if (a < 0 || azk_step(&e->g, cs, a) != AZK_OK) break; /* cannot happen: the bot only picks legal actions */
    }
}

/* Start every game from the episode counter (init, azk_vec_set_paired). */
static void vec_start_all(azk_vec *v, const azk_cardset *cs) {
    for (int i = 0; i < v->n; i++) {
        vec_reset_game(v, cs, i);
        if (v->mode == AZK_VEC_BOT) vec_bot_moves(v, cs, &v->games[i]);
        v->games[i].touched = 1; /* every row is written once */
    }
}

azk_status azk_vec_init(azk_vec *v, const azk_cardset *cs, int n, uint64_t seed, int mode, int bot_kind,
                        const int32_t *pairs, int npairs) {
    if (!v || !cs || n < 1 || n > AZK_VEC_MAX_GAMES || mode < 0 || mode >= AZK_VEC_MODE_COUNT) return AZK_ERR_ARG;
    if (mode == AZK_VEC_BOT && (bot_kind < 0 || bot_kind >= azk_bot_num_kinds())) return AZK_ERR_ARG;
    if (!pairs || npairs < 1 || npairs > AZK_VEC_MAX_PAIRS) return AZK_ERR_ARG;
    for (int k = 0; k < 2 * npairs; k++)
        if (pairs[k] < 0 || pairs[k] >= cs->num_decks) return AZK_ERR_ARG;
    memset(v, 0, azk_vec_size(n));
    v->n = n;
    v->mode = mode;
    v->bot_kind = bot_kind;
    v->npairs = npairs;
    v->seed = seed;
    memcpy(v->pairs, pairs, sizeof(int32_t) * 2 * (size_t)npairs);
    v->obs_len = azk_obs_len();
    v->mask_off = -1;
    for (int f = 0; f < azk_obs_num_fields(); f++)
        if (strcmp(azk_obs_field_name(f), "MASK") == 0) azk_obs_field(f, &v->mask_off, NULL, NULL, NULL, NULL);
    if (v->mask_off < 0) return AZK_ERR_ARG; /* cannot happen: the layout declares MASK */
    vec_start_all(v, cs);
    return AZK_OK;
}

azk_status azk_vec_set_obs(azk_vec *v, int obs_dtype, int waiting) {
    if (!v || obs_dtype != AZK_VEC_OBS_U8 || (waiting != AZK_VEC_WAIT_FULL && waiting != AZK_VEC_WAIT_MASK))
        return AZK_ERR_ARG;
    v->waiting = waiting;
    return AZK_OK;
}

azk_status azk_vec_set_illegal(azk_vec *v, int policy) {
    if (!v || (policy != AZK_VEC_ILLEGAL_ERROR && policy != AZK_VEC_ILLEGAL_LOSE)) return AZK_ERR_ARG;
    v->illegal = policy;
    return AZK_OK;
}

azk_status azk_vec_set_paired(azk_vec *v, const azk_cardset *cs, int on) {
    if (!v || !cs || (on != 0 && on != 1)) return AZK_ERR_ARG;
    v->paired = on;
    v->next_episode = 0;
    memset(v->log, 0, sizeof v->log);
    vec_start_all(v, cs);
    return AZK_OK;
}

/* The row that decides game i now (-1: none, the game is over). */
static int acting_row(const azk_vec *v, int i) {
    const struct azk_vec_game *e = &v->games[i];
    int p = azk_current_player(&e->g);
    if (p < 0) return -1;
    if (v->mode == AZK_VEC_POLICY) return p == e->agent_seat ? i : -1;
    return v->mode == AZK_VEC_SELF ? 2 * i + p : i;
}

/* AZK_VEC_POLICY: game i waits for its opponent. */
static int opp_pending(const azk_vec *v, int i) {
    const struct azk_vec_game *e = &v->games[i];
    int p = azk_current_player(&e->g);
    return v->mode == AZK_VEC_POLICY && p >= 0 && p != e->agent_seat;
}

/* Row r's observation (seat's view); a row that does not act gets a
 * NO_OP-only MASK field (bit 0: NO_OP is flat action 0), and with
 * AZK_VEC_WAIT_MASK (unless `full`) nothing else is written. */
static void write_obs_row(const azk_vec *v, const azk_cardset *cs, void *obs, int r, int i, int seat, int acts,
                          int full) {
    uint8_t *o = (uint8_t *)obs + (size_t)r * (size_t)v->obs_len;
    if (acts || full || v->waiting == AZK_VEC_WAIT_FULL) /* the memo: a cache (see write_outputs) */
        azk_observe_memo(&v->games[i].g, cs, seat, o, (azk_obs_memo *)&v->games[i].memo);
    if (!acts) {
        memset(o + v->mask_off, 0, (size_t)(AZK_NUM_ACTIONS_ + 7) / 8);
        o[v->mask_off] = 1;
    }
}

static void noop_mask(uint8_t *m) {
    memset(m, 0, (size_t)AZK_NUM_ACTIONS_);
    m[0] = 1;
}

/* Write the rows' observations (if obs) and masks (if masks) of games
 * [lo, hi): the acting row gets the game's legal set; a row that does not
 * act (self-play's waiting seat, a POLICY agent waiting for its opponent) a
 * NO_OP-only mask (its action is ignored; a policy never sees an empty mask).
 * `how`: 0 every game, every observation in full (azk_vec_observe, so an
 * AZK_VEC_WAIT_MASK row always holds a complete earlier view); 2 every game,
 * waiting rows as configured; 3 likewise, only the games the last call
 * stepped (POLICY). */
static void write_outputs(const azk_vec *v, const azk_cardset *cs, void *obs, uint8_t *masks, int how, int lo,
                          int hi) {
    int full = how == 0;
    int na = AZK_NUM_ACTIONS_;
    for (int i = lo; i < hi; i++) {
        if (how == 3 && !v->games[i].touched) continue;
        int r = acting_row(v, i);
        if (v->mode == AZK_VEC_SELF) {
            /* both seats' full views: in one pass (the public part once, mirrored) */
            int both = obs && (full || v->waiting == AZK_VEC_WAIT_FULL);
            if (both) {
                uint8_t *o = (uint8_t *)obs + (size_t)(2 * i) * (size_t)v->obs_len;
                /* the memo is a cache: writing it through the const view changes no observable state */
                azk_observe_both(&v->games[i].g, cs, o, o + v->obs_len, (azk_obs_memo *)&v->games[i].memo);
            }
            for (int s = 0; s < 2; s++) {
                int row = 2 * i + s;
                if (both && row != r) /* its MASK field is 0 (not the decider): NO_OP only */
                    ((uint8_t *)obs)[(size_t)row * (size_t)v->obs_len + (size_t)v->mask_off] = 1;
                else if (obs && !both) write_obs_row(v, cs, obs, row, i, s, row == r, full);
                if (!masks) continue;
                uint8_t *m = masks + (size_t)row * (size_t)na;
                if (row == r) azk_legal_mask(&v->games[i].g, cs, m);
                else noop_mask(m);
            }
        } else {
            if (obs) write_obs_row(v, cs, obs, i, i, v->games[i].agent_seat, r == i, full);
            if (!masks) continue;
            uint8_t *m = masks + (size_t)i * (size_t)na;
            if (r == i) azk_legal_mask(&v->games[i].g, cs, m);
            else noop_mask(m);
        }
    }
}

/* ---- the worker pool --------------------------------------------------------
 * k - 1 threads started once (azk_vec_set_threads) wait on a condition
 * variable; vec_parallel hands them and the caller one job (a function over a
 * range of games) and returns when every chunk of [0, n) has been run.
 * Chunks are claimed from one atomic word that holds the job's generation
 * (high half) and the next chunk (low half), so a worker the OS wakes late
 * (a loaded machine) claims nothing of a job that has moved on, and the
 * caller never waits for a worker that has not started: it waits only for
 * chunks claimed and still running. Which thread runs a game never changes
 * what it computes. Workers block every signal (the process's handlers run
 * on the caller's threads). After fork() the child has no workers: the pool
 * is then skipped (the caller runs every chunk). */
/* slot: which thread runs the chunk (0 the caller, 1 .. k - 1 the workers): an index into per-thread
 * scratch (azk_vec_policy_opponent's workspace); what a job computes never depends on it. */
typedef void (*vec_job_fn)(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot);

struct vec_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    int workers;            /* threads started: k - 1 */
    int stop;
    _Atomic uint32_t gen;   /* bumped once per job (under mu; read without it by a spinning worker) */
    pid_t pid;              /* the process that started the workers */
    /* the current job (written under mu with gen) */
    vec_job_fn fn;
    azk_vec *v;
    const azk_cardset *cs;
    void *arg;
    int chunk, nchunks;
    _Atomic uint64_t claim; /* gen << 32 | next chunk */
    atomic_int finished;    /* chunks of the current job run to the end */
    atomic_int next_slot;   /* the workers' slots are handed out at their start: 1, 2, ... */
    pthread_t th[AZK_VEC_MAX_THREADS];
};

/* Run chunks of job `gen` until none is left (or the job is another). */
static void pool_run_chunks(struct vec_pool *p, uint32_t gen, vec_job_fn fn, azk_vec *v, const azk_cardset *cs,
                            void *arg, int chunk, int nchunks, int slot) {
    uint64_t x = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(x >> 32) != gen || (int)(uint32_t)x >= nchunks) return;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &x, x + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue; /* x reloaded */
        int lo = (int)(uint32_t)x * chunk, hi = lo + chunk < v->n ? lo + chunk : v->n;
        fn(v, cs, arg, lo, hi, slot);
        if (atomic_fetch_add_explicit(&p->finished, 1, memory_order_acq_rel) + 1 == nchunks) {
            pthread_mutex_lock(&p->mu); /* the caller checks `finished` under mu: no lost wake-up */
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
        x = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

/* Spin, then sleep: a step posts two jobs microseconds apart (its phases; and a caller stepping in a
 * loop posts the next step soon after), while a thread asleep on a condition variable wakes only
 * after the kernel schedules it, tens of microseconds of an idle core per job. So a thread that
 * waits first polls for up to AZK_VEC_SPIN_NS, then sleeps; the bound keeps the CPU it burns
 * when nothing follows (a caller between batches) to that much per job. */
#define AZK_VEC_SPIN_NS 50000

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Poll until done(p, x) or AZK_VEC_SPIN_NS passed; returns done's last answer. */
static int spin_until(int (*done)(struct vec_pool *, uint32_t), struct vec_pool *p, uint32_t x) {
    int64_t t0 = 0;
    for (int i = 0;; i++) {
        if (done(p, x)) return 1;
        cpu_relax();
        if ((i & 63) == 63) {
            int64_t t = now_ns();
            if (!t0)
                t0 = t;
            else if (t - t0 > AZK_VEC_SPIN_NS)
                return done(p, x);
        }
    }
}

static int new_job(struct vec_pool *p, uint32_t seen) {
    return atomic_load_explicit(&p->gen, memory_order_acquire) != seen;
}

static int all_finished(struct vec_pool *p, uint32_t nchunks) {
    return atomic_load_explicit(&p->finished, memory_order_acquire) >= (int)nchunks;
}

static void *pool_worker(void *arg) {
    struct vec_pool *p = arg;
    uint32_t seen = 0;
    int slot = atomic_fetch_add(&p->next_slot, 1) + 1;
    for (;;) {
        spin_until(new_job, p, seen); /* a stop bumps no job: it is seen below, after the spin */
        pthread_mutex_lock(&p->mu);
        while (!p->stop && atomic_load_explicit(&p->gen, memory_order_relaxed) == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->stop) break;
        seen = atomic_load_explicit(&p->gen, memory_order_relaxed);
        vec_job_fn fn = p->fn;
        azk_vec *v = p->v;
        const azk_cardset *cs = p->cs;
        void *job = p->arg;
        int chunk = p->chunk, nchunks = p->nchunks;
        pthread_mutex_unlock(&p->mu);
        pool_run_chunks(p, seen, fn, v, cs, job, chunk, nchunks, slot);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* fn over every game [0, n): by the pool, or in one call without one. */
static void vec_parallel(azk_vec *v, const azk_cardset *cs, vec_job_fn fn, void *arg) {
    struct vec_pool *p = v->pool;
    if (!p || p->pid != getpid()) {
        fn(v, cs, arg, 0, v->n, 0);
        return;
    }
    int nchunks = (v->n + p->chunk - 1) / p->chunk;
    pthread_mutex_lock(&p->mu);
    uint32_t gen = atomic_load_explicit(&p->gen, memory_order_relaxed) + 1;
    p->fn = fn;
    p->v = v;
    p->cs = cs;
    p->arg = arg;
    p->nchunks = nchunks;
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    atomic_store_explicit(&p->claim, (uint64_t)gen << 32, memory_order_release);
    /* published last: a spinning worker that sees the new gen takes the mutex, so it reads the job
     * above only after this unlock */
    atomic_store_explicit(&p->gen, gen, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    pool_run_chunks(p, gen, fn, v, cs, arg, p->chunk, nchunks, 0);
    if (spin_until(all_finished, p, (uint32_t)nchunks)) return;
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->finished, memory_order_acquire) < nchunks) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void pool_stop(struct vec_pool *p) {
    if (!p) return;
    if (p->pid == getpid()) {
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
        for (int t = 0; t < p->workers; t++) pthread_join(p->th[t], NULL);
    } /* else: a forked child; its parent's workers do not exist here */
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

azk_status azk_vec_set_threads(azk_vec *v, int k) {
    if (!v || k < 1 || k > AZK_VEC_MAX_THREADS) return AZK_ERR_ARG;
    if ((v->pool ? v->pool->workers + 1 : 1) == k) return AZK_OK;
    pool_stop(v->pool);
    v->pool = NULL;
    if (k == 1) return AZK_OK;
    struct vec_pool *p = calloc(1, sizeof *p);
    if (!p) return AZK_ERR_LIMIT;
    if (pthread_mutex_init(&p->mu, NULL) || pthread_cond_init(&p->go, NULL) || pthread_cond_init(&p->done, NULL)) {
        free(p); /* cannot happen with default attributes on Linux */
        return AZK_ERR_LIMIT;
    }
    p->pid = getpid();
    /* chunks: about 8 per thread, so a delayed thread holds up little */
    p->chunk = v->n / (8 * k) > 1 ? v->n / (8 * k) : 1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited by the workers */
    for (int t = 0; t < k - 1; t++) {
        if (pthread_create(&p->th[t], NULL, pool_worker, p) != 0) break;
        p->workers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (p->workers != k - 1) { /* out of threads: stop those started, stay single-threaded */
        pool_stop(p);
        return AZK_ERR_LIMIT;
    }
    v->pool = p;
    return AZK_OK;
}

int azk_vec_threads(const azk_vec *v) {
    return !v ? -1 : v->pool ? v->pool->workers + 1 : 1;
}

struct out_job {
    void *obs;
    uint8_t *masks;
    int how;
};

static void job_outputs(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    struct out_job *j = arg;
    write_outputs(v, cs, j->obs, j->masks, j->how, lo, hi);
}

azk_status azk_vec_observe(const azk_vec *v, const azk_cardset *cs, void *obs, uint8_t *masks, int32_t *players) {
    if (!v || !cs) return AZK_ERR_ARG;
    struct out_job j = {obs, masks, 0};
    if (obs || masks) vec_parallel((azk_vec *)v, cs, job_outputs, &j); /* the pool only: the games are read */
    if (players)
        for (int r = 0; r < azk_vec_rows(v); r++) {
            int i = v->mode == AZK_VEC_SELF ? r / 2 : r;
            players[r] = acting_row(v, i) == r; /* 1 where this row's action is applied */
        }
    return AZK_OK;
}

azk_status azk_vec_acting(const azk_vec *v, uint8_t *acting) {
    if (!v || !acting) return AZK_ERR_ARG;
    for (int r = 0; r < azk_vec_rows(v); r++)
        acting[r] = (uint8_t)(acting_row(v, v->mode == AZK_VEC_SELF ? r / 2 : r) == r);
    return AZK_OK;
}

/* Log entries (floats, summed until azk_vec_log drains them) for an episode
 * won by seat w (-1: none) with result res. */
static void log_episode(azk_vec *v, const struct azk_vec_game *e, int w, int res) {
    float *L = v->log;
    L[AZK_VLOG_EPISODES] += 1.0f;
    L[AZK_VLOG_LENGTH] += (float)azk_decisions(&e->g);
    if (res == AZK_RES_DRAW) L[AZK_VLOG_DRAWS] += 1.0f;
    if (res == AZK_RES_TRUNCATED) L[AZK_VLOG_TRUNCATED] += 1.0f;
    if (w == 0) L[AZK_VLOG_WINS_SEAT0] += 1.0f;
    if (w == 1) L[AZK_VLOG_WINS_SEAT1] += 1.0f;
    if (v->mode != AZK_VEC_SELF && w >= 0) {
        L[w == e->agent_seat ? AZK_VLOG_AGENT_WINS : AZK_VLOG_AGENT_LOSSES] += 1.0f;
        if (w == e->agent_seat) L[e->agent_seat ? AZK_VLOG_AGENT_WINS_SEAT1 : AZK_VLOG_AGENT_WINS_SEAT0] += 1.0f;
    }
    if (v->mode != AZK_VEC_SELF) L[e->agent_seat ? AZK_VLOG_AGENT_GAMES_SEAT1 : AZK_VLOG_AGENT_GAMES_SEAT0] += 1.0f;
    /* by deck: in self-play both seats' decks; otherwise the agent's deck */
    for (int s = 0; s < 2; s++) {
        if (v->mode != AZK_VEC_SELF && s != e->agent_seat) continue;
        L[AZK_VLOG_DECK_GAMES + e->deck[s]] += 1.0f;
        if (w == s) L[AZK_VLOG_DECK_WINS + e->deck[s]] += 1.0f;
    }
}
_Static_assert((int)AZK_VEC_LOG_DECKS == AZK_MAX_DECKS, "the log has an entry per deck of a card set");

/* One call: opp = 0 applies the acting rows' actions (actions[rows]),
 * opp = 1 the pending games' opponent actions (actions[n]). Three phases:
 * (1, per game) apply the action and play the bots on, zero the game's
 * rows, note an ended episode and write its rewards and flags; (2, in game
 * order, one thread) log each ended episode and give its slot the next
 * episode number; (3, per game) begin those episodes and write the outputs.
 * One thread runs the three phases game by game; a pool runs 1 and 3 in
 * parallel, 2 in between on the caller: the same numbers either way. */
struct step_job {
    int opp, how;
    const int32_t *actions;
    void *obs;
    uint8_t *masks;
    float *rewards;
    uint8_t *terminals, *truncations;
};

static void step_apply(azk_vec *v, const azk_cardset *cs, const struct step_job *j, int i) {
    struct azk_vec_game *e = &v->games[i];
    int r = j->opp ? (opp_pending(v, i) ? i : -1) : acting_row(v, i);
    e->touched = r >= 0;
    e->ended = 0;
    int r0 = v->mode == AZK_VEC_SELF ? 2 * i : i, nr = v->mode == AZK_VEC_SELF ? 2 : 1;
    for (int k = r0; k < r0 + nr; k++) {
        j->rewards[k] = 0.0f;
        j->terminals[k] = 0;
        j->truncations[k] = 0;
    }
    if (r < 0) return;
    int w, res;
    if (v->illegal == AZK_VEC_ILLEGAL_LOSE && !azk_is_legal(&e->g, cs, j->actions[r])) {
        w = 1 - azk_current_player(&e->g); /* the chooser loses; the game is not touched */
        res = w == 0 ? AZK_RES_WIN_P0 : AZK_RES_WIN_P1;
        e->ended = 2;
    } else {
        azk_step(&e->g, cs, j->actions[r]);
        if (!j->opp) e->steps++;
        if (v->mode == AZK_VEC_BOT) vec_bot_moves(v, cs, e);
        if (!azk_is_terminal(&e->g)) return;
        w = azk_winner(&e->g);
        res = azk_result(&e->g);
        e->ended = 1;
    }
    e->end_w = (int8_t)w;
    e->end_res = (uint8_t)res;
    /* the episode ended: rewards from each row's seat, flags */
    int trunc = res == AZK_RES_TRUNCATED;
    for (int k = 0; k < nr; k++) {
        int seat = v->mode == AZK_VEC_SELF ? k : e->agent_seat;
        j->rewards[r0 + k] = w < 0 ? 0.0f : (w == seat ? 1.0f : -1.0f);
        j->terminals[r0 + k] = (uint8_t)!trunc;
        j->truncations[r0 + k] = (uint8_t)trunc;
    }
}

/* phase 2: the shared counters, in game order */
static void step_count(azk_vec *v, int i) {
    struct azk_vec_game *e = &v->games[i];
    if (!e->ended) return;
    if (e->ended == 2) v->log[AZK_VLOG_ILLEGAL] += 1.0f;
    log_episode(v, e, e->end_w, e->end_res);
    e->episode = v->next_episode++; /* begun in phase 3 */
}

static void step_begin(azk_vec *v, const azk_cardset *cs, int i) {
    struct azk_vec_game *e = &v->games[i];
    if (!e->ended) return;
    vec_begin_episode(v, cs, i, e->episode);
    if (v->mode == AZK_VEC_BOT) vec_bot_moves(v, cs, e);
}

static void job_apply(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    for (int i = lo; i < hi; i++) step_apply(v, cs, arg, i);
}

static void job_begin(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    const struct step_job *j = arg;
    for (int i = lo; i < hi; i++) step_begin(v, cs, i);
    write_outputs(v, cs, j->obs, j->masks, j->how, lo, hi);
}

/* The serial passes of a step (the legality check before any game moves; with a pool, the episode
 * counts between its phases, while the workers wait) read a few bytes of every game; consecutive
 * games are ~4 KB apart, each on its own page, where the hardware prefetcher does not follow, so a
 * pass would wait on one cache miss per game in turn once the games outgrow the cache. The lines a
 * game AZK_VEC_AHEAD further on will need are asked for while this one is read (bench/README.md,
 * "VecGame's worker pool", has the measurement: within its noise). */
#define AZK_VEC_AHEAD 8

static inline void prefetch_check(const azk_vec *v, int i) {
    const struct azk_vec_game *e = &v->games[i];
    __builtin_prefetch(&e->g.phase);
    __builtin_prefetch(&e->g.prompt.chooser);
    __builtin_prefetch(&e->agent_seat);
    for (int w = 0; w < AZK_LEGAL_WORDS; w += 8) __builtin_prefetch(&e->g.legal[w]);
}

static azk_status vec_step(azk_vec *v, const azk_cardset *cs, int opp, const int32_t *actions, void *obs,
                           uint8_t *masks, float *rewards, uint8_t *terminals, uint8_t *truncations, int *bad_row) {
    if (!v || !cs || !actions || !rewards || !terminals || !truncations) return AZK_ERR_ARG;
    /* all or nothing: every applied action must be legal first */
    if (v->illegal == AZK_VEC_ILLEGAL_ERROR)
        for (int i = 0; i < v->n; i++) {
            if (i + AZK_VEC_AHEAD < v->n) prefetch_check(v, i + AZK_VEC_AHEAD);
            int r = opp ? (opp_pending(v, i) ? i : -1) : acting_row(v, i);
            if (r >= 0 && !azk_is_legal(&v->games[i].g, cs, actions[r])) {
                if (bad_row) *bad_row = r;
                return AZK_ILLEGAL;
            }
        }
    struct step_job j = {opp, v->mode == AZK_VEC_POLICY ? 3 : 2, actions, obs, masks, rewards, terminals,
                         truncations};
    if (!v->pool) { /* one thread: the phases game by game, as fast as before the pool */
        for (int i = 0; i < v->n; i++) {
            step_apply(v, cs, &j, i);
            step_count(v, i);
            step_begin(v, cs, i);
        }
        write_outputs(v, cs, obs, masks, j.how, 0, v->n);
        return AZK_OK;
    }
    vec_parallel(v, cs, job_apply, &j);
    for (int i = 0; i < v->n; i++) {
        if (i + AZK_VEC_AHEAD < v->n) __builtin_prefetch(&v->games[i + AZK_VEC_AHEAD].ended);
        step_count(v, i);
    }
    vec_parallel(v, cs, job_begin, &j);
    return AZK_OK;
}

azk_status azk_vec_step(azk_vec *v, const azk_cardset *cs, const int32_t *actions, void *obs, uint8_t *masks,
                        float *rewards, uint8_t *terminals, uint8_t *truncations, int *bad_row) {
    return vec_step(v, cs, 0, actions, obs, masks, rewards, terminals, truncations, bad_row);
}

azk_status azk_vec_step_opponent(azk_vec *v, const azk_cardset *cs, const int32_t *opp_actions, void *obs,
                                 uint8_t *masks, float *rewards, uint8_t *terminals, uint8_t *truncations,
                                 int *bad_row) {
    if (!v || v->mode != AZK_VEC_POLICY) return AZK_ERR_ARG;
    return vec_step(v, cs, 1, opp_actions, obs, masks, rewards, terminals, truncations, bad_row);
}

struct bot_job {
    int kind;
    int32_t *out;
};

static void job_bot(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    const struct bot_job *j = arg;
    for (int i = lo; i < hi; i++) {
        struct azk_vec_game *e = &v->games[i];
        int a = opp_pending(v, i) ? azk_bot_act(&e->g, cs, j->kind, e->bot_rng) : 0;
        j->out[i] = a < 0 ? 0 : a; /* cannot be < 0: a pending game has a legal action */
    }
}

azk_status azk_vec_bot_opponent(azk_vec *v, const azk_cardset *cs, int bot_kind, int32_t *opp_actions) {
    if (!v || !cs || !opp_actions || v->mode != AZK_VEC_POLICY || bot_kind < 0 || bot_kind >= azk_bot_num_kinds())
        return AZK_ERR_ARG;
    struct bot_job j = {bot_kind, opp_actions};
    vec_parallel(v, cs, job_bot, &j);
    return AZK_OK;
}

struct pbot_job {
    const azk_policy *p;
    const azk_pbot_params *pp;
    int32_t *out;
    uint8_t *work;     /* slot k's workspace at work + k * per */
    size_t per;
    atomic_int status; /* the first failure (minus an azk_status), 0 while none */
};

/* A policy bot's answer per pending game, from that game's bot stream, on the caller's or a worker's
 * thread (each in its own workspace slot). */
static void job_pbot(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    struct pbot_job *j = arg;
    void *w = j->work + (size_t)slot * j->per;
    for (int i = lo; i < hi; i++) {
        struct azk_vec_game *e = &v->games[i];
        int a = opp_pending(v, i) ? azk_pbot_act(&e->g, cs, j->p, j->pp, e->bot_rng, w, j->per) : 0;
        if (a < 0) {
            int none = 0;
            atomic_compare_exchange_strong(&j->status, &none, -a);
            a = 0;
        }
        j->out[i] = a;
    }
}

size_t azk_vec_pbot_work_size(const azk_vec *v, const azk_policy *p, const azk_pbot_params *pp) {
    size_t per = azk_pbot_work_size(p, pp);
    return v && per ? (size_t)azk_vec_threads(v) * per : 0;
}

azk_status azk_vec_pbot_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p, const azk_pbot_params *pp,
                                 int32_t *opp_actions, void *work, size_t work_len) {
    if (!v || !cs || !p || !pp || !opp_actions || v->mode != AZK_VEC_POLICY || !work) return AZK_ERR_ARG;
    size_t need = azk_vec_pbot_work_size(v, p, pp);
    if (!need || work_len < need) return AZK_ERR_ARG;
    struct pbot_job j = {p, pp, opp_actions, work, azk_pbot_work_size(p, pp), 0};
    vec_parallel(v, cs, job_pbot, &j);
    return (azk_status)atomic_load(&j.status);
}

struct policy_job {
    const azk_policy *p;
    const uint8_t *obs;
    const uint64_t *keys;
    uint64_t seed;
    int greedy;
    int32_t *out;
    uint8_t *work;     /* slot k's workspace at work + k * per (the caller's, azk_vec_policy_work_size) */
    size_t per;
    atomic_int status; /* the first failure (azk_policy_status), 0 while none */
};

/* One forward + keyed sample per pending game, on the caller's or a worker's thread: a loaded
 * policy is read-only and each thread computes in its own slot of the workspace. */
static void job_policy(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)cs;
    struct policy_job *j = arg;
    void *w = j->work + (size_t)slot * j->per;
    for (int i = lo; i < hi; i++) {
        j->out[i] = 0;
        if (!opp_pending(v, i)) continue;
        double u = azk_keyed_uniform(j->seed, j->keys[i]);
        azk_policy_status st =
            azk_policy_act_ws(j->p, j->obs + (size_t)i * (size_t)v->obs_len, 1, (size_t)v->obs_len,
                              j->greedy ? NULL : &u, &j->out[i], NULL, NULL, w, j->per);
        if (st != AZK_POLICY_OK) {
            int none = 0;
            atomic_compare_exchange_strong(&j->status, &none, (int)st);
            j->out[i] = 0;
        }
    }
}

size_t azk_vec_policy_work_size(const azk_vec *v, const azk_policy *p) {
    if (!v || !p) return 0;
    return (size_t)azk_vec_threads(v) * azk_policy_work_size(p); /* a slot per thread (vec_job_fn) */
}

azk_status azk_vec_policy_opponent(azk_vec *v, const azk_cardset *cs, const azk_policy *p, const uint8_t *opp_obs,
                                   uint64_t seed, const uint64_t *keys, int greedy, int32_t *opp_actions,
                                   void *work, size_t work_len, int *policy_status) {
    if (policy_status) *policy_status = 0;
    if (!v || !cs || !p || !opp_obs || !keys || !opp_actions || v->mode != AZK_VEC_POLICY || !work ||
        work_len < azk_vec_policy_work_size(v, p))
        return AZK_ERR_ARG;
    struct policy_job j = {p, opp_obs, keys, seed, greedy != 0, opp_actions, work, azk_policy_work_size(p), 0};
    vec_parallel(v, cs, job_policy, &j);
    int st = atomic_load(&j.status);
    if (policy_status) *policy_status = st;
    return st ? AZK_ERR_ARG : AZK_OK;
}

struct opp_job {
    void *obs;
    uint8_t *masks, *pending;
};

static void job_observe_opponent(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    const struct opp_job *j = arg;
    int na = AZK_NUM_ACTIONS_;
    for (int i = lo; i < hi; i++) {
        int p = opp_pending(v, i);
        if (j->pending) j->pending[i] = (uint8_t)p;
        if (!v->games[i].touched) continue;
        const azk_game *g = &v->games[i].g;
        int seat = 1 - v->games[i].agent_seat;
        if (p && j->obs) {
            azk_observe_memo(g, cs, seat, (uint8_t *)j->obs + (size_t)i * (size_t)v->obs_len, &v->games[i].memo);
        }
        if (j->masks) {
            uint8_t *m = j->masks + (size_t)i * (size_t)na;
            if (p) azk_legal_mask(g, cs, m);
            else noop_mask(m);
        }
    }
}

/* The pending opponent decisions; rows of games the last call did not step
 * already hold what they would be written. */
azk_status azk_vec_observe_opponent(const azk_vec *v, const azk_cardset *cs, void *opp_obs, uint8_t *opp_masks,
                                    uint8_t *pending) {
    if (!v || !cs || v->mode != AZK_VEC_POLICY) return AZK_ERR_ARG;
    struct opp_job j = {opp_obs, opp_masks, pending};
    vec_parallel((azk_vec *)v, cs, job_observe_opponent, &j); /* the pool only: the games are read */
    return AZK_OK;
}

static void job_observe_others(azk_vec *v, const azk_cardset *cs, void *arg, int lo, int hi, int slot) {
    (void)slot;
    uint8_t *out = arg;
    for (int i = lo; i < hi; i++) { /* the memo is a cache (write_outputs): the same bytes as azk_observe */
        struct azk_vec_game *e = &v->games[i];
        azk_observe_memo(&e->g, cs, 1 - e->agent_seat, out + (size_t)i * (size_t)v->obs_len, &e->memo);
    }
}

azk_status azk_vec_observe_others(const azk_vec *v, const azk_cardset *cs, uint8_t *out) {
    if (!v || !cs || !out || v->mode == AZK_VEC_SELF) return AZK_ERR_ARG;
    vec_parallel((azk_vec *)v, cs, job_observe_others, out); /* on the vector's threads, as observe_opponent */
    return AZK_OK;
}

int azk_vec_log(azk_vec *v, float *out, int cap) {
    if (!v || !out || cap < AZK_VEC_LOG_LEN) return -1;
    memcpy(out, v->log, sizeof v->log);
    memset(v->log, 0, sizeof v->log);
    return AZK_VEC_LOG_LEN;
}

const azk_game *azk_vec_game(const azk_vec *v, int i) {
    return v && i >= 0 && i < v->n ? &v->games[i].g : NULL;
}

int azk_vec_agent_seat(const azk_vec *v, int i) {
    return v && i >= 0 && i < v->n ? v->games[i].agent_seat : -1;
}

int azk_vec_episode(const azk_vec *v, int i) {
    return v && i >= 0 && i < v->n ? (int)v->games[i].episode : -1;
}

int azk_vec_deck(const azk_vec *v, int i, int seat) {
    return v && i >= 0 && i < v->n && (seat == 0 || seat == 1) ? v->games[i].deck[seat] : -1;
}
