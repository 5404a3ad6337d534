#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// The number of heap allocations (malloc, calloc, realloc of NULL, aligned allocations) the
/// process has made since it started. Linking this target replaces the C library's allocation
/// entry points with counting wrappers.
unsigned long long courier_allocation_count(void);

/// The number of allocations served by `malloc` since the process started: calls to `malloc`
/// and reallocations of NULL (glibc hands those to `malloc`), not `calloc` or the aligned forms.
/// This is what callgrind reports as calls to `malloc`, the count issue 21's figures were given in.
unsigned long long courier_malloc_count(void);

#endif
