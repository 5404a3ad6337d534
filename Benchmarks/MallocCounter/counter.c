// Counting wrappers around glibc's allocator, for the decoder benchmark's "allocations per
// document". An executable's definitions of malloc and friends take precedence over libc's for
// every library in the process; each wrapper counts and forwards to glibc's own entry point.
#include "MallocCounter.h"
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic unsigned long long allocations;
static _Atomic unsigned long long malloc_calls;

static inline void count_one(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

// An allocation glibc serves through malloc: counted in both totals.
static inline void count_malloc(void) {
    count_one();
    atomic_fetch_add_explicit(&malloc_calls, 1, memory_order_relaxed);
}

unsigned long long courier_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

unsigned long long courier_malloc_count(void) { return atomic_load_explicit(&malloc_calls, memory_order_relaxed); }

void *malloc(size_t size) {
    count_malloc();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

// glibc serves a realloc of NULL through malloc, so callgrind counts it as a call to malloc too.
void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) count_malloc();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}
