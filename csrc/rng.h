/* rng.h — PCG32 (O'Neill, "PCG: A Family of Simple Fast Space-Efficient
 * Statistically Good Algorithms for Random Number Generation", 2014):
 * XSH-RR output on a 64-bit LCG with a per-stream odd increment.
 *
 * Invariants:
 *   - azk_rng is two plain uint64_t: it lives inside the game struct, so
 *     clone (memcpy), hash and serialize cover it with no special case.
 *   - inc is always odd (seeding forces it), which gives a full 2^64 period.
 *   - Seeding follows pcg32_srandom_r exactly, so initstate 42 / initseq 54
 *     reproduces the reference demo: a15c02b7 7b47f409 ba1d3330 ...
 *   - azk_rng_bounded is unbiased (Lemire-free threshold rejection as in the
 *     reference pcg32_boundedrand_r); bound 0 returns 0 and draws nothing.
 *   - azk_rng_shuffle_u8 is Fisher–Yates from the top: for i = n-1 .. 1,
 *     j = bounded(i + 1), swap a[i], a[j]. The golden vectors in
 *     tests/golden/rng_vectors.json pin this order.
 */
#ifndef AZK_RNG_H
#define AZK_RNG_H

#include <stdint.h>

typedef struct azk_rng {
    uint64_t state;
    uint64_t inc;
} azk_rng;

#define AZK_PCG_MULT 6364136223846793005ULL

static inline uint32_t azk_rng_next(azk_rng *r)
{
    uint64_t old = r->state;
    r->state = old * AZK_PCG_MULT + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

static inline void azk_rng_seed(azk_rng *r, uint64_t initstate, uint64_t initseq)
{
    r->state = 0u;
    r->inc = (initseq << 1u) | 1u;
    (void)azk_rng_next(r);
    r->state += initstate;
    (void)azk_rng_next(r);
}

/* Uniform in [0, bound). Rejects the low 2^32 mod bound values so every
 * residue is equally likely (no modulo bias). */
static inline uint32_t azk_rng_bounded(azk_rng *r, uint32_t bound)
{
    if (bound == 0u)
        return 0u;
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t x = azk_rng_next(r);
        if (x >= threshold)
            return x % bound;
    }
}

static inline void azk_rng_shuffle_u8(azk_rng *r, uint8_t *a, uint32_t n)
{
    for (uint32_t i = n; i > 1u; i--) {
        uint32_t j = azk_rng_bounded(r, i);
        uint8_t t = a[i - 1u];
        a[i - 1u] = a[j];
        a[j] = t;
    }
}

#endif /* AZK_RNG_H */
