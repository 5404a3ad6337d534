/* The engine model's loop (see model_loop.h). */
#define _GNU_SOURCE /* pthread_setname_np */
#include "model_loop.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct model_loop {
    CURLM *multi;
    CURLSH *share;
    long spin_us;
    const char *url;
    int post;
    /* RAW_ENGINE_COURIER_OPTIONS=1: libcurl set up as Courier sets it up (see `courier_options`). */
    int courier_options;
    struct curl_slist *headers;
    /* The URL parsed once (`CURLOPT_CURLU`), as Courier's engine gives a URL requested again. */
    CURLU *courier_url;
    model_done_t done;
    void *done_context;
    long in_flight;
    model_request_t *requests;
    pthread_t thread;
    /* Caller → loop. */
    pthread_mutex_t inbox_lock;
    model_request_t *inbox;
    atomic_int inbox_count;
    int parked;
    int stopping;
};

struct curl_slist *courier_head_lines(struct curl_slist *list) {
    list = curl_slist_append(list,
        "Accept: application/json\r\nUser-Agent: Courier/0.2.0\r\nAccept-Encoding: gzip, br, zstd");
    return curl_slist_append(list, "Accept-Encoding:");
}

size_t write_memory(char *ptr, size_t size, size_t count, void *userdata) {
    buffer_t *buffer = userdata;
    size_t length = size * count;
    if (buffer->length + length > buffer->capacity) {
        size_t wanted = buffer->length + length;
        /* Size once from Content-Length when it is known, else double. */
        curl_off_t expected = -1;
        if (buffer->length == 0 &&
            curl_easy_getinfo(buffer->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected) == CURLE_OK &&
            expected > 0 && (size_t)expected >= wanted) {
            wanted = (size_t)expected;
        } else if (wanted < buffer->capacity * 2) {
            wanted = buffer->capacity * 2;
        }
        char *grown = realloc(buffer->data, wanted);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = wanted;
    }
    memcpy(buffer->data + buffer->length, ptr, length);
    buffer->length += length;
    return length;
}

static double monotonic_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int model_spin_until_nonzero(atomic_int *counter, long spin_us) {
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

void model_loop_submit(model_loop_t *loop, model_request_t *request) {
    pthread_mutex_lock(&loop->inbox_lock);
    request->next = loop->inbox;
    loop->inbox = request;
    atomic_fetch_add_explicit(&loop->inbox_count, 1, memory_order_release);
    int parked = loop->parked;
    pthread_mutex_unlock(&loop->inbox_lock);
    if (parked) curl_multi_wakeup(loop->multi);
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
static void courier_options(model_loop_t *loop, model_request_t *request) {
    CURL *easy = request->easy;
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, header_count);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, &request->header_lines);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, request->error_buffer);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_SHARE, loop->share);
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)64 << 20);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, loop->headers);
}

/* What Courier sets again for every request on a reused handle. The request's time limit is not
 * among them: Courier's engine enforces it itself and gives libcurl none. */
static void courier_request_options(model_loop_t *loop, CURL *easy) {
    /* Every request of a workload is to one URL: Courier's engine hands libcurl its parse
     * (URLHandleCache) with the same URL as text, which libcurl keeps as the transfer's URL
     * instead of printing one from the parse. */
    if (!loop->courier_url) {
        loop->courier_url = curl_url();
        if (!loop->courier_url || curl_url_set(loop->courier_url, CURLUPART_URL, loop->url,
                                               CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK) {
            fprintf(stderr, "engine model: cannot parse %s\n", loop->url);
            exit(1);
        }
    }
    curl_easy_setopt(easy, CURLOPT_URL, loop->url);
    curl_easy_setopt(easy, CURLOPT_CURLU, loop->courier_url);
    if (!loop->post) curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, loop->headers);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 0L);
}

static void *run(void *argument) {
    model_loop_t *loop = argument;
    int running = 0;
    for (;;) {
        pthread_mutex_lock(&loop->inbox_lock);
        model_request_t *arrived = loop->inbox;
        loop->inbox = NULL;
        atomic_store_explicit(&loop->inbox_count, 0, memory_order_relaxed);
        int stopping = loop->stopping;
        pthread_mutex_unlock(&loop->inbox_lock);
        for (; arrived; arrived = arrived->next) {
            if (loop->courier_options) courier_request_options(loop, arrived->easy);
            curl_multi_add_handle(loop->multi, arrived->easy);
        }

        curl_multi_perform(loop->multi, &running);
        CURLMsg *message;
        int remaining = 0;
        while ((message = curl_multi_info_read(loop->multi, &remaining))) {
            if (message->msg != CURLMSG_DONE) continue;
            model_request_t *request;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&request);
            request->result = message->data.result;
            curl_multi_remove_handle(loop->multi, message->easy_handle);
            loop->done(request, loop->done_context);
        }
        if (stopping && running == 0) return NULL;
        if (running == 0 && model_spin_until_nonzero(&loop->inbox_count, loop->spin_us)) continue;

        pthread_mutex_lock(&loop->inbox_lock);
        int idle = loop->inbox == NULL && !loop->stopping;
        loop->parked = idle;
        pthread_mutex_unlock(&loop->inbox_lock);
        if (!idle) continue;
        curl_multi_poll(loop->multi, NULL, 0, 1000, NULL);
        pthread_mutex_lock(&loop->inbox_lock);
        loop->parked = 0;
        pthread_mutex_unlock(&loop->inbox_lock);
    }
}

model_loop_t *model_loop_start(const char *url, long in_flight, const char *post_body, long post_size,
                               long spin_us, model_done_t done, void *done_context) {
    model_loop_t *loop = calloc(1, sizeof *loop);
    loop->multi = curl_multi_init();
    loop->spin_us = spin_us;
    loop->url = url;
    loop->post = post_body != NULL;
    loop->done = done;
    loop->done_context = done_context;
    loop->in_flight = in_flight;
    const char *courier = getenv("RAW_ENGINE_COURIER_OPTIONS");
    loop->courier_options = courier && strcmp(courier, "1") == 0;
    loop->share = curl_share_init();
    curl_share_setopt(loop->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(loop->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_multi_setopt(loop->multi, CURLMOPT_MAX_HOST_CONNECTIONS, in_flight);
    pthread_mutex_init(&loop->inbox_lock, NULL);

    struct curl_slist *headers = NULL;
    /* Courier sends libcurl's Accept-Encoding line among its own (CurlTransfer+Configure.swift), so
     * libcurl does not format one for every request. */
    if (loop->courier_options) headers = courier_head_lines(headers);
    if (post_body) {
        headers = curl_slist_append(headers, "Content-Type: application/json");
        headers = curl_slist_append(headers, "Expect:");
    }
    loop->headers = headers;
    loop->requests = calloc((size_t)in_flight, sizeof(model_request_t));
    for (long i = 0; i < in_flight; i++) {
        model_request_t *request = &loop->requests[i];
        CURL *easy = curl_easy_init();
        request->easy = easy;
        request->buffer.easy = easy;
        curl_easy_setopt(easy, CURLOPT_URL, url);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_memory);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &request->buffer);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, request);
        if (loop->courier_options) courier_options(loop, request);
        if (post_body) {
            curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDS, post_body);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_size);
        }
    }
    pthread_create(&loop->thread, NULL, run, loop);
    /* Named as Courier names its engine thread, so that the benchmark can read the loop thread's
       CPU time apart from its callers' (Benchmarks/CourierBenchmarks/Measure.swift). */
    pthread_setname_np(loop->thread, "engine-model");
    return loop;
}

model_request_t *model_loop_request(model_loop_t *loop, long index) {
    return &loop->requests[index];
}

long model_request_status(model_request_t *request) {
    long status = 0;
    if (request->result != CURLE_OK) return 0;
    curl_easy_getinfo(request->easy, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

char *model_request_take_body(model_request_t *request, size_t *length) {
    char *body = request->buffer.data;
    *length = request->buffer.length;
    request->buffer.data = NULL;
    request->buffer.length = 0;
    request->buffer.capacity = 0;
    return body;
}

void model_loop_stop(model_loop_t *loop) {
    pthread_mutex_lock(&loop->inbox_lock);
    loop->stopping = 1;
    int parked = loop->parked;
    pthread_mutex_unlock(&loop->inbox_lock);
    if (parked) curl_multi_wakeup(loop->multi);
    pthread_join(loop->thread, NULL);

    for (long i = 0; i < loop->in_flight; i++) {
        curl_easy_cleanup(loop->requests[i].easy);
        free(loop->requests[i].buffer.data);
    }
    free(loop->requests);
    curl_slist_free_all(loop->headers);
    if (loop->courier_url) curl_url_cleanup(loop->courier_url);
    curl_multi_cleanup(loop->multi);
    curl_share_cleanup(loop->share);
    pthread_mutex_destroy(&loop->inbox_lock);
    free(loop);
}
