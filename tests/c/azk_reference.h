/* azk_reference.h — the C tests' one reader of the shipped reference policy
 * (azuki/data/reference/reference.azkw, read from the repository root, where
 * make ctest / asan run) and of whole files. Header-only, like azk_test.h.
 */
#ifndef AZK_REFERENCE_H
#define AZK_REFERENCE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "azuki.h"

#define AZK_TEST_REFERENCE_AZKW "azuki/data/reference/reference.azkw"

/* The file's bytes (malloc'd; *n its length), or NULL when it cannot be read. */
static inline uint8_t *azk_test_file_bytes(const char *path, long *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)*n);
    if (b && fread(b, 1, (size_t)*n, f) != (size_t)*n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* The reference policy loaded (free with azk_policy_free), or NULL when the
 * file is missing or refused (the caller AZK_CHECKs the result). */
static inline azk_policy *azk_test_reference_policy(void) {
    long n = 0;
    uint8_t *b = azk_test_file_bytes(AZK_TEST_REFERENCE_AZKW, &n);
    if (!b) return NULL;
    azk_policy *p = NULL;
    if (azk_policy_load(b, (size_t)n, &p, NULL, 0) != AZK_POLICY_OK) p = NULL;
    free(b);
    return p;
}

#endif /* AZK_REFERENCE_H */
