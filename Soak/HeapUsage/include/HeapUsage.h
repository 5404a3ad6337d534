#ifndef COURIER_HEAP_USAGE_H
#define COURIER_HEAP_USAGE_H
#include <stddef.h>

/// Bytes the allocator has handed out and not had back: glibc's mallinfo2 (uordblks + hblkhd).
size_t courier_heap_in_use(void);

#endif
