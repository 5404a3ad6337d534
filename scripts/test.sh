#!/usr/bin/env bash
# Runs every Courier test on a fresh Debian machine that has the Swift toolchain.
# Installs what is missing (libcurl headers, pkg-config, python venv support), creates a
# virtualenv with httpbin + gunicorn, starts httpbin on a free 127.0.0.1 port for the
# conformance suite, runs `swift test`, and stops httpbin again.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
source scripts/lib/tls-server.sh
ensure_system_packages
ensure_tls_tools
ensure_httpbin_venv

# Every test talks to servers on 127.0.0.1: a proxy from the environment must not get in the way.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

port="$(free_port)"
"$HTTPBIN_VENV/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --worker-class gthread --threads 16 \
    --log-level warning httpbin:app >".build/httpbin.log" 2>&1 &
httpbin_pid=$!
trap 'kill "$httpbin_pid" 2>/dev/null || true; wait "$httpbin_pid" 2>/dev/null || true; stop_tls_server' EXIT
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

swift build --build-tests
# The documentation site (DocC warnings, undocumented symbols, guide code that does not compile)
# fails the run before any test does.
bash scripts/docs.sh
# All tests are XCTest; Swift Testing would only add a "0 tests" summary after them.
set +e
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee .build/test-output.log
status=${PIPESTATUS[0]}
set -e
# One plain closing line: totals over every XCTest suite that ran.
python3 - .build/test-output.log <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
runs = re.findall(r"Test Suite '(All|Selected) tests' (?:passed|failed).*\n\s*Executed (\d+) tests?, with (\d+) failures?", text)
total = sum(int(r[1]) for r in runs)
failed = sum(int(r[2]) for r in runs)
print(f"tests: {total - failed} passed, {failed} failed")
PY
exit "$status"
