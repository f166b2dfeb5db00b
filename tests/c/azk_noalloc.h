/* azk_noalloc.h — an allocation counter for C test programs (include it in
 * exactly one .c file of a program).
 *
 * The optimized build defines malloc/calloc/realloc/free itself, forwarding
 * to glibc's __libc_* functions, so every allocation in the process is
 * counted in n_alloc. Under AddressSanitizer the allocator belongs to ASan:
 * nothing is interposed and nothing is counted (the optimized build is the
 * proof; AZK_INTERPOSE says which applies). */
#ifndef AZK_NOALLOC_H
#define AZK_NOALLOC_H

#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define AZK_INTERPOSE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AZK_INTERPOSE 0
#endif
#endif
#ifndef AZK_INTERPOSE
#define AZK_INTERPOSE 1
#endif

static long long n_alloc = 0;

#if AZK_INTERPOSE
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
void *malloc(size_t n) { n_alloc++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { n_alloc++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { n_alloc++; return __libc_realloc(p, n); }
void free(void *p) { if (p) n_alloc++; __libc_free(p); }
#endif

#endif /* AZK_NOALLOC_H */
