/* azk_test.h — a minimal test harness for the C test programs.
 *
 * Each program defines test functions, runs them with AZK_RUN(fn), and ends
 * with `return azk_test_summary();`, which prints "N passed, N failed" (the
 * line CI greps) and returns non-zero when anything failed. A test counts as
 * passed when none of its AZK_CHECKs failed.
 */
#ifndef AZK_TEST_H
#define AZK_TEST_H

#include <stdio.h>
#include <string.h>

static int azk_test_passed_ = 0;
static int azk_test_failed_ = 0;
static int azk_test_current_failed_ = 0;

#define AZK_CHECK(cond)                                                        \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                    \
            azk_test_current_failed_ = 1;                                      \
        }                                                                      \
    } while (0)

#define AZK_CHECK_EQ_U64(a, b)                                                 \
    do {                                                                       \
        unsigned long long va_ = (unsigned long long)(a);                      \
        unsigned long long vb_ = (unsigned long long)(b);                      \
        if (va_ != vb_) {                                                      \
            fprintf(stderr, "%s:%d: %s == %s failed: %llu != %llu\n",          \
                    __FILE__, __LINE__, #a, #b, va_, vb_);                     \
            azk_test_current_failed_ = 1;                                      \
        }                                                                      \
    } while (0)

#define AZK_RUN(fn)                                                            \
    do {                                                                       \
        azk_test_current_failed_ = 0;                                          \
        fn();                                                                  \
        if (azk_test_current_failed_) {                                        \
            azk_test_failed_++;                                                \
            fprintf(stderr, "FAIL %s\n", #fn);                                 \
        } else {                                                               \
            azk_test_passed_++;                                                \
        }                                                                      \
    } while (0)

static inline int azk_test_summary(void) {
    printf("%d passed, %d failed\n", azk_test_passed_, azk_test_failed_);
    return azk_test_failed_ ? 1 : 0;
}

#endif /* AZK_TEST_H */
