#!/usr/bin/env bash
# Builds and runs the service examples in order, each against its own embedded demo server.
# Exits non-zero if the build or any example fails. Needs only Swift; installs libcurl's
# development package with apt-get when pkg-config cannot find it (Debian/Ubuntu).
set -euo pipefail

cd "$(dirname "$0")/.."

source scripts/lib/prerequisites.sh
ensure_system_packages

EXAMPLES=(AuthExample MusicHomeExample TravelExample LoginStatusExample DogsExample OrderTrackingExample
    GeneratedDogsExample)

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
