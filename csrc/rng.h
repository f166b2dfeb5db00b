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
 *   - Seed streams: azk_splitmix64_of is splitmix64, the project's one seed
 *     mixer (exported as azk_splitmix64), and azk_weyl(k) the offset
 *     golden * (k + 1) of stream k that both derived seeds start from (the
 *     bots' azk_bot_seed_for, VecGame's azk_vec_bot_seed). They live here,
 *     below every file that seeds, so no caller reaches up for them
 *     (csrc/layers.def).
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

/* splitmix64's increment, 2^64 / golden ratio (Steele, Lea, Flood, "Fast
 * Splittable Pseudorandom Number Generators", 2014). */
#define AZK_GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL

/* Stream k's offset from a run's seed: k + 1 golden steps (a Weyl sequence,
 * distinct for every k below 2^64). azk_bot_seed_for mixes seed + offset
 * (splitmix64); azk_vec_bot_seed is seed ^ offset, unmixed, as it has been
 * since VecGame's first bot (its episodes' bot streams and the results
 * recorded with them stay; tests/test_vecgame.py pins both formulas). */
static inline uint64_t azk_weyl(uint64_t k)
{
    return AZK_GOLDEN_GAMMA * (k + 1u);
}

/* splitmix64's finalizer (Stafford's variant 13): splitmix64(z) is
 * azk_mix64(z + AZK_GOLDEN_GAMMA). */
static inline uint64_t azk_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* splitmix64 of z, the project's one seed mixer (exported as azk_splitmix64;
 * azk_keyed_uniform and the search's per-simulation seeds use it too). */
static inline uint64_t azk_splitmix64_of(uint64_t z)
{
    return azk_mix64(z + AZK_GOLDEN_GAMMA);
}

#endif /* AZK_RNG_H */
