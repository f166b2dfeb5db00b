/* test_noalloc.c — the step path never allocates (issue: reliability §5).
 *
 * The program defines malloc/calloc/realloc/free itself (forwarding to
 * glibc's __libc_* functions), so every allocation in the process goes
 * through a counter. After the game is created, a million decisions of
 * legal-list + mask + step + hash + clone + serialize + deserialize +
 * events + render must not allocate or free once.
 *
 * Under AddressSanitizer the allocator belongs to ASan, so the sanitizer
 * build runs the same steps without interposing (the count is not checked
 * there; the optimized build is the proof). */
#include <stdlib.h>

#include "azk_test.h"
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

int main(void) {
    AZK_RUN(test_interposition_works);
    AZK_RUN(test_step_path_does_not_allocate);
    return azk_test_summary();
}
