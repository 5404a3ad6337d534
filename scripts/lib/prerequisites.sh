# Shared set-up steps for scripts/test.sh, scripts/demo.sh and Benchmarks/run.sh.
# Installs only what is missing; works as root or with sudo.

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    echo "Installing: $*"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@"
}

# libcurl headers and pkg-config, needed to build Courier; libyaml's headers for courier-generate.
ensure_system_packages() {
    local missing=()
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    if ! pkg-config --exists libcurl 2>/dev/null; then missing+=(libcurl4-openssl-dev); fi
    if ! pkg-config --exists yaml-0.1 2>/dev/null; then missing+=(libyaml-dev); fi
    if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
    mkdir -p .build
}

# PyYAML, for scripts/lib/split-openapi.py (scripts/generator-check.sh).
ensure_python_yaml() {
    if ! python3 -c 'import yaml' >/dev/null 2>&1; then apt_install python3-yaml; fi
}

# A virtualenv holding the third-party httpbin and gunicorn, for the conformance suite, and the
# third-party h2 (a pure-Python HTTP/2 protocol library), for the HTTP/2 fault server
# (scripts/lib/h2_fault_server.py).
HTTPBIN_VENV="${HTTPBIN_VENV:-.build/httpbin-venv}"
ensure_httpbin_venv() {
    if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then apt_install python3-venv; fi
    if [ ! -x "$HTTPBIN_VENV/bin/gunicorn" ] || ! "$HTTPBIN_VENV/bin/python" -c 'import httpbin' >/dev/null 2>&1; then
        echo "Creating httpbin virtualenv in $HTTPBIN_VENV"
        python3 -m venv "$HTTPBIN_VENV"
        "$HTTPBIN_VENV/bin/pip" install --quiet --disable-pip-version-check httpbin gunicorn
    fi
    if ! "$HTTPBIN_VENV/bin/python" -c 'import h2' >/dev/null 2>&1; then
        echo "Installing h2 into $HTTPBIN_VENV"
        "$HTTPBIN_VENV/bin/pip" install --quiet --disable-pip-version-check 'h2>=4,<5'
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits up to ~20 s for a URL to answer.
wait_for_http() {
    python3 - "$1" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        urllib.request.urlopen(sys.argv[1], timeout=1).read()
        sys.exit(0)
    except Exception:
        time.sleep(0.2)
sys.exit(1)
PY
}

# The sanitizer and libFuzzer runtimes. Swift toolchains ship their own, matched to their LLVM,
# in usr/lib/clang/<version>/lib/linux (Debian's libclang-rt-*-dev belongs to another LLVM and
# would not link with swiftc), so this only checks, and explains when they are missing.
ensure_sanitizer_runtimes() {
    local swiftc; swiftc="$(readlink -f "$(command -v swiftc)")"
    local runtimes; runtimes="$(dirname "$(dirname "$swiftc")")/lib/clang"
    local name
    for name in tsan asan fuzzer; do
        if ! ls "$runtimes"/*/lib/linux/libclang_rt.$name-x86_64.a >/dev/null 2>&1; then
            echo "The Swift toolchain has no $name runtime in $runtimes/*/lib/linux: install a full" \
                "toolchain from swift.org (the sanitizer runs and fuzzing need it)" >&2
            exit 1
        fi
    done
    command -v clang >/dev/null 2>&1 || { echo "clang (shipped with the Swift toolchain) is not on PATH" >&2; exit 1; }
}
