#include "CCurlShim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * libcurl's memory, kept by the thread that frees it.
 *
 * For each request libcurl allocates and frees some forty small blocks on the engine thread: its
 * request state, the connection it looks up (then drops for the one it reuses), header lines,
 * URL parts. In a process with more than one thread, each of them that glibc's per-thread cache
 * does not serve takes the arena's lock, and calloc, which libcurl uses for most of them, never
 * uses that cache at all. Measured in W2 (64 requests in flight), malloc, calloc and free took
 * twice the time on Courier's engine thread that they take in single-threaded raw libcurl.
 *
 * These functions, installed with curl_global_init_mem, keep freed blocks in lists of the
 * freeing thread, by size class: no lock and no atomic operation. Each block has a 16-byte
 * prefix holding its class (or, past the largest class, its size), so a block may be freed on
 * any thread. A thread keeps at most 1 MiB of blocks of up to 1 KiB and 4 MiB of larger ones;
 * what does not fit goes back to free(), and so do a thread's lists when it exits.
 *
 * They serve libcurl only (Courier's own memory is the Swift runtime's). libcurl takes them when
 * it is first initialized; when the process initialized libcurl before Courier did, libcurl
 * keeps its functions and Courier's are not used. Under the sanitizers they are not installed:
 * AddressSanitizer then watches every libcurl block, and ThreadSanitizer sees libcurl's memory
 * only through the C library's functions, which it understands. With these functions installed,
 * it read URLSession's use of them as races: URLSession (libcurl's other user on Linux) moves its
 * work between libdispatch's threads, whose synchronization ThreadSanitizer does not see, so the
 * prefix a block's free reads on one thread, written when the block was allocated on another,
 * looked unsynchronized (docs/reliability.md).
 */

enum {
    prefix_size = 16,
    /* Classes 1...64: 16-byte steps up to 1 KiB. 65...88: four steps in each doubling above
       1 KiB, up to 64 KiB (1.25, 1.5, 1.75, 2, 2.5, 3, ... KiB). */
    small_classes = 64,
    class_count = small_classes + 24,
    large_class = 0xFFFF,
};

typedef struct {
    uint32_t size_class;
    /* The bytes of the class (0 past the largest), so that a free need not work them out. */
    uint32_t class_size;
    uint64_t large_size;
} block_prefix;

typedef struct free_block {
    struct free_block *next;
} free_block;

enum { lists_fresh = 0, lists_registered = 1, lists_gone = 2 };

typedef struct {
    free_block *head[class_count + 1];
    /* Bytes kept, in blocks of up to 1 KiB ([0]) and larger ones ([1]). */
    size_t kept[2];
    int state;
} thread_lists;

static const size_t budget[2] = {1u << 20, 4u << 20};
static __thread thread_lists lists;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static int installed = 0;

static size_t class_bytes(uint32_t size_class) {
    if (size_class <= small_classes) return (size_t)size_class * 16;
    uint32_t step = size_class - small_classes - 1;
    return ((size_t)1024 << (step / 4)) * (5 + step % 4) / 4;
}

/* The class of a size of up to 1 KiB: 16-byte steps. */
static inline uint32_t small_class_for(size_t size) {
    return size == 0 ? 1 : (uint32_t)((size + 15) / 16);
}

static uint32_t class_for(size_t size) {
    if (size <= 1024) return small_class_for(size);
    if (size > (64u << 10)) return large_class;
    /* The doubling that holds size, then the quarter step within it. */
    unsigned octave = (unsigned)(63 - __builtin_clzll((unsigned long long)(size - 1))) - 10;
    uint32_t size_class = small_classes + 1 + 4 * octave;
    while (class_bytes(size_class) < size) size_class++;
    return size_class;
}

static void release_lists(void *unused) {
    (void)unused;
    for (int index = 0; index <= class_count; index++) {
        free_block *block = lists.head[index];
        while (block) {
            free_block *next = block->next;
            free((char *)block - prefix_size);
            block = next;
        }
        lists.head[index] = NULL;
    }
    lists.kept[0] = 0;
    lists.kept[1] = 0;
    lists.state = lists_gone;
}

static void make_exit_key(void) {
    pthread_key_create(&exit_key, release_lists);
}

/* A block from the C library, of the class's size (or, past the largest class, of `size`). */
static void *__attribute__((noinline)) new_block(size_t size, uint32_t size_class) {
    size_t bytes = size_class == large_class ? size : class_bytes(size_class);
    if (bytes > SIZE_MAX - prefix_size) return NULL;
    block_prefix *prefix = malloc(prefix_size + bytes);
    if (!prefix) return NULL;
    prefix->size_class = size_class;
    prefix->class_size = size_class == large_class ? 0 : (uint32_t)bytes;
    prefix->large_size = size_class == large_class ? size : 0;
    return (char *)prefix + prefix_size;
}

/* A block of `size_class` from this thread's list ([0] counts blocks of up to 1 KiB, [1] larger
   ones), or NULL when the list is empty. */
static inline void *take_kept(uint32_t size_class, int large) {
    free_block *block = lists.head[size_class];
    if (block) {
        lists.head[size_class] = block->next;
        lists.kept[large] -= ((block_prefix *)((char *)block - prefix_size))->class_size;
    }
    return block;
}

/* A kept block of up to 1 KiB (nearly every block libcurl asks for) is taken without calling
   anything; the rest is new_block's. */
void *courier_curl_malloc(size_t size) {
    if (__builtin_expect(size <= 1024, 1)) {
        uint32_t size_class = small_class_for(size);
        void *block = take_kept(size_class, 0);
        return block ? block : new_block(size, size_class);
    }
    uint32_t size_class = class_for(size);
    void *block = size_class == large_class ? NULL : take_kept(size_class, 1);
    return block ? block : new_block(size, size_class);
}

/* libcurl frees NULL about twice as often as it frees a block (some 90 of 125 calls a request
   in W2): that test comes first, in a function that needs no registers saved, and the rest is
   reached by a tail call. */
static void keep_or_free(void *pointer) __attribute__((noinline));

void courier_curl_free(void *pointer) {
    if (pointer) keep_or_free(pointer);
}

/* A thread's first free, and a free after its lists were given back (while it exits). */
static void __attribute__((noinline)) keep_or_free_unregistered(void *pointer) {
    if (lists.state == lists_fresh) {
        /* The first block kept on this thread: give the lists back when it exits. */
        pthread_once(&exit_once, make_exit_key);
        pthread_setspecific(exit_key, &lists);
        lists.state = lists_registered;
        keep_or_free(pointer);
        return;
    }
    free((char *)pointer - prefix_size);
}

/* Calls nothing but free() (a tail call), so that it saves no registers. */
static void keep_or_free(void *pointer) {
    if (__builtin_expect(lists.state != lists_registered, 0)) {
        keep_or_free_unregistered(pointer);
        return;
    }
    block_prefix *prefix = (block_prefix *)((char *)pointer - prefix_size);
    uint32_t size_class = prefix->size_class;
    if (size_class != large_class) {
        int large = size_class > small_classes;
        size_t bytes = prefix->class_size;
        if (lists.kept[large] + bytes <= budget[large]) {
            free_block *block = pointer;
            block->next = lists.head[size_class];
            lists.head[size_class] = block;
            lists.kept[large] += bytes;
            return;
        }
    }
    free(prefix);
}

void *courier_curl_calloc(size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
    void *pointer = courier_curl_malloc(bytes);
    if (pointer) memset(pointer, 0, bytes);
    return pointer;
}

void *courier_curl_realloc(void *pointer, size_t size) {
    if (!pointer) return courier_curl_malloc(size);
    block_prefix *prefix = (block_prefix *)((char *)pointer - prefix_size);
    int large = prefix->size_class == large_class;
    size_t capacity = large ? prefix->large_size : prefix->class_size;
    /* A block of a class keeps its class while the size fits. */
    if (!large && size <= capacity) return pointer;
    if (large && class_for(size) == large_class) {
        if (size > SIZE_MAX - prefix_size) return NULL;
        block_prefix *moved = realloc(prefix, prefix_size + size);
        if (!moved) return NULL;
        moved->large_size = size;
        return (char *)moved + prefix_size;
    }
    void *moved = courier_curl_malloc(size);
    if (!moved) return NULL;
    memcpy(moved, pointer, capacity < size ? capacity : size);
    courier_curl_free(pointer);
    return moved;
}

char *courier_curl_strdup(const char *string) {
    size_t length = strlen(string) + 1;
    char *copy = courier_curl_malloc(length);
    if (copy) memcpy(copy, string, length);
    return copy;
}

size_t courier_curl_memory_kept(void) {
    return lists.kept[0] + lists.kept[1];
}

int courier_curl_memory_installed(void) {
    return installed;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COURIER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COURIER_SANITIZER 1
#endif

CURLcode courier_global_init(long flags) {
#ifdef COURIER_SANITIZER
    return curl_global_init(flags);
#else
    CURLcode code = curl_global_init_mem(
        flags, courier_curl_malloc, courier_curl_free, courier_curl_realloc, courier_curl_strdup,
        courier_curl_calloc);
    if (code != CURLE_OK) return code;
    /* libcurl keeps the functions of whoever initialized it first: see whether they are these.
       curl_easy_escape allocates its result with libcurl's malloc. */
    size_t before = courier_curl_memory_kept();
    char *probe = curl_easy_escape(NULL, "probe", 5);
    if (probe) {
        curl_free(probe);
        installed = courier_curl_memory_kept() > before;
    }
    return code;
#endif
}
