/* What main.c shares with the engine model (engine_model.c). */
#ifndef RAW_CURL_BASELINE_H
#define RAW_CURL_BASELINE_H

#include <curl/curl.h>
#include <stddef.h>

/* `buffer_t`, `write_memory` and the engine model's loop. */
#include "model_loop.h"

/* Starts the timed region (wall clock and rusage). */
void begin_timing(void);
/* Prints `what` and libcurl's message for `code`, then exits. */
void fail(const char *what, CURLcode code);
/* Exits unless the last response's status was 200. */
void check_status(CURL *easy);

/*
 * Requests through a loop thread that owns the multi handle, the way Courier's engine runs them:
 * the caller hands each request over (a locked inbox, `curl_multi_wakeup` when the loop is
 * parked) and waits for its completion (a condition variable). `in_flight` 1 is sequential (W1,
 * W5), more keeps that many going (W2). `spin_us` > 0 lets both the loop and the waiting caller
 * spin that long before they park. Returns the total body bytes.
 */
long long run_engine_model(const char *url, long count, long warmup, long in_flight, const char *post_body,
                           long post_size, long spin_us);

#endif
