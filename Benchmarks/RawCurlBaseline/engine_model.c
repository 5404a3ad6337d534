/*
 * The engine model: raw libcurl driven the way Courier's engine drives it, with none of Courier's
 * Swift code. One loop thread owns the multi handle; callers hand requests to it through a locked
 * inbox (waking it with `curl_multi_wakeup` only when it is parked in `curl_multi_poll`), and the
 * loop hands each finished request back through a condition variable. This is the floor of the
 * design that keeps the engine's guarantees (one owner of the multi handle, one shared pool): the
 * two cross-thread hand-overs per request, at C cost. docs/performance.md compares it with the
 * plain baseline (`curl_easy_perform` on the caller's thread) and with Courier.
 */
#include "baseline.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct request {
    CURL *easy;
    buffer_t buffer;
    CURLcode result;
    const char *url;
    int post;
    char error_buffer[CURL_ERROR_SIZE];
    long header_lines;
    struct request *next;
} request_t;

typedef struct {
    CURLM *multi;
    long spin_us;
    /* RAW_ENGINE_COURIER_OPTIONS=1: libcurl set up as Courier sets it up (see `courier_options`). */
    int courier_options;
    struct curl_slist *courier_headers;
    /* The URL parsed once (`CURLOPT_CURLU`), as Courier's engine gives a URL requested again. */
    CURLU *courier_url;
    /* Caller → loop. */
    pthread_mutex_t inbox_lock;
    request_t *inbox;
    atomic_int inbox_count;
    int parked;
    int stopping;
    /* Loop → caller. */
    pthread_mutex_t done_lock;
    pthread_cond_t done_cond;
    request_t *done;
    atomic_int done_count;
} engine_t;

static double monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Spins until `*counter` is non-zero or `spin_us` have passed; true when it became non-zero. */
static int spin_until_nonzero(atomic_int *counter, long spin_us) {
    if (spin_us <= 0) return 0;
    double deadline = monotonic_us() + (double)spin_us;
    unsigned turns = 0;
    while (atomic_load_explicit(counter, memory_order_acquire) == 0) {
        if ((++turns & 63) == 0) {
            if (monotonic_us() >= deadline) return 0;
            sched_yield();
        }
    }
    return 1;
}

static void submit(engine_t *engine, request_t *request) {
    pthread_mutex_lock(&engine->inbox_lock);
    request->next = engine->inbox;
    engine->inbox = request;
    atomic_fetch_add_explicit(&engine->inbox_count, 1, memory_order_release);
    int parked = engine->parked;
    pthread_mutex_unlock(&engine->inbox_lock);
    if (parked) curl_multi_wakeup(engine->multi);
}

static void complete(engine_t *engine, request_t *request) {
    pthread_mutex_lock(&engine->done_lock);
    request->next = engine->done;
    engine->done = request;
    atomic_fetch_add_explicit(&engine->done_count, 1, memory_order_release);
    pthread_cond_signal(&engine->done_cond);
    pthread_mutex_unlock(&engine->done_lock);
}

/* The caller's wait for the next finished request. */
static request_t *next_done(engine_t *engine) {
    spin_until_nonzero(&engine->done_count, engine->spin_us);
    pthread_mutex_lock(&engine->done_lock);
    while (!engine->done) pthread_cond_wait(&engine->done_cond, &engine->done_lock);
    request_t *request = engine->done;
    engine->done = request->next;
    atomic_fetch_sub_explicit(&engine->done_count, 1, memory_order_relaxed);
    pthread_mutex_unlock(&engine->done_lock);
    return request;
}

static size_t header_count(char *ptr, size_t size, size_t count, void *userdata) {
    (void)ptr;
    *(long *)userdata += 1;
    return size * count;
}

/*
 * The options Courier's engine gives every plain transfer (HandleProfile and CurlTransfer+Configure),
 * set once per handle as Courier's handle reuse does, with the session's default headers
 * (`Accept` from the router, `User-Agent`) and automatic decompression (`Accept-Encoding`, sent
 * as one of the request's own lines, as Courier does).
 * A header callback that only counts lines stands in for Courier's head parser.
 */
static void courier_options(engine_t *engine, CURL *easy, CURLSH *share, char *error_buffer, long *header_lines) {
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, header_count);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, header_lines);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_SHARE, share);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)64 << 20);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, engine->courier_headers);
}

/* What Courier sets again for every request on a reused handle. */
static void courier_request_options(engine_t *engine, CURL *easy, const char *url, int post) {
    /* Every request of a workload is to one URL: Courier's engine hands libcurl its parse
     * (URLHandleCache) with the same URL as text, which libcurl keeps as the transfer's URL
     * instead of printing one from the parse. */
    if (!engine->courier_url) {
        engine->courier_url = curl_url();
        if (!engine->courier_url || curl_url_set(engine->courier_url, CURLUPART_URL, url,
                                                 CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
            fprintf(stderr, "RawCurlBaseline: cannot parse %s\n", url);
            exit(1);
        }
    }
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_CURLU, engine->courier_url);
    if (!post) curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, engine->courier_headers);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 60000L);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 0L);
}

static void *loop(void *argument) {
    engine_t *engine = argument;
    int running = 0;
    for (;;) {
        pthread_mutex_lock(&engine->inbox_lock);
        request_t *arrived = engine->inbox;
        engine->inbox = NULL;
        atomic_store_explicit(&engine->inbox_count, 0, memory_order_relaxed);
        int stopping = engine->stopping;
        pthread_mutex_unlock(&engine->inbox_lock);
        for (; arrived; arrived = arrived->next) {
            if (engine->courier_options) courier_request_options(engine, arrived->easy, arrived->url, arrived->post);
            curl_multi_add_handle(engine->multi, arrived->easy);
        }

        curl_multi_perform(engine->multi, &running);
        CURLMsg *message;
        int remaining = 0;
        while ((message = curl_multi_info_read(engine->multi, &remaining))) {
            if (message->msg != CURLMSG_DONE) continue;
            request_t *request;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&request);
            request->result = message->data.result;
            curl_multi_remove_handle(engine->multi, message->easy_handle);
            complete(engine, request);
        }
        if (stopping && running == 0) return NULL;
        if (running == 0 && spin_until_nonzero(&engine->inbox_count, engine->spin_us)) continue;

        pthread_mutex_lock(&engine->inbox_lock);
        int idle = engine->inbox == NULL && !engine->stopping;
        engine->parked = idle;
        pthread_mutex_unlock(&engine->inbox_lock);
        if (!idle) continue;
        curl_multi_poll(engine->multi, NULL, 0, 1000, NULL);
        pthread_mutex_lock(&engine->inbox_lock);
        engine->parked = 0;
        pthread_mutex_unlock(&engine->inbox_lock);
    }
}

long long run_engine_model(const char *url, long count, long warmup, long in_flight, const char *post_body,
                           long post_size, long spin_us) {
    engine_t engine;
    memset(&engine, 0, sizeof engine);
    engine.multi = curl_multi_init();
    engine.spin_us = spin_us;
    const char *courier = getenv("RAW_ENGINE_COURIER_OPTIONS");
    engine.courier_options = courier && strcmp(courier, "1") == 0;
    CURLSH *share = curl_share_init();
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_multi_setopt(engine.multi, CURLMOPT_MAX_HOST_CONNECTIONS, in_flight);
    pthread_mutex_init(&engine.inbox_lock, NULL);
    pthread_mutex_init(&engine.done_lock, NULL);
    pthread_cond_init(&engine.done_cond, NULL);

    struct curl_slist *headers = NULL;
    if (engine.courier_options) {
        headers = curl_slist_append(headers, "Accept: application/json");
        headers = curl_slist_append(headers, "User-Agent: Courier/1.0");
        /* Courier sends libcurl's Accept-Encoding line among its own (CurlTransfer+Configure.swift),
         * so libcurl does not format one for every request; decoding stays on (ACCEPT_ENCODING ""). */
        headers = curl_slist_append(headers, "Accept-Encoding: deflate, gzip, br, zstd");
    }
    if (post_body) {
        headers = curl_slist_append(headers, "Content-Type: application/json");
        headers = curl_slist_append(headers, "Expect:");
    }
    engine.courier_headers = headers;
    request_t *requests = calloc((size_t)in_flight, sizeof(request_t));
    for (long i = 0; i < in_flight; i++) {
        CURL *easy = curl_easy_init();
        requests[i].easy = easy;
        requests[i].buffer.easy = easy;
        curl_easy_setopt(easy, CURLOPT_URL, url);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_memory);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &requests[i].buffer);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, &requests[i]);
        requests[i].url = url;
        requests[i].post = post_body != NULL;
        if (engine.courier_options) {
            courier_options(&engine, easy, share, requests[i].error_buffer, &requests[i].header_lines);
        }
        if (post_body) {
            curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDS, post_body);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_size);
        }
    }

    pthread_t thread;
    pthread_create(&thread, NULL, loop, &engine);
    long total_requests = warmup + count, started = 0, finished = 0;
    long long total = 0;
    for (; started < in_flight && started < total_requests; started++) submit(&engine, &requests[started]);
    while (finished < total_requests) {
        request_t *request = next_done(&engine);
        if (request->result != CURLE_OK) fail("transfer", request->result);
        check_status(request->easy);
        finished++;
        if (finished == warmup) {
            total = 0;
            begin_timing();
        } else {
            total += (long long)request->buffer.length;
        }
        request->buffer.length = 0;
        if (started < total_requests) {
            started++;
            submit(&engine, request);
        }
    }
    pthread_mutex_lock(&engine.inbox_lock);
    engine.stopping = 1;
    int parked = engine.parked;
    pthread_mutex_unlock(&engine.inbox_lock);
    if (parked) curl_multi_wakeup(engine.multi);
    pthread_join(thread, NULL);

    for (long i = 0; i < in_flight; i++) {
        curl_easy_cleanup(requests[i].easy);
        free(requests[i].buffer.data);
    }
    free(requests);
    curl_slist_free_all(headers);
    if (engine.courier_url) curl_url_cleanup(engine.courier_url);
    curl_multi_cleanup(engine.multi);
    curl_share_cleanup(share);
    return total;
}
