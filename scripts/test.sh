#!/usr/bin/env bash
# Runs every Courier test on a fresh Debian machine that has the Swift toolchain:
#   1. the XCTest suite (after the format check, scripts/format.sh --check, the documentation
#      check, scripts/docs.sh, and the API-breakage check against the last release,
#      scripts/api-breakage.sh),
#   2. the budgets, counted in a release build: allocations per request (Benchmarks/AllocationBudget)
#      must not pass ALLOCATION_BUDGET_HANDLER / _ASYNC / _MALLOC below, and instructions per request
#      under callgrind (Benchmarks/InstructionBudget, scripts/lib/instruction-budget.sh) must not pass
#      INSTRUCTION_BUDGET_HANDLER / _ASYNC,
#   3. the suite again under ThreadSanitizer,
#   4. the suite again under AddressSanitizer with LeakSanitizer,
#   5. a smoke run of every libFuzzer target in Fuzz/ (a few seconds each),
#   6. a short soak (5,000 requests), docs/reliability.md says what it checks,
#   7. courier-generate against the third-party OpenAPI documents in ../shared/data/openapi (when
#      present beside the clone): each generated and compiled to SIL with warnings as errors, or rejected
#      with a message naming a JSON pointer (scripts/generator-check.sh, docs/generator.md).
# The builds of parts 2 to 5, and the whole of part 7, run ahead in the background at the lowest CPU
# priority while earlier parts test (scripts/lib/build-ahead.sh); each part waits for its own.
# Installs what is missing (libcurl headers, pkg-config, python venv support), creates a
# virtualenv with httpbin + gunicorn + h2, starts httpbin, a TLS nginx and the HTTP/2 fault server
# (scripts/lib/h2_fault_server.py) on 127.0.0.1, and stops them again. Extra arguments go to every `swift test` (e.g. `--filter X`); COURIER_TEST_RUNS picks
# the parts (default "plain budget tsan asan fuzz soak generator"). Ends with one line: `tests: N passed, M failed`
# (every XCTest test of every run, plus one for each of the two budgets, one per fuzz target, one for the soak and one per
# third-party OpenAPI document; a run with a
# sanitizer report counts one more failure). Exits non-zero if anything failed or any sanitizer
# reported anything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
source scripts/lib/tls-server.sh
source scripts/lib/h2-fault-server.sh
ensure_system_packages
ensure_python_yaml
ensure_tls_tools
ensure_httpbin_venv
runs=" ${COURIER_TEST_RUNS:-plain budget tsan asan fuzz soak generator} "
# Heap allocations per sequential GET of 1,200 bytes from httpbin (Courier and libcurl together),
# with a completion handler and awaited, as they reach the C library: measured 12.0 and 11.0. A
# run can count a few allocations more over its 1,000 requests (59.001 once), so each budget is the
# measured count plus half an allocation. Lower them when a change saves allocations; never raise
# them to pass. (The handler's budget was 55.5 until the harness stopped making its own semaphore
# and flag per request, 6 of the 55; both fell by one when repeated URLs began to share libcurl's
# parse, by two when a transfer's result began to wait in the request's own state, and by one when
# small bodies and heads' fields moved to recycled memory (ResponseMemory) and a head's field
# storage began to stay with the easy handle, to 44.5 and 43.5. They fell by 32 when libcurl's own
# blocks began to come from its thread's lists, Sources/CCurlShim/curl_memory.c: raw libcurl alone
# makes 33 with glibc's.)
ALLOCATION_BUDGET_HANDLER=12.5
ALLOCATION_BUDGET_ASYNC=11.5
# The same requests counted as callgrind counts calls to malloc (issue 21's measure: its goal is 35,
# set when Courier made 59 and raw libcurl 23): measured 10.0 with a handler and 8.0 awaited (32.0
# and 30.0 before libcurl's memory was kept per thread); the budget holds both forms
# (docs/performance.md).
ALLOCATION_BUDGET_MALLOC=10.5
# Instructions per request, the same requests counted by callgrind (every thread of the client:
# Courier, libcurl, the Swift runtime): measured 99,660–101,789 with a handler and 102,530–105,329
# awaited (eleven runs each, three of them clean clones' test runs, where builds ran beside it; the
# loop's rounds vary from run to run, and more when the machine is busy: the highest awaited
# reading came from such a run), then 97,979 and 99,499 after Round 21's cuts (d9939d9), then
# 94,331 and 95,261 after Round 22's (4666e7c). The budgets were 106,000 and 110,000, about 4% over
# the highest readings, then 104,000 and 107,000; they are lowered with each cut, to about 4% over
# the latest readings plus the old spread (2,100 and 2,800). 91,892 and 92,145 once libcurl's
# memory was kept per thread (Round 29), from 97,103 and 97,279: budgets 96,000 and 97,000. After
# Rounds 36 and 37 (libcurl's memory functions cheaper to call, no libcurl timer for the request's
# limit, a shorter Accept-Encoding) the test command read 86,741 and 85,830, 87,138 and 87,343,
# 87,484 and 85,969: budgets 92,000 and 92,000, about 5% over the highest of each (Round 41).
# Lower them when a change saves instructions; never raise them to pass.
INSTRUCTION_BUDGET_HANDLER=92000
INSTRUCTION_BUDGET_ASYNC=92000
if [[ "$runs" == *" tsan "* || "$runs" == *" asan "* || "$runs" == *" fuzz "* ]]; then
    ensure_sanitizer_runtimes
fi

# The later parts' builds start now, in the background at the lowest CPU priority, one after
# another (scripts/lib/build-ahead.sh): each part waits for its own, then builds again in the
# foreground, which finds nothing left to do. The generator's check is a build, so it runs there
# whole, and its log is read when its turn comes.
ahead_dir=.build/ahead
rm -rf "$ahead_dir" && mkdir -p "$ahead_dir"
ahead_parts=()
for part in tsan asan budget fuzz generator; do
    if [[ "$runs" == *" $part "* ]]; then ahead_parts+=("$part"); fi
done
ahead_pid=""
if [ "${#ahead_parts[@]}" -gt 0 ]; then
    # Its own session, so that an early exit stops its builds too (the script lowers its session's
    # priority as well as its own: see there).
    setsid nice -n 19 bash scripts/lib/build-ahead.sh "$ahead_dir" "${ahead_parts[@]}" &
    ahead_pid=$!
fi
stop_build_ahead() {
    if [ -n "$ahead_pid" ]; then kill -- -"$ahead_pid" 2>/dev/null || true; fi
}
trap stop_build_ahead EXIT
# wait_ahead PART: until the background step for PART has ended (or the steps have stopped).
wait_ahead() {
    local waited=$SECONDS
    while [ -n "$ahead_pid" ] && [ ! -f "$ahead_dir/$1" ] && kill -0 "$ahead_pid" 2>/dev/null; do sleep 1; done
    if [ $((SECONDS - waited)) -gt 0 ]; then echo "== $1: waited $((SECONDS - waited)) s for its build"; fi
}

# Every test talks to servers on 127.0.0.1: a proxy from the environment must not get in the way.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

port="$(free_port)"
"$HTTPBIN_VENV/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --worker-class gthread --threads 16 \
    --log-level warning httpbin:app >".build/httpbin.log" 2>&1 &
httpbin_pid=$!
trap 'stop_build_ahead; kill "$httpbin_pid" 2>/dev/null || true; wait "$httpbin_pid" 2>/dev/null || true; stop_tls_server; stop_h2_fault_server' EXIT
wait_for_http "http://127.0.0.1:$port/get" || { cat .build/httpbin.log; echo "httpbin did not start" >&2; exit 1; }
export COURIER_HTTPBIN_URL="http://127.0.0.1:$port"
echo "httpbin listening on $COURIER_HTTPBIN_URL"

rm -rf .build/tls-server && mkdir -p .build/tls-server
start_tls_server .build/tls-server
wait_for_tls() {
    for _ in $(seq 100); do
        openssl s_client -connect "${COURIER_TLS_URL#https://}" </dev/null >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
wait_for_tls || { cat .build/tls-server/logs/error.log; echo "TLS nginx did not start" >&2; exit 1; }
echo "TLS/HTTP2 nginx listening on $COURIER_TLS_URL"

start_h2_fault_server .build/tls-server || { echo "the HTTP/2 fault server did not start" >&2; exit 1; }
echo "HTTP/2 fault server listening on $COURIER_H2_FAULT_URL (one stream per connection: $COURIER_H2_FAULT_SERIAL_URL)"
# Tests that need a server this script starts fail, rather than skip, when it is missing.
export COURIER_TEST_SCRIPT=1

passed=0
failed=0
status=0
report=()
sanitizer_logs=()

# XCTest totals of one log: "passed failed skipped" (XCTest then
# writes "Executed N tests, with S tests skipped and F failures").
count_tests() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
runs = re.findall(
    r"Test Suite '(?:All|Selected) tests' (?:passed|failed).*\n\s*Executed (\d+) tests?, with "
    r"(?:(\d+) tests? skipped and )?(\d+) failures?", text)
total = sum(int(r[0]) for r in runs)
skipped = sum(int(r[1] or 0) for r in runs)
failed = sum(int(r[2]) for r in runs)
print(total - skipped - failed, failed, skipped)
PY
}

# no_warnings LOG: fails, printing them, if a build log holds compiler warnings about a source
# file (the tree builds with none). The linker's notes on sanitizer symbols are not about ours.
no_warnings() {
    local found
    found=$(grep -E "^[^ ]+\.(swift|c|h):[0-9]+:[0-9]+: warning:" "$1" | sort -u || true)
    if [ -n "$found" ]; then
        echo "compiler warnings in $1:"
        echo "$found"
        return 1
    fi
}

# run_suite NAME [swift build/test options...]: builds (its own scratch path for sanitizers),
# runs the XCTest suite, adds up its results and looks for sanitizer reports.
run_suite() {
    local name="$1"; shift
    local log=".build/test-output-$name.log"
    local started=$SECONDS
    echo "== $name: swift test $*"
    if [ "$name" = plain ]; then
        set +e
        swift build --build-tests "$@" 2>&1 | tee ".build/build-$name.log"
        local built=${PIPESTATUS[0]}
        set -e
        if [ "$built" -ne 0 ]; then failed=$((failed + 1)); status=1; report+=("$name: build failed"); return; fi
        no_warnings ".build/build-$name.log" || { failed=$((failed + 1)); status=1; report+=("$name: compiler warnings"); return; }
        # The formatting of the tree (.swift-format) and the documentation site (DocC warnings,
        # undocumented symbols, guide code that does not compile) fail the run before any test does.
        echo "== plain: built in $((SECONDS - started)) s"
        bash scripts/format.sh --check || { failed=$((failed + 1)); status=1; report+=("format: FAILED"); return; }
        bash scripts/docs.sh || { failed=$((failed + 1)); status=1; report+=("docs: FAILED"); return; }
        echo "== plain: format and documentation checked at $((SECONDS - started)) s"
        # The public API against the last release: a break CHANGELOG.md does not announce fails.
        bash scripts/api-breakage.sh || { failed=$((failed + 1)); status=1; report+=("api-breakage: FAILED"); return; }
        echo "== plain: API checked at $((SECONDS - started)) s"
    elif ! { wait_ahead "$name"; if [ ! -f "$ahead_dir/$name" ]; then : >".build/build-$name.log"; fi
        bash scripts/lib/build-sanitized.sh "$@" >>".build/build-$name.log" 2>&1; }; then
        grep -E "error" ".build/build-$name.log" | head -40
        failed=$((failed + 1)); status=1; report+=("$name: build failed"); return
    elif ! no_warnings ".build/build-$name.log"; then
        failed=$((failed + 1)); status=1; report+=("$name: compiler warnings"); return
    fi
    # All tests are XCTest; Swift Testing would only add a "0 tests" summary after them.
    set +e
    if [ "$name" = asan ] && [ "${#extra_args[@]}" -eq 0 ]; then
        # Two passes over one build. Every test but one with the fast unwinder, which follows
        # frame pointers (the suite runs about 3× faster than with the slow one); a stack it cuts
        # short inside a C library without them can only make a suppression miss, so a leak is
        # still reported, with fewer frames. The one test, a URLSession client of the test
        # server, leaves FoundationNetworking's known leak inside libcurl: only the slow
        # unwinder sees past libcurl's frames to the suppression's frame.
        ASAN_OPTIONS="$ASAN_OPTIONS fast_unwind_on_malloc=1" \
            swift test --skip-build --disable-swift-testing "$@" --skip "$slow_unwinder_test" 2>&1 | tee "$log"
        local code=${PIPESTATUS[0]}
        ASAN_OPTIONS="$ASAN_OPTIONS fast_unwind_on_malloc=0" \
            swift test --skip-build --disable-swift-testing "$@" --filter "$slow_unwinder_test" 2>&1 | tee -a "$log"
        if [ "${PIPESTATUS[0]}" -ne 0 ]; then code=1; fi
    else
        swift test --skip-build --disable-swift-testing "$@" "${extra_args[@]}" 2>&1 | tee "$log"
        local code=${PIPESTATUS[0]}
    fi
    set -e
    local counts; read -r -a counts <<<"$(count_tests "$log")"
    passed=$((passed + counts[0])); failed=$((failed + counts[1]))
    local reports
    reports=$(grep -cE "WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer" "$log" || true)
    if [ "$reports" -gt 0 ]; then
        failed=$((failed + 1)); status=1
        report+=("$name: $reports sanitizer reports (see $log)")
        sanitizer_logs+=("$log")
    fi
    if [ "$code" -ne 0 ]; then status=1; fi
    local skipped=""
    if [ "${counts[2]}" -gt 0 ]; then skipped=", ${counts[2]} skipped"; fi
    report+=("$name: ${counts[0]} passed, ${counts[1]} failed$skipped (exit $code, $((SECONDS - started)) s)")
}

extra_args=("$@")
if [[ "$runs" == *" plain "* ]]; then run_suite plain; fi
if [[ "$runs" == *" tsan "* ]]; then
    # One suppression, for a gap in Swift's concurrency runtime (the file says which); the count
    # of reports it matched is printed with the run's result.
    tsan_suppressions="$PWD/scripts/sanitizers/tsan-suppressions.txt"
    TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 print_suppressions=1 suppressions=$tsan_suppressions" \
        run_suite tsan --sanitize=thread --scratch-path .build/tsan
    matched=$(awk '/^ThreadSanitizer: Matched [0-9]+ suppressions/ { n += $3 } END { print n + 0 }' \
        .build/test-output-tsan.log 2>/dev/null) || matched=0
    report+=("tsan: $matched reports matched scripts/sanitizers/tsan-suppressions.txt")
fi
if [[ "$runs" == *" asan "* ]]; then
    # The slow unwinder sees through libcurl's frames, so suppressions can name their callers; a
    # run of the whole suite uses it only for the test that needs it (see run_suite).
    slow_unwinder_test='ConcurrencyTests/testURLSessionGetAndPost$'
    ASAN_OPTIONS="detect_leaks=1 fast_unwind_on_malloc=0" \
    LSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/lsan-suppressions.txt print_suppressions=0" \
        run_suite asan --sanitize=address --scratch-path .build/asan
fi
if [[ "$runs" == *" budget "* ]]; then
    # Allocations and instructions per request, counted in a release build against httpbin (another
    # process): a change that adds either past its budget fails the run (docs/performance.md).
    echo "== budget: allocations and instructions per request (release build)"
    started=$SECONDS
    budget_build=(swift build -c release --scratch-path .build/budget)
    wait_ahead budget
    if [ ! -f "$ahead_dir/budget" ]; then : >.build/build-budget.log; fi
    if "${budget_build[@]}" --product AllocationBudget >>.build/build-budget.log 2>&1 \
        && "${budget_build[@]}" --product InstructionBudget >>.build/build-budget.log 2>&1; then
        budget_bin="$("${budget_build[@]}" --show-bin-path)"
        if "$budget_bin/AllocationBudget" "$COURIER_HTTPBIN_URL" 1000 \
                "$ALLOCATION_BUDGET_HANDLER" "$ALLOCATION_BUDGET_ASYNC" "$ALLOCATION_BUDGET_MALLOC" \
                | tee .build/test-output-budget.log; then
            passed=$((passed + 1)); report+=("allocation budget: passed ($((SECONDS - started)) s)")
        else
            failed=$((failed + 1)); status=1; report+=("allocation budget: FAILED (see .build/test-output-budget.log)")
        fi
        started=$SECONDS
        if bash scripts/lib/instruction-budget.sh "$budget_bin/InstructionBudget" "$COURIER_HTTPBIN_URL" \
                "$INSTRUCTION_BUDGET_HANDLER" "$INSTRUCTION_BUDGET_ASYNC" | tee -a .build/test-output-budget.log; then
            passed=$((passed + 1)); report+=("instruction budget: passed ($((SECONDS - started)) s)")
        else
            failed=$((failed + 1)); status=1; report+=("instruction budget: FAILED (see .build/test-output-budget.log)")
        fi
    else
        failed=$((failed + 2)); status=1; report+=("budgets: FAILED to build (see .build/build-budget.log)")
    fi
fi

if [[ "$runs" == *" fuzz "* ]]; then
    echo "== fuzz: a smoke run of every target"
    started=$SECONDS
    wait_ahead fuzz
    set +e
    bash scripts/fuzz.sh 2>&1 | tee .build/test-output-fuzz.log
    set -e
    fuzz_passed=$(grep -c '^fuzz .*: passed' .build/test-output-fuzz.log || true)
    fuzz_failed=$(( $(find Fuzz -maxdepth 1 -name '*.swift' | wc -l) - fuzz_passed ))
    passed=$((passed + fuzz_passed)); failed=$((failed + fuzz_failed))
    if [ "$fuzz_failed" -ne 0 ]; then status=1; fi
    report+=("fuzz: $fuzz_passed targets passed, $fuzz_failed failed ($((SECONDS - started)) s)")
fi
if [[ "$runs" == *" soak "* ]]; then
    echo "== soak: 5,000 requests"
    started=$SECONDS
    if [ ! -x .build/debug/CourierSoak ]; then swift build --product CourierSoak; fi
    if .build/debug/CourierSoak --requests 5000; then
        passed=$((passed + 1)); report+=("soak: passed ($((SECONDS - started)) s)")
    else
        failed=$((failed + 1)); status=1; report+=("soak: FAILED")
    fi
fi

if [[ "$runs" == *" generator "* ]]; then
    echo "== generator: courier-generate on the third-party OpenAPI documents"
    started=$SECONDS
    wait_ahead generator
    set +e
    if [ -f "$ahead_dir/generator" ]; then
        cat .build/test-output-generator.log
    else
        bash scripts/generator-check.sh 2>&1 | tee .build/test-output-generator.log
    fi
    set -e
    generator_passed=$(grep -c '^generator .*: passed' .build/test-output-generator.log || true)
    generator_failed=$(grep -c '^generator .*: FAILED' .build/test-output-generator.log || true)
    passed=$((passed + generator_passed)); failed=$((failed + generator_failed))
    if [ "$generator_failed" -ne 0 ]; then status=1; fi
    report+=("generator: $generator_passed documents passed, $generator_failed failed ($((SECONDS - started)) s)")
fi

# A sanitizer report is printed again just above the summary, so a run whose output is read
# only at its tail (CI) still shows which race or leak it was.
for log in "${sanitizer_logs[@]}"; do
    echo "== the first sanitizer report in $log"
    awk '/WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer/ { on = 1 }
         on { print; if (/^SUMMARY:/) exit }' "$log" | head -120
done
echo "== summary ($SECONDS s in all)"
printf '%s\n' "${report[@]}"
# One plain closing line: totals over every run.
echo "tests: $passed passed, $failed failed"
exit "$status"
