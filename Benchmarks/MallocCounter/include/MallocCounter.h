#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

/// The number of heap allocations (malloc, calloc, realloc of NULL, aligned allocations) the
/// process has made since it started. Linking this target replaces the C library's allocation
/// entry points with counting wrappers.
unsigned long long courier_allocation_count(void);

#endif
