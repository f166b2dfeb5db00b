/* azk_cardset_env.h — which card set a C test program plays: the embedded
 * default, or the card-set bytes named by $AZK_CARDSET (written by
 * `python -m azuki.convert CARDS.json --bytes FILE`; `make soak
 * CARDS=azuki/data/expansion.json` does both). Used by the soak, the C
 * random-play test, the fuzzers and the engine benchmark, so each runs over
 * any card set, the expansion included. A file that does not load is a
 * hard error (exit 2), never a silent fallback to the default. */
#ifndef AZK_CARDSET_ENV_H
#define AZK_CARDSET_ENV_H

#include <stdio.h>
#include <stdlib.h>

#include "game.h"

static inline const azk_cardset *azk_env_cardset(void) {
    static azk_cardset cs;
    static uint8_t buf[AZK_CARDSET_HEADER_BYTES + sizeof(azk_cardset) + 1];
    static int loaded;
    const char *path = getenv("AZK_CARDSET");
    if (!path || !*path) return azk_default_cardset();
    if (loaded) return &cs;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "AZK_CARDSET=%s: cannot open\n", path);
        exit(2);
    }
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    azk_status st = azk_cardset_load(&cs, buf, n);
    if (st != AZK_OK) {
        fprintf(stderr, "AZK_CARDSET=%s: not a loadable card set (status %d; write one with "
                        "python -m azuki.convert CARDS.json --bytes FILE)\n", path, (int)st);
        exit(2);
    }
    loaded = 1;
    return &cs;
}

/* Deck pairing k of a set with n decks: every ordered pair, mirrors included. */
static inline void azk_env_pairing(const azk_cardset *cs, long long k, int *d0, int *d1) {
    int n = cs->num_decks;
    k %= (long long)n * n;
    *d0 = (int)(k % n);
    *d1 = (int)(k / n);
}

#endif /* AZK_CARDSET_ENV_H */
