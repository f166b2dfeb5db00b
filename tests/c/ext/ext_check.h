/* ext_check.h — the fail-fast check of the programs tests/test_extending.py
 * builds (test_extension.c, test_recipe_*.c): the first failed CHECK prints
 * where and returns 1 from main, so a broken recipe never runs on into a
 * state the next check would crash on. */
#ifndef AZK_EXT_CHECK_H
#define AZK_EXT_CHECK_H

#include <stdio.h>

#define CHECK(c)                                                               \
    do {                                                                       \
        if (!(c)) {                                                            \
            printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);              \
            return 1;                                                          \
        }                                                                      \
    } while (0)

#endif
