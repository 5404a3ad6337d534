/*
 * The engine model with a C caller: raw libcurl driven the way Courier's engine drives it
 * (EngineModelLoop/model_loop.c), with none of Courier's Swift code. The caller thread hands
 * each request to the loop and waits for finished ones on a condition variable. This is the floor
 * of the design that keeps the engine's guarantees (one owner of the multi handle, one shared
 * pool): the two cross-thread hand-overs per request, at C cost. docs/performance.md compares it
 * with the plain baseline (`curl_easy_perform` on the caller's thread) and with Courier;
 * CourierBenchmarks' `async-engine` client runs the same loop with Swift tasks as callers.
 */
#include "baseline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Loop → caller. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    model_request_t *done;
    atomic_int count;
} finished_t;

/* On the loop thread: queues a finished request for the caller. */
static void complete(model_request_t *request, void *context) {
    finished_t *finished = context;
    pthread_mutex_lock(&finished->lock);
    request->next = finished->done;
    finished->done = request;
    atomic_fetch_add_explicit(&finished->count, 1, memory_order_release);
    pthread_cond_signal(&finished->cond);
    pthread_mutex_unlock(&finished->lock);
}

/* The caller's wait for the next finished request. */
static model_request_t *next_done(finished_t *finished, long spin_us) {
    model_spin_until_nonzero(&finished->count, spin_us);
    pthread_mutex_lock(&finished->lock);
    while (!finished->done) pthread_cond_wait(&finished->cond, &finished->lock);
    model_request_t *request = finished->done;
    finished->done = request->next;
    atomic_fetch_sub_explicit(&finished->count, 1, memory_order_relaxed);
    pthread_mutex_unlock(&finished->lock);
    return request;
}

long long run_engine_model(const char *url, long count, long warmup, long in_flight, const char *post_body,
                           long post_size, long spin_us) {
    finished_t finished;
    memset(&finished, 0, sizeof finished);
    pthread_mutex_init(&finished.lock, NULL);
    pthread_cond_init(&finished.cond, NULL);
    model_loop_t *loop = model_loop_start(url, in_flight, post_body, post_size, spin_us, complete, &finished);

    long total_requests = warmup + count, started = 0, completed = 0;
    long long total = 0;
    for (; started < in_flight && started < total_requests; started++) {
        model_loop_submit(loop, model_loop_request(loop, started));
    }
    while (completed < total_requests) {
        model_request_t *request = next_done(&finished, spin_us);
        if (request->result != CURLE_OK) fail("transfer", request->result);
        check_status(request->easy);
        completed++;
        if (completed == warmup) {
            total = 0;
            begin_timing();
        } else {
            total += (long long)request->buffer.length;
        }
        request->buffer.length = 0;
        if (started < total_requests) {
            started++;
            model_loop_submit(loop, request);
        }
    }
    model_loop_stop(loop);
    pthread_mutex_destroy(&finished.lock);
    pthread_cond_destroy(&finished.cond);
    return total;
}
