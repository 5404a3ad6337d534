#!/usr/bin/env bash
# Runs every Courier test on a fresh Debian machine that has the Swift toolchain.
# Installs what is missing (libcurl headers, pkg-config, python venv support), creates a
# virtualenv with httpbin + gunicorn, starts httpbin on a free 127.0.0.1 port for the
# conformance suite, runs `swift test`, and stops httpbin again.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
ensure_system_packages
ensure_httpbin_venv

port="$(free_port)"
"$HTTPBIN_VENV/bin/gunicorn" --bind "127.0.0.1:$port" --workers 2 --worker-class gthread --threads 16 \
    --log-level warning httpbin:app >".build/httpbin.log" 2>&1 &
httpbin_pid=$!
trap 'kill "$httpbin_pid" 2>/dev/null || true; wait "$httpbin_pid" 2>/dev/null || true' EXIT
wait_for_http "http://127.0.0.1:$port/get" || { cat .build/httpbin.log; echo "httpbin did not start" >&2; exit 1; }
export COURIER_HTTPBIN_URL="http://127.0.0.1:$port"
echo "httpbin listening on $COURIER_HTTPBIN_URL"

swift build --build-tests
swift test --skip-build "$@"
