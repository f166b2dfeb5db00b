/* bench.c — the timed C loops of `python -m azuki bench` (azuki/bench.py)
 * behind one call, azk_bench_run (csrc/azuki.h "Benchmarks"), so that the
 * Cython binding holds no benchmark: it fills the arguments and turns the
 * result into a dict.
 *
 * Where it lives: in csrc/ and csrc/sources.mk rather than bench/ (with the
 * stand-alone benchmark programs), because the installed package calls it,
 * and every build and tool that compiles the core reads that one list and
 * copies or compiles csrc/ (setup.py, the Makefile, the cffi test, the
 * recipe builds of tests/test_extending.py, wasm/build.py); a source outside
 * csrc/ breaks those copies. It includes only azuki.h (and rng.h, the
 * header-only pcg32 the binding uses too), so it measures what a caller of
 * the public API gets. The top of csrc/layers.def: nothing calls it.
 *
 * Invariants: the loops are the ones the rows of azuki/bench.py describe,
 * timed with CLOCK_MONOTONIC around the loop (never per call, except the
 * search decisions, timed apart from the greedy self-play between them);
 * every timed result feeds `sink` so the compiler keeps the calls; nothing
 * allocates (the caller's workspace, laid out by bench_layout) or prints. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <string.h>
#include <time.h>

#include "azuki.h"
#include "rng.h"

#define BENCH_ALIGN 64                 /* every workspace piece starts on a cache line */
#define BENCH_COPY_BYTES (64u << 20)   /* memcpy bandwidth: two blocks this size, larger than caches */
#define BENCH_COPIES 8
#define BENCH_MIDGAME_STEPS 40         /* random decisions before the micro-benchmarks' position */
_Static_assert((BENCH_ALIGN & (BENCH_ALIGN - 1)) == 0, "alignment is a power of two");

static double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The workspace's pieces; bench_layout with a NULL base only counts the bytes. */
typedef struct bench_ws {
    azk_game *g, *c;
    uint8_t *buf, *mask, *src, *dst, *act8;
    int32_t *legal, *acting, *actions;
} bench_ws;

static void *piece(uint8_t *base, size_t *off, size_t len) {
    size_t at = (*off + BENCH_ALIGN - 1) & ~(size_t)(BENCH_ALIGN - 1);
    *off = at + len;
    return base ? base + at : NULL;
}

static size_t bench_layout(azk_bench_kind kind, const azk_bench_args *a, uint8_t *base, bench_ws *w) {
    size_t off = 0, na = (size_t)azk_num_actions(), gsz = azk_game_size();
    memset(w, 0, sizeof *w);
    switch (kind) {
    case AZK_BENCH_MICRO:
        w->g = piece(base, &off, gsz);
        w->c = piece(base, &off, gsz);
        w->buf = piece(base, &off, azk_serialized_size());
        w->mask = piece(base, &off, na);
        w->legal = piece(base, &off, na * sizeof(int32_t));
        w->src = piece(base, &off, BENCH_COPY_BYTES);
        w->dst = piece(base, &off, BENCH_COPY_BYTES);
        return off;

    case AZK_BENCH_SEARCH:
        w->g = piece(base, &off, gsz);
        w->legal = piece(base, &off, na * sizeof(int32_t));
        return off;
    case AZK_BENCH_VEC:
        if (a->rows < 1) return 0;
        w->acting = piece(base, &off, (size_t)a->rows * sizeof(int32_t));
        w->actions = piece(base, &off, (size_t)a->rows * sizeof(int32_t));
        w->act8 = piece(base, &off, (size_t)a->rows);
        w->legal = piece(base, &off, na * sizeof(int32_t));
        return off;
    }
    return 0;
}

size_t azk_bench_work_size(azk_bench_kind kind, const azk_bench_args *a) {
    bench_ws w;
    return a ? bench_layout(kind, a, NULL, &w) : 0;
}

#define BENCH_NS(t0, reps) ((bench_now() - (t0)) / (double)(reps) * 1e9)

static void bench_micro(const azk_bench_args *a, bench_ws *w, azk_bench_result *o) {
    const azk_cardset *cs = azk_default_cardset();
    const long long n = a->n, tenth = a->n / 10 + 1; /* deserialize and observe: 10x fewer (slower calls) */
    const int na = azk_num_actions();
    const size_t ssz = azk_serialized_size();
    uint64_t sink = 0, x = 0x9E3779B97F4A7C15ULL;
    double t0 = bench_now();
    for (long long i = 0; i < n; i++) { /* the calibration loop: a fixed integer recurrence */
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        sink += x >> 60;
    }
    o->calibration_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < n; i++) azk_game_init(w->g, cs, a->seed + (uint64_t)i, (int)(i & 1), (int)((i >> 1) & 1));
    o->reset_ns = BENCH_NS(t0, n);
    azk_rng pick;
    azk_rng_seed(&pick, a->seed, 7);
    for (int k = 0; k < BENCH_MIDGAME_STEPS && !azk_is_terminal(w->g); k++) {
        int m = azk_legal_actions(w->g, cs, w->legal, na);
        azk_step(w->g, cs, w->legal[azk_rng_bounded(&pick, (uint32_t)m)]);
    }
    t0 = bench_now();
    for (long long i = 0; i < n; i++) {
        azk_game_clone(w->c, w->g);
        sink += (uint64_t)azk_turn(w->c);
    }
    o->clone_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < n; i++) sink += azk_hash(w->g);
    o->hash_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < n; i++) sink += azk_serialize(w->g, cs, w->buf, ssz);
    o->serialize_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < tenth; i++) sink += (uint64_t)azk_deserialize(w->c, cs, w->buf, ssz);
    o->deserialize_ns = BENCH_NS(t0, tenth);
    t0 = bench_now();
    for (long long i = 0; i < n; i++) sink += (uint64_t)azk_legal_mask(w->g, cs, w->mask);
    o->mask_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < n; i++) sink += (uint64_t)azk_legal_actions(w->g, cs, w->legal, na);
    o->legal_list_ns = BENCH_NS(t0, n);
    t0 = bench_now();
    for (long long i = 0; i < tenth; i++) sink += (uint64_t)azk_observe(w->g, cs, (int)(i & 1), w->src);
    o->observe_ns = BENCH_NS(t0, tenth);
    memset(w->src, 1, BENCH_COPY_BYTES);
    memset(w->dst, 0, BENCH_COPY_BYTES);
    t0 = bench_now();
    for (int k = 0; k < BENCH_COPIES; k++) {
        memcpy(w->dst, w->src, BENCH_COPY_BYTES);
        sink += w->dst[k * 4096];
    }
    o->memcpy_bytes_per_s = (double)BENCH_COPIES * BENCH_COPY_BYTES / (bench_now() - t0);
    o->sink = sink;
}

/* Positions from greedy self-play (every third decision with two or more
 * legal actions outside the mulligan) get one search decision each; only
 * the search decisions are timed. */
static void bench_search(const azk_bench_args *a, bench_ws *w, azk_bench_result *o) {
    const azk_cardset *cs = azk_default_cardset();
    const int na = azk_num_actions();
    uint64_t grng[2], srng[2], gi = 0, sink = 0;
    azk_bot_seed(grng, a->seed);
    azk_bot_seed(srng, a->seed + 1);
    long long done = 0, k = 0;
    double spent = 0.0;
    while (done < a->n) {
        azk_game_init(w->g, cs, a->seed + gi, (int)(gi & 1), (int)((gi >> 1) & 1));
        gi++;
        while (!azk_is_terminal(w->g) && done < a->n) {
            int n = azk_legal_actions(w->g, cs, w->legal, na);
            if (n >= 2 && azk_phase(w->g) != 0 && ++k % 3 == 0) {
                double t0 = bench_now();
                sink += (uint64_t)azk_bot_act_search(w->g, cs, srng, &a->search);
                spent += bench_now() - t0;
                done++;
            }
            azk_step(w->g, cs, azk_bot_act(w->g, cs, AZK_BOT_GREEDY, grng));
        }
    }
    o->seconds = spent;
    o->count = done;
    o->sink = sink;
}

/* out[r] = a uniform choice from the legal list of row r's game where act[r]
 * (else 0): as simulate's random players pick, no mask scan. */
static void pick_rows(const azk_vec *v, const azk_cardset *cs, const uint8_t *act, int32_t *out, int rows,
                      int per_game, int32_t *legal, azk_rng *pick) {
    const int na = azk_num_actions();
    for (int r = 0; r < rows; r++) {
        out[r] = 0;
        if (!act[r]) continue;
        int cnt = azk_legal_actions(azk_vec_game(v, r / per_game), cs, legal, na);
        if (cnt > 0) out[r] = legal[azk_rng_bounded(pick, (uint32_t)cnt)];
    }
}

static void bench_vec(const azk_bench_args *a, bench_ws *w, azk_bench_result *o) {
    azk_rng pick;
    azk_rng_seed(&pick, a->seed, 99);
    long long applied = 0;
    int bad = 0;
    const azk_vec_io *b = &a->io;
    double t0 = bench_now();
    for (long long s = 0; s < a->n; s++) {
        azk_vec_observe(a->vec, a->cs, NULL, NULL, w->acting);
        for (int r = 0; r < a->rows; r++) {
            w->act8[r] = (uint8_t)w->acting[r];
            applied += w->act8[r];
        }
        pick_rows(a->vec, a->cs, w->act8, w->actions, a->rows, a->per_game, w->legal, &pick);
        azk_vec_step(a->vec, a->cs, w->actions, b->obs, b->masks, b->rewards, b->terminals, b->truncations, &bad);
        if (a->policy) {
            azk_vec_observe_opponent(a->vec, a->cs, b->opp_obs, b->opp_masks, b->opp_pending);
            pick_rows(a->vec, a->cs, b->opp_pending, w->actions, a->games, 1, w->legal, &pick);
            azk_vec_step_opponent(a->vec, a->cs, w->actions, b->obs, b->masks, b->rewards, b->terminals,
                                  b->truncations, &bad);
            azk_vec_observe_opponent(a->vec, a->cs, b->opp_obs, b->opp_masks, b->opp_pending);
        }
    }
    o->seconds = bench_now() - t0;
    o->count = applied;
}

azk_status azk_bench_run(azk_bench_kind kind, const azk_bench_args *a, void *work, size_t work_len,
                         azk_bench_result *out) {
    if (!a || !out || a->n < 1 || (int)kind < (int)AZK_BENCH_MICRO || (int)kind > (int)AZK_BENCH_VEC) return AZK_ERR_ARG;
    if (kind == AZK_BENCH_VEC && (!a->vec || !a->cs || a->games < 1 || a->per_game < 1 ||
                                  a->rows != a->games * a->per_game || (a->policy && !a->io.opp_pending)))
        return AZK_ERR_ARG;
    bench_ws w;
    size_t need = bench_layout(kind, a, work, &w);
    if (need > work_len || (need && !work)) return AZK_ERR_ARG;
    memset(out, 0, sizeof *out);
    switch (kind) {
    case AZK_BENCH_MICRO: bench_micro(a, &w, out); break;
    case AZK_BENCH_SEARCH: bench_search(a, &w, out); break;
    case AZK_BENCH_VEC: bench_vec(a, &w, out); break;
    }
    return AZK_OK;
}
