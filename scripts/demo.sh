#!/usr/bin/env bash
# Builds and runs the five service examples in order, each against its own embedded demo server.
# Exits non-zero if the build or any example fails. Needs only Swift; installs libcurl's
# development package with apt-get when pkg-config cannot find it (Debian/Ubuntu).
set -euo pipefail

cd "$(dirname "$0")/.."

if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcurl; then
    echo "libcurl development files not found; installing libcurl4-openssl-dev with apt-get..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends libcurl4-openssl-dev pkg-config
fi

EXAMPLES=(AuthExample MusicHomeExample TravelExample LoginStatusExample DogsExample)

echo "Building the examples..."
for example in "${EXAMPLES[@]}"; do
    swift build --product "$example"
done
BIN_DIR="$(swift build --show-bin-path)"
echo

failed=()
for example in "${EXAMPLES[@]}"; do
    if ! "$BIN_DIR/$example"; then
        failed+=("$example")
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "FAILED: ${failed[*]}"
    exit 1
fi
echo "All ${#EXAMPLES[@]} examples succeeded."
