#ifndef COURIER_CCURL_SHIM_H
#define COURIER_CCURL_SHIM_H

#include <curl/curl.h>

/* Exactly typed, non-variadic forwarders for libcurl's variadic entry points.
   Each wrapper matches the documented argument type of the options it is used with. */

typedef size_t (*courier_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*courier_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                   curl_off_t ultotal, curl_off_t ulnow);
typedef int (*courier_seek_cb)(void *userdata, curl_off_t offset, int origin);
typedef void (*courier_lock_cb)(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr);
typedef void (*courier_unlock_cb)(CURL *handle, curl_lock_data data, void *userptr);

CURLcode courier_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode courier_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode courier_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode courier_easy_setopt_data_cb(CURL *handle, CURLoption option, courier_data_cb value);
CURLcode courier_easy_setopt_xferinfo_cb(CURL *handle, courier_xferinfo_cb value);
CURLcode courier_easy_setopt_seek_cb(CURL *handle, courier_seek_cb value);

CURLcode courier_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode courier_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *out);
CURLcode courier_easy_getinfo_string(CURL *handle, CURLINFO info, char **out);
CURLcode courier_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **out);
/* CURLINFO_ACTIVESOCKET: the socket of the connection the transfer used, or CURL_SOCKET_BAD. */
curl_socket_t courier_easy_active_socket(CURL *handle);

CURLMcode courier_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/* Installs a CURLMOPT_PUSHFUNCTION that refuses every HTTP/2 server push (CURL_PUSH_DENY). */
CURLMcode courier_multi_deny_pushes(CURLM *multi);

CURLSHcode courier_share_setopt_long(CURLSH *share, CURLSHoption option, long value);
CURLSHcode courier_share_setopt_lock_cb(CURLSH *share, courier_lock_cb value);
CURLSHcode courier_share_setopt_unlock_cb(CURLSH *share, courier_unlock_cb value);
CURLSHcode courier_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value);

/* Tells the CPU that the caller is spinning on a condition (x86 `pause`, Arm `yield`), which
   eases the spin on the core and on its sibling hardware thread. */
static inline void courier_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/* Accessors for CURLMsg, whose union is awkward from Swift. */
CURL *courier_msg_easy(const CURLMsg *msg);
CURLcode courier_msg_result(const CURLMsg *msg);
int courier_msg_is_done(const CURLMsg *msg);

/* curl_version_info(CURLVERSION_NOW): the macro is not imported into Swift. */
const curl_version_info_data *courier_version_info(void);

/* curl_global_init with libcurl's memory kept per thread (curl_memory.c), except under
   AddressSanitizer and ThreadSanitizer. */
CURLcode courier_global_init(long flags);
/* 1 when libcurl uses the functions below (courier_global_init installed them). */
int courier_curl_memory_installed(void);
/* The bytes the calling thread keeps for reuse. */
size_t courier_curl_memory_kept(void);
/* The functions libcurl is given; exposed for tests. */
void *courier_curl_malloc(size_t size);
void courier_curl_free(void *pointer);
void *courier_curl_calloc(size_t count, size_t size);
void *courier_curl_realloc(void *pointer, size_t size);
char *courier_curl_strdup(const char *string);

#endif
