/*
 * The engine model's loop: raw libcurl driven the way Courier's engine drives it, with none of
 * Courier's Swift code. One loop thread owns the multi handle; callers hand requests to it
 * through a locked inbox (waking it with `curl_multi_wakeup` only when it is parked in
 * `curl_multi_poll`), and the loop hands each finished request to a completion function, on the
 * loop thread. Two callers use it: RawCurlBaseline's engine model (a C thread waiting on a
 * condition variable, engine_model.c) and CourierBenchmarks' async engine model (Swift tasks
 * awaiting continuations, AsyncEngineModel.swift).
 */
#ifndef MODEL_LOOP_H
#define MODEL_LOOP_H

#include <curl/curl.h>
#include <stdatomic.h>
#include <stddef.h>

/*
 * The header entries Courier's engine hands libcurl for a default GET from a router: the Router's
 * `Accept`, the session's `User-Agent` and libcurl's own `Accept-Encoding` line made ready, in one
 * entry as CurlHeaderEntries sends them, then an empty `Accept-Encoding:` entry that names the line
 * inside it, so that libcurl leaves out its own (decoding stays on with CURLOPT_ACCEPT_ENCODING "").
 * The caller frees the list. The version has CourierInfo.version's length: libcurl 7.88 formats
 * the request head a byte at a time, so what counts is the number of bytes.
 */
struct curl_slist *courier_head_lines(struct curl_slist *list);

/* A response body collected in memory, sized from Content-Length when known. */
typedef struct {
    char *data;
    size_t length;
    size_t capacity;
    CURL *easy;
} buffer_t;

/* libcurl write callback appending to a `buffer_t`. */
size_t write_memory(char *ptr, size_t size, size_t count, void *userdata);

/* One reusable request: its easy handle (set up once) and its body. */
typedef struct model_request {
    CURL *easy;
    buffer_t buffer;
    CURLcode result;
    /* The caller's, handed back with the completion. */
    void *context;
    char error_buffer[CURL_ERROR_SIZE];
    long header_lines;
    struct model_request *next;
} model_request_t;

typedef struct model_loop model_loop_t;

/* Called on the loop thread for each finished request (`request->result` set). */
typedef void (*model_done_t)(model_request_t *request, void *done_context);

/*
 * Starts a loop thread with `in_flight` requests to `url` ready to submit (a POST of `post_body`
 * when given). RAW_ENGINE_COURIER_OPTIONS=1 in the environment sets libcurl up as Courier sets it
 * up. `spin_us` > 0 lets the loop spin that long before it parks once every transfer has ended.
 * The loop keeps `url` and `post_body` (it does not copy them): both must outlive `model_loop_stop`.
 */
model_loop_t *model_loop_start(const char *url, long in_flight, const char *post_body, long post_size,
                               long spin_us, model_done_t done, void *done_context);
/* The request at `index` (0 ..< in_flight). */
model_request_t *model_loop_request(model_loop_t *loop, long index);
/* Hands `request` to the loop; call from any thread. */
void model_loop_submit(model_loop_t *loop, model_request_t *request);
/* Stops the loop once its transfers have ended, joins it and frees everything. */
void model_loop_stop(model_loop_t *loop);

/* The status of `request`'s response (0 when the transfer failed). */
long model_request_status(model_request_t *request);
/* Takes `request`'s body out of it (the caller frees it with `free`); the next response gets a new one. */
char *model_request_take_body(model_request_t *request, size_t *length);

/* Spins until `*counter` is non-zero or `spin_us` have passed; true when it became non-zero. */
int model_spin_until_nonzero(atomic_int *counter, long spin_us);

#endif
