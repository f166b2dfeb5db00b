/* bench_util.h — what the C benchmarks share: a monotonic clock and the
 * median of a run's figures. Header-only (static functions): each benchmark
 * is one translation unit linked against the core. */
#ifndef AZK_BENCH_UTIL_H
#define AZK_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

static inline double bench_clock(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static inline double now(void) { return bench_clock(CLOCK_MONOTONIC); }

static int bench_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place. */
static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
