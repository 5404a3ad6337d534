#!/usr/bin/env bash
# Courier benchmarks: Courier vs raw libcurl (C) vs URLSession (FoundationNetworking) against a
# private nginx on 127.0.0.1, plus, for W1, W2 and W5, the "engine model" (client raw-engine: raw
# libcurl driven through one loop thread the way Courier's engine does it, no Swift;
# Benchmarks/EngineModelLoop) and, for W2, the same loop with Swift tasks as callers (client
# async-engine), Courier's transport awaited directly (workload w2transport), and raw libcurl and
# the async engine model with Courier's libcurl options sending Courier's request head (workload
# w2head). One command:
#
#   bash Benchmarks/run.sh                # full run: 5 interleaved rounds + callgrind
#   bash Benchmarks/run.sh --quick        # counts divided by 10, 3 rounds, smaller callgrind runs
#
# Options:
#   --quick               scale request counts down by 10 (and callgrind counts by 4)
#   --rounds N            interleaved rounds (default 5, quick 3)
#   --workloads LIST      comma-separated subset of w1,w1sync,w1park,w2,w2transport,w3,w3fetch,w4mem,w4file,
#                         w5,w6,w7,
#                         w2head (W2 sending the request head Courier sends: raw libcurl, and the
#                         async engine model with Courier's libcurl options),
#                         form-array,form-keys,form-params (parameter encoding, no network),
#                         decode (JSONDecoder vs CourierJSONDecoder on the decoder corpus, no network),
#                         generate (courier-generate on the 108-operation test document, no network),
#                         cache-hit,coalesce64,coalesce64-off (the HTTP cache and request coalescing)
#   --no-callgrind        skip the counted mode (instructions under callgrind, heap allocations)
#   --callgrind-only      only the counted mode: instructions and heap allocations per W1 request
#                         for raw libcurl, the engine model and Courier
#   --plugin-cost         also count W1 instructions with a NetworkLogger at .off and at .basic
#   --port N              nginx port (default: the first free port from 28080)
#   --static-stdlib       link the Swift runtime and Foundation into the binaries (swift build
#                         --static-swift-stdlib, as server deployments are built; own build
#                         directory .work/build-static); the report's first line says so
#
# Everything it writes goes under Benchmarks/.work/ (gitignored): fixtures, nginx config and logs,
# the release build, raw results (results-*.tsv), callgrind output and the report (report.md).
# Benchmarks are not tests: nothing here fails on a missed target; the report says which hold.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/Benchmarks/.work"
PORT=""
ROUNDS=""
QUICK=0
CALLGRIND=1
TIMED=1
PLUGIN_COST=0
STATIC=0
WORKLOADS="w1,w1sync,w1park,w2,w2transport,w2head,w3,w3fetch,w4mem,w4file,w5,w6,w7,form-array,form-keys,form-params,decode,generate,cache-hit,coalesce64,coalesce64-off"

while [ $# -gt 0 ]; do
    case "$1" in
        --quick) QUICK=1 ;;
        --rounds) ROUNDS="$2"; shift ;;
        --workloads) WORKLOADS="$2"; shift ;;
        --no-callgrind) CALLGRIND=0 ;;
        --callgrind-only) TIMED=0 ;;
        --plugin-cost) PLUGIN_COST=1 ;;
        --port) PORT="$2"; shift ;;
        --static-stdlib) STATIC=1 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$ROUNDS" ] || ROUNDS=$([ "$QUICK" = 1 ] && echo 3 || echo 5)
SCALE=$([ "$QUICK" = 1 ] && echo 10 || echo 1)

log() { printf '[bench] %s\n' "$*" >&2; }

# --- Prerequisites -----------------------------------------------------------------------------
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
APT_UPDATED=0
need_package() {  # need_package <dpkg-name> [apt-name]
    dpkg -s "$1" >/dev/null 2>&1 && return 0
    log "installing ${2:-$1}"
    if [ "$APT_UPDATED" = 0 ]; then $SUDO apt-get update -qq; APT_UPDATED=1; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${2:-$1}" >/dev/null
}
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then need_package nginx-light; fi
need_package libcurl4-openssl-dev
need_package libyaml-dev   # GenerateBenchmarks (courier-generate reads YAML with libyaml)
if [ "$CALLGRIND" = 1 ]; then need_package valgrind; fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi

# --- Build (release, own scratch path so it never contends with debug builds) -----------------
mkdir -p "$WORK"
BUILD="$WORK/build"
BUILD_FLAGS=(-c release)
if [ "$STATIC" = 1 ]; then BUILD="$WORK/build-static"; BUILD_FLAGS+=(--static-swift-stdlib); fi
BUILD_FLAGS+=(--scratch-path "$BUILD")
log "building release products"
(cd "$ROOT" && swift build "${BUILD_FLAGS[@]}" --product CourierBenchmarks >&2 \
    && swift build "${BUILD_FLAGS[@]}" --product RawCurlBaseline >&2 \
    && swift build "${BUILD_FLAGS[@]}" --product DecodeBenchmarks >&2 \
    && swift build "${BUILD_FLAGS[@]}" --product GenerateBenchmarks >&2)
BIN=$(cd "$ROOT" && swift build "${BUILD_FLAGS[@]}" --show-bin-path)
COURIER_BENCH="$BIN/CourierBenchmarks"
RAW_BENCH="$BIN/RawCurlBaseline"
DECODE_BENCH="$BIN/DecodeBenchmarks"
GENERATE_BENCH="$BIN/GenerateBenchmarks"

# --- Fixtures -------------------------------------------------------------------------------------
WWW="$WORK/www"
log "generating fixtures in $WWW"
"$COURIER_BENCH" fixtures "$WWW"
if [ -z "$PORT" ]; then
    PORT=28080
    while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do PORT=$((PORT + 1)); done
fi
export BENCH_WORK="$WORK"
export BENCH_BASE_URL="http://127.0.0.1:$PORT"

# --- nginx ------------------------------------------------------------------------------------------
NGX="$WORK/nginx"
mkdir -p "$NGX/tmp"
USER_LINE=""
[ "$(id -u)" = 0 ] && USER_LINE="user root;"
cat > "$NGX/nginx.conf" <<EOF
$USER_LINE
worker_processes 1;
daemon on;
pid $NGX/nginx.pid;
error_log $NGX/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 300s;
    keepalive_requests 1000000;
    client_body_temp_path $NGX/tmp/body;
    proxy_temp_path $NGX/tmp/proxy;
    fastcgi_temp_path $NGX/tmp/fastcgi;
    uwsgi_temp_path $NGX/tmp/uwsgi;
    scgi_temp_path $NGX/tmp/scgi;
    types { application/json json; application/octet-stream bin; }
    default_type application/octet-stream;
    etag off;
    server {
        listen 127.0.0.1:$PORT backlog=4096;
        root $WWW;
        # W5: POST answers with the 1.2 KB JSON (the static module refuses POST with 405).
        location = /small.json { error_page 405 =200 \$uri; }
        # cache-hit: the 1.2 KB JSON with a lifetime, so Courier's cache answers it.
        location = /cached.json { add_header Cache-Control "max-age=3600"; try_files /small.json =404; }
        # W6: accepts a body of any size, discards it and answers 200.
        location = /upload { client_max_body_size 0; return 200 "uploaded\\n"; }
    }
}
EOF
stop_nginx() {
    if [ -f "$NGX/nginx.pid" ]; then
        kill "$(cat "$NGX/nginx.pid")" 2>/dev/null || true
        rm -f "$NGX/nginx.pid"
    fi
}
stop_nginx
trap stop_nginx EXIT INT TERM
"$NGINX" -p "$NGX" -c "$NGX/nginx.conf" -e "$NGX/error.log"
for _ in $(seq 50); do
    curl -fsS -o /dev/null "$BENCH_BASE_URL/small.json" 2>/dev/null && break
    sleep 0.1
done
curl -fsS -o /dev/null "$BENCH_BASE_URL/small.json" || { log "nginx did not start"; cat "$NGX/error.log" >&2; exit 1; }
curl -fsS -o /dev/null -X POST --data-binary @"$WWW/post-body.json" "$BENCH_BASE_URL/small.json" \
    || { log "nginx does not answer POST"; exit 1; }
log "nginx on $BENCH_BASE_URL (pid $(cat "$NGX/nginx.pid"))"

# --- Timed runs: every workload for every client, each in its own process, interleaved -----------
count_for() {
    case "$1" in
        w1|w1sync|w1park|w5|cache-hit) echo $((20000 / SCALE)) ;;
        coalesce64|coalesce64-off) echo $((12800 / SCALE)) ;;
        w2|w2transport|w2head) echo $((50000 / SCALE)) ;;
        w3|w3fetch) echo $((500 / SCALE)) ;;
        w4mem|w4file|w6|w7) echo 1 ;;
        form-array|form-keys|form-params) echo $((20 / SCALE + 1)) ;;
    esac
}
clients_for() {
    case "$1" in
        w1|w5) echo "courier raw-curl raw-engine urlsession" ;;   # raw-engine: the engine model
        # async-engine: the engine model's loop with Swift tasks as callers (AsyncEngineModel.swift)
        w2) echo "courier raw-curl raw-engine async-engine urlsession" ;;
        w2transport) echo "courier" ;;   # W2 through Courier's transport alone
        # W2 sending the request head Courier sends: raw libcurl, and the async engine model with
        # Courier's libcurl options (the floor for Courier's W2 as configured by default)
        w2head) echo "raw-curl async-engine" ;;
        w3fetch|w4mem) echo "courier raw-curl urlsession" ;;
        w1sync|w1park|cache-hit|coalesce64|coalesce64-off) echo "courier" ;;
        w3) echo "courier urlsession" ;;             # raw libcurl does not decode
        w4file) echo "courier raw-curl urlsession" ;;
        w6|w7) echo "courier raw-curl" ;;          # URLSession on Linux has no bytes(for:)
        form-array|form-keys|form-params) echo "courier" ;;   # Courier's encoders, no network
        decode) echo "both" ;;   # JSONDecoder and CourierJSONDecoder in one process, no network
        generate) echo "generator" ;;   # courier-generate in process, no network
    esac
}
run_one() {  # run_one <client> <workload> <count>; prints the RESULT line
    local client=$1 workload=$2 count=$3
    if [ "$workload" = generate ]; then
        (cd "$ROOT" && "$GENERATE_BENCH" --seconds "$([ "$QUICK" = 1 ] && echo 0.3 || echo 1)")
        return
    fi
    if [ "$workload" = decode ]; then
        # One interleaved round of the decoder corpus, about 0.3 s per document and decoder.
        "$DECODE_BENCH" --rounds 1 --seconds "$([ "$QUICK" = 1 ] && echo 0.05 || echo 0.3)" 2>/dev/null
        return
    fi
    if [ "$client" = raw-curl ]; then
        local file=""
        case "$workload" in
            w4file) file="$WORK/download.bin" ;;
            w5) file="$WWW/post-body.json" ;;
            w6) file="$WWW/big.bin" ;;
        esac
        "$RAW_BENCH" "$workload" "$count" "$BENCH_BASE_URL" $file
    elif [ "$client" = raw-engine ]; then
        # The engine model (EngineModelLoop, with engine_model.c's C caller): raw libcurl through a loop
        # thread, like Courier's engine.
        local file=""
        [ "$workload" = w5 ] && file="$WWW/post-body.json"
        "$RAW_BENCH" "engine-$workload" "$count" "$BENCH_BASE_URL" $file
    else
        "$COURIER_BENCH" run "$client" "$workload" "$count"
    fi
}

STAMP=$(date +%Y%m%d-%H%M%S)
RESULTS="$WORK/results-$STAMP.tsv"
INSTR="$WORK/instructions-$STAMP.tsv"
: > "$RESULTS"
: > "$INSTR"
FAILURES=0

if [ "$TIMED" = 1 ]; then
    IFS=',' read -r -a WL <<< "$WORKLOADS"
    for round in $(seq "$ROUNDS"); do
        for workload in "${WL[@]}"; do
            count=$(count_for "$workload")
            for client in $(clients_for "$workload"); do
                if [ "$workload" = decode ]; then
                    if lines=$(run_one "$client" "$workload" "$count" 2>>"$WORK/errors.log" | grep '^DECODE'); then
                        echo "$lines" >> "$RESULTS"
                        log "round $round/$ROUNDS decode: $(echo "$lines" | awk -F'\t' '{ t[$2]=t[$2] sprintf(" %s %.0fus", $3, $5/$4*1e6) } END { for (d in t) printf "[%s:%s] ", d, t[d] }')"
                    else
                        FAILURES=$((FAILURES + 1))
                        log "round $round/$ROUNDS decode FAILED (see $WORK/errors.log)"
                    fi
                    continue
                fi
                if [ "$workload" = generate ]; then
                    if lines=$(run_one "$client" "$workload" "$count" 2>>"$WORK/errors.log" | grep '^GENERATE'); then
                        echo "$lines" >> "$RESULTS"
                        log "round $round/$ROUNDS generate: $(echo "$lines" | awk -F'\t' '{ printf "[%s (%s operations) %.1f ms] ", $2, $3, $5/$4*1e3 }')"
                    else
                        FAILURES=$((FAILURES + 1))
                        log "round $round/$ROUNDS generate FAILED (see $WORK/errors.log)"
                    fi
                    continue
                fi
                if line=$(run_one "$client" "$workload" "$count" 2>>"$WORK/errors.log" | grep '^RESULT'); then
                    echo "$line" >> "$RESULTS"
                    log "round $round/$ROUNDS $(echo "$line" | awk -F'\t' '{printf "%-10s %-8s n=%s %.3fs cpu=%.3fs rss=%dMiB", $2, $3, $4, $5, $6, $7/1024}')"
                else
                    FAILURES=$((FAILURES + 1))
                    log "round $round/$ROUNDS $client $workload FAILED (see $WORK/errors.log)"
                fi
                rm -f "$WORK/download.bin"
            done
        done
    done
fi

# --- Instruction counts (callgrind): marginal instructions per W1 request ----------------------------
total_instructions() {  # the "summary:" (or "totals:") line of a callgrind output file
    awk '/^summary:/ { print $2; found=1; exit } /^totals:/ { t=$2 } END { if (!found && t) print t }' "$1"
}
if [ "$CALLGRIND" = 1 ]; then
    CG="$WORK/callgrind"
    mkdir -p "$CG"
    # valgrind 3.19 gives up reading the debug info of the benchmark binaries ("possibly
    # corrupted debuginfo": the DWARF 5 units clang writes for C files, the shim's and the C
    # baseline's). Copies without debug info keep the symbols, so profiles still name functions
    # (without file and line).
    if objcopy --strip-debug "$COURIER_BENCH" "$CG/CourierBenchmarks" 2>/dev/null; then
        COURIER_BENCH="$CG/CourierBenchmarks"
    fi
    if objcopy --strip-debug "$RAW_BENCH" "$CG/RawCurlBaseline" 2>/dev/null; then
        RAW_BENCH="$CG/RawCurlBaseline"
    fi
    if [ "$QUICK" = 1 ]; then N1=500; N2=1000; U1=100; U2=200; else N1=2000; N2=4000; U1=500; U2=1000; fi
    # Courier with spinsBeforeParking off: valgrind runs one thread at a time, so a thread that
    # spins waiting for another only adds loop turns to the count, never catches the event.
    export BENCH_SPINS_BEFORE_PARKING=0
    # raw-engine here is the engine model with Courier's libcurl options and default headers
    # (RAW_ENGINE_COURIER_OPTIONS=1): what libcurl costs as Courier drives it, without Swift.
    export RAW_ENGINE_COURIER_OPTIONS=1
    for client in raw-curl raw-engine courier urlsession; do
        if [ "$client" = urlsession ]; then a=$U1; b=$U2; else a=$N1; b=$N2; fi
        ok=1
        for n in $a $b; do
            out="$CG/$client.$n.out"
            if [ "$client" = raw-curl ]; then
                cmd=("$RAW_BENCH" w1 "$n" "$BENCH_BASE_URL")
            elif [ "$client" = raw-engine ]; then
                cmd=("$RAW_BENCH" engine-w1 "$n" "$BENCH_BASE_URL")
            else
                cmd=("$COURIER_BENCH" run "$client" w1sync "$n")
            fi
            log "callgrind $client n=$n"
            if ! valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$out" "${cmd[@]}" \
                    >/dev/null 2>"$CG/$client.$n.log"; then
                log "callgrind $client n=$n failed (see $CG/$client.$n.log)"
                ok=0
            fi
        done
        if [ "$ok" = 1 ]; then
            printf 'INSTR\t%s\t%s\t%s\t%s\t%s\n' "$client" "$a" "$(total_instructions "$CG/$client.$a.out")" \
                "$b" "$(total_instructions "$CG/$client.$b.out")" >> "$INSTR"
        else
            FAILURES=$((FAILURES + 1))
        fi
    done
    # Heap allocations per W1 request, counted the same way for every client: MallocCounter's
    # counting wrappers built as a library and preloaded, the count printed at exit.
    cat > "$CG/allocation-report.c" <<'C'
#include <stdio.h>
unsigned long long courier_allocation_count(void);
unsigned long long courier_malloc_count(void);
__attribute__((destructor)) static void report_allocations(void) {
    fprintf(stderr, "ALLOCATIONS %llu %llu\n", courier_allocation_count(), courier_malloc_count());
}
C
    if clang -shared -fPIC -O2 -I"$ROOT/Benchmarks/MallocCounter/include" -o "$CG/count-allocations.so" \
            "$ROOT/Benchmarks/MallocCounter/counter.c" "$CG/allocation-report.c" 2>"$CG/count-allocations.log"; then
        for entry in "raw-curl w1" "raw-engine engine-w1" "courier w1sync" "courier w1park"; do
            set -- $entry
            # Two counts per run: every allocation, and the calls to malloc (a realloc of nothing
            # included, as callgrind counts them: issue 21's measure).
            counts=()
            mallocs=()
            for n in $N1 $N2; do
                if [ "$1" = courier ]; then cmd=("$COURIER_BENCH" run courier "$2" "$n")
                else cmd=("$RAW_BENCH" "$2" "$n" "$BENCH_BASE_URL"); fi
                all="" calls=""
                read -r all calls < <(LD_PRELOAD="$CG/count-allocations.so" "${cmd[@]}" 2>&1 >/dev/null \
                    | sed -n 's/^ALLOCATIONS //p' | tail -1) || true
                counts+=("${all:-}")
                mallocs+=("${calls:-}")
            done
            if [ -n "${counts[0]}" ] && [ -n "${counts[1]}" ] && [ -n "${mallocs[0]}" ] && [ -n "${mallocs[1]}" ]; then
                printf 'ALLOC\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$N1" "${counts[0]}" "$N2" "${counts[1]}" \
                    "${mallocs[0]}" "${mallocs[1]}" >> "$INSTR"
            else
                log "counting allocations of $1 $2 failed"; FAILURES=$((FAILURES + 1))
            fi
        done
    else
        log "could not build the allocation counter (see $CG/count-allocations.log)"
    fi
    # The cost of plugins (Benchmarks/EXPERIMENTS.md): W1 with a NetworkLogger at .off (disabled, so the
    # direct path) and at .basic (the plugin path), against W1 without plugins above.
    if [ "$PLUGIN_COST" = 1 ]; then
        summary="courier W1 instructions/request:"
        for workload in w1sync w1logoff w1logged; do
            if [ "$workload" != w1sync ]; then
                for n in $N1 $N2; do
                    log "callgrind courier $workload n=$n"
                    valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$CG/$workload.$n.out" \
                        "$COURIER_BENCH" run courier "$workload" "$n" >/dev/null 2>"$CG/$workload.$n.log" \
                        || { log "callgrind $workload failed"; FAILURES=$((FAILURES + 1)); }
                done
                first="$CG/$workload.$N1.out"; second="$CG/$workload.$N2.out"
            else
                first="$CG/courier.$N1.out"; second="$CG/courier.$N2.out"
            fi
            if [ -f "$first" ] && [ -f "$second" ]; then
                t1=$(total_instructions "$first"); t2=$(total_instructions "$second")
                summary="$summary $workload $(( (t2 - t1) / (N2 - N1) ))"
            fi
        done
        log "$summary"
        echo "$summary" > "$CG/plugin-cost.txt"
    fi
    # Where Courier's instructions go (inclusive and exclusive), for Benchmarks/EXPERIMENTS.md.
    if [ -f "$CG/courier.$N2.out" ]; then
        callgrind_annotate --inclusive=yes --threshold=99 "$CG/courier.$N2.out" 2>/dev/null \
            | head -80 > "$CG/courier.inclusive.txt" || true
        callgrind_annotate --threshold=99 "$CG/courier.$N2.out" 2>/dev/null \
            | head -80 > "$CG/courier.self.txt" || true
        log "profiles: $CG/courier.inclusive.txt, $CG/courier.self.txt"
    fi
fi

stop_nginx

# --- Report ------------------------------------------------------------------------------------------------
{
    [ "$STATIC" = 0 ] || printf 'Built with the Swift runtime and Foundation linked statically (--static-swift-stdlib).\n\n'
    "$COURIER_BENCH" report "$RESULTS" "$INSTR"
} | tee "$WORK/report.md"
echo
echo "raw results: $RESULTS"
[ -s "$INSTR" ] && echo "instruction counts: $INSTR"
[ "$FAILURES" = 0 ] || echo "$FAILURES run(s) failed: see $WORK/errors.log"
