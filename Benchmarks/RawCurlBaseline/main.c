/*
 * RawCurlBaseline: the floor for any libcurl-based client, used by Benchmarks/run.sh.
 *
 * Plain C on libcurl, no Swift: one reused easy handle for sequential workloads, one multi
 * handle with a fixed number of reused easy handles for concurrent ones. Bodies are collected
 * in memory (or written to a file for w4file) so that the work matches what a client does.
 *
 * Usage: RawCurlBaseline <workload> <count> [base-url] [output-file]
 *   workloads: w1 (GET /small.json), w2 (GET /small.json, 64 in flight),
 *              w2head (W2 with the request head Courier sends: its three default lines, see
 *              `courier_head_lines` in model_loop.h), w3fetch (GET /array.json),
 *              w4mem (GET /big.bin into memory), w4file (GET /big.bin to output-file),
 *              w5 (POST /small.json with the 1.2 KB JSON body read from output-file),
 *              w6 (POST the file named by output-file to /upload, read from disk while sending),
 *              w7 (GET /big.bin, each piece consumed as it arrives: counted, not kept),
 *              engine-w1, engine-w2, engine-w5 (W1, W2, W5 through the engine model: EngineModelLoop's
 *              loop with engine_model.c's caller thread;
 *              RAW_ENGINE_SPIN_US=N lets its threads spin N µs before parking; reported as
 *              client raw-engine)
 * Prints one tab-separated line:
 *   RESULT raw-curl|raw-engine <workload> <count> <seconds> <cpu_seconds> <peak_rss_kb> <body_bytes_total>
 *          <user_seconds> <system_seconds> <voluntary_switches> <involuntary_switches>
 */
#include "baseline.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define IN_FLIGHT 64

/* W7: the reader consumes every piece as it arrives (counts it) and keeps nothing. */
static size_t write_count(char *ptr, size_t size, size_t count, void *userdata) {
    (void)ptr;
    *(long long *)userdata += (long long)(size * count);
    return size * count;
}

static size_t write_file(char *ptr, size_t size, size_t count, void *userdata) {
    return fwrite(ptr, size, count, (FILE *)userdata);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Start of the timed region: set after the warm-up requests (see `begin_timing`). */
static double timed_start;
static struct rusage timed_usage_start;

static double seconds_of(struct timeval value) {
    return (double)value.tv_sec + (double)value.tv_usec / 1e6;
}

void begin_timing(void) {
    getrusage(RUSAGE_SELF, &timed_usage_start);
    timed_start = now_seconds();
}

static long peak_rss_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    char line[256];
    long value = -1;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            value = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(status);
    return value;
}

void fail(const char *what, CURLcode code) {
    fprintf(stderr, "RawCurlBaseline: %s: %s\n", what, curl_easy_strerror(code));
    exit(1);
}

void check_status(CURL *easy) {
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        fprintf(stderr, "RawCurlBaseline: unexpected status %ld\n", status);
        exit(1);
    }
}

static char *read_file(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "RawCurlBaseline: cannot open %s\n", path);
        exit(1);
    }
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)*size + 1);
    if (fread(data, 1, (size_t)*size, file) != (size_t)*size) {
        fprintf(stderr, "RawCurlBaseline: short read of %s\n", path);
        exit(1);
    }
    fclose(file);
    return data;
}

/* Sequential requests on one reused easy handle. Returns the total body bytes. */
static long long run_sequential(const char *url, long count, long warmup, const char *post_body,
                                long post_size, long receive_buffer) {
    CURL *easy = curl_easy_init();
    buffer_t buffer = {0};
    buffer.easy = easy;
    struct curl_slist *headers = NULL;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_memory);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &buffer);
    if (receive_buffer > 0) curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, receive_buffer);
    if (post_body) {
        headers = curl_slist_append(headers, "Content-Type: application/json");
        headers = curl_slist_append(headers, "Expect:");
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, post_body);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_size);
    }
    long long total = 0;
    for (long i = 0; i < warmup + count; i++) {
        if (i == warmup) {
            total = 0;
            begin_timing();
        }
        buffer.length = 0;
        CURLcode code = curl_easy_perform(easy);
        if (code != CURLE_OK) fail("curl_easy_perform", code);
        check_status(easy);
        total += (long long)buffer.length;
    }
    curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
    free(buffer.data);
    return total;
}

/* `count` requests through one multi handle, IN_FLIGHT at a time, easy handles reused; with
 * `headers`, each request sends them (and decodes a compressed body, as Courier does). */
static long long run_concurrent(const char *url, long count, struct curl_slist *headers) {
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)IN_FLIGHT);
    buffer_t buffers[IN_FLIGHT];
    memset(buffers, 0, sizeof buffers);
    long started = 0, finished = 0;
    long long total = 0;
    for (int i = 0; i < IN_FLIGHT && started < count; i++, started++) {
        CURL *easy = curl_easy_init();
        buffers[i].easy = easy;
        curl_easy_setopt(easy, CURLOPT_URL, url);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_memory);
        curl_easy_setopt(easy, CURLOPT_WRITEDATA, &buffers[i]);
        curl_easy_setopt(easy, CURLOPT_PRIVATE, &buffers[i]);
        if (headers) {
            curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
        }
        curl_multi_add_handle(multi, easy);
    }
    while (finished < count) {
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int remaining = 0;
        while ((message = curl_multi_info_read(multi, &remaining))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            if (message->data.result != CURLE_OK) fail("transfer", message->data.result);
            check_status(easy);
            buffer_t *buffer;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&buffer);
            total += (long long)buffer->length;
            buffer->length = 0;
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (started < count) {
                started++;
                curl_multi_add_handle(multi, easy);
            }
        }
        if (finished < count) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    for (int i = 0; i < IN_FLIGHT; i++) {
        if (!buffers[i].easy) continue;
        curl_multi_remove_handle(multi, buffers[i].easy);
        curl_easy_cleanup(buffers[i].easy);
        free(buffers[i].data);
    }
    curl_multi_cleanup(multi);
    return total;
}

/* One GET on a fresh easy handle, the body handed to `writer`; returns the body size. */
static long long perform_get(const char *url, long buffer_size, curl_write_callback writer, void *userdata) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, buffer_size);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, writer);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, userdata);
    CURLcode code = curl_easy_perform(easy);
    if (code != CURLE_OK) fail("curl_easy_perform", code);
    check_status(easy);
    curl_off_t size = 0;
    curl_easy_getinfo(easy, CURLINFO_SIZE_DOWNLOAD_T, &size);
    curl_easy_cleanup(easy);
    return (long long)size;
}

static long long run_to_file(const char *url, const char *path) {
    FILE *file = fopen(path, "wb");
    if (!file) {
        fprintf(stderr, "RawCurlBaseline: cannot create %s\n", path);
        exit(1);
    }
    /* 512 KiB: libcurl's maximum, the target's reference. */
    long long size = perform_get(url, 512L * 1024, write_file, file);
    fclose(file);
    return size;
}

/* Upload and streaming buffers of W6/W7, the same as Courier's in those workloads. */
#define UPLOAD_BUFFER (512L * 1024)
#define STREAM_RECEIVE_BUFFER (256L * 1024)

/* W6: POST `path` to `url`, libcurl pulling it from disk through its default read function. */
static long long run_upload(const char *url, const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "RawCurlBaseline: cannot open %s\n", path);
        exit(1);
    }
    fseek(file, 0, SEEK_END);
    long long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    CURL *easy = curl_easy_init();
    long long response_bytes = 0;
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, "POST");
    curl_easy_setopt(easy, CURLOPT_READDATA, file);
    curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
    curl_easy_setopt(easy, CURLOPT_UPLOAD_BUFFERSIZE, UPLOAD_BUFFER);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_count);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &response_bytes);
    CURLcode code = curl_easy_perform(easy);
    if (code != CURLE_OK) fail("curl_easy_perform", code);
    check_status(easy);
    curl_off_t sent = 0;
    curl_easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &sent);
    curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
    fclose(file);
    if ((long long)sent != size) {
        fprintf(stderr, "RawCurlBaseline: sent %lld of %lld bytes\n", (long long)sent, size);
        exit(1);
    }
    return size;
}

/* W7: GET `url`, consuming the body piece by piece. */
static long long run_stream(const char *url) {
    long long total = 0;
    perform_get(url, STREAM_RECEIVE_BUFFER, write_count, &total);
    return total;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s w1|w2|w2head|w3|w4mem|w4file|w5|w6|w7 <count> [base-url] [file]\n", argv[0]);
        return 2;
    }
    const char *workload = argv[1];
    long count = strtol(argv[2], NULL, 10);
    const char *base = argc > 3 ? argv[3] : "http://127.0.0.1:18080";
    const char *file = argc > 4 ? argv[4] : NULL;
    char url[512];

    curl_global_init(CURL_GLOBAL_DEFAULT);
    begin_timing(); /* sequential workloads restart it after their warm-up */
    long long bytes = 0;
    const char *client = "raw-curl";
    if (strcmp(workload, "w1") == 0) {
        snprintf(url, sizeof url, "%s/small.json", base);
        bytes = run_sequential(url, count, 50, NULL, 0, 0);
    } else if (strcmp(workload, "w2") == 0) {
        snprintf(url, sizeof url, "%s/small.json", base);
        bytes = run_concurrent(url, count, NULL);
    } else if (strcmp(workload, "w2head") == 0) {
        snprintf(url, sizeof url, "%s/small.json", base);
        struct curl_slist *headers = courier_head_lines(NULL);
        bytes = run_concurrent(url, count, headers);
        curl_slist_free_all(headers);
    } else if (strcmp(workload, "w3") == 0 || strcmp(workload, "w3fetch") == 0) {
        snprintf(url, sizeof url, "%s/array.json", base);
        bytes = run_sequential(url, count, 5, NULL, 0, 0);
    } else if (strcmp(workload, "w4mem") == 0) {
        snprintf(url, sizeof url, "%s/big.bin", base);
        bytes = run_sequential(url, count, 0, NULL, 0, 256L * 1024);
    } else if (strcmp(workload, "w4file") == 0 && file) {
        snprintf(url, sizeof url, "%s/big.bin", base);
        for (long i = 0; i < count; i++) bytes += run_to_file(url, file);
    } else if (strcmp(workload, "w5") == 0 && file) {
        snprintf(url, sizeof url, "%s/small.json", base);
        long size = 0;
        char *body = read_file(file, &size);
        bytes = run_sequential(url, count, 50, body, size, 0);
        free(body);
    } else if (strcmp(workload, "w6") == 0 && file) {
        snprintf(url, sizeof url, "%s/upload", base);
        for (long i = 0; i < count; i++) bytes += run_upload(url, file);
    } else if (strcmp(workload, "w7") == 0) {
        snprintf(url, sizeof url, "%s/big.bin", base);
        for (long i = 0; i < count; i++) bytes += run_stream(url);
    } else if (strncmp(workload, "engine-", 7) == 0) {
        /* The engine model (engine_model.c): the same requests through a loop thread. */
        const char *model = workload + 7;
        const char *spin = getenv("RAW_ENGINE_SPIN_US");
        long spin_us = spin ? strtol(spin, NULL, 10) : 0;
        client = "raw-engine";
        workload = model;
        snprintf(url, sizeof url, "%s/small.json", base);
        if (strcmp(model, "w1") == 0) {
            bytes = run_engine_model(url, count, 50, 1, NULL, 0, spin_us);
        } else if (strcmp(model, "w2") == 0) {
            bytes = run_engine_model(url, count, 0, IN_FLIGHT, NULL, 0, spin_us);
        } else if (strcmp(model, "w5") == 0 && file) {
            long size = 0;
            char *body = read_file(file, &size);
            bytes = run_engine_model(url, count, 50, 1, body, size, spin_us);
            free(body);
        } else {
            fprintf(stderr, "RawCurlBaseline: unknown engine workload or missing file: %s\n", model);
            return 2;
        }
    } else {
        fprintf(stderr, "RawCurlBaseline: unknown workload or missing file: %s\n", workload);
        return 2;
    }
    double seconds = now_seconds() - timed_start;
    struct rusage end;
    getrusage(RUSAGE_SELF, &end);
    double user = seconds_of(end.ru_utime) - seconds_of(timed_usage_start.ru_utime);
    double sys = seconds_of(end.ru_stime) - seconds_of(timed_usage_start.ru_stime);
    printf("RESULT\t%s\t%s\t%ld\t%.6f\t%.6f\t%ld\t%lld\t%.6f\t%.6f\t%ld\t%ld\n", client, workload, count, seconds,
           user + sys, peak_rss_kb(), bytes, user, sys, end.ru_nvcsw - timed_usage_start.ru_nvcsw,
           end.ru_nivcsw - timed_usage_start.ru_nivcsw);
    return 0;
}
