#!/usr/bin/env bash
# Builds what a sanitizer run of the test suite needs, and nothing more: the test bundle and the
# three programs its tests start (SyncMain and AsyncMain, courier-generate). The benchmarks, the
# soak and the demo's examples are left out: the plain build compiles every target, and these
# builds are the test command's largest cost (scripts/test.sh, scripts/lib/build-ahead.sh).
#
#   bash scripts/lib/build-sanitized.sh --sanitize=thread --scratch-path .build/tsan
set -euo pipefail
cd "$(dirname "$0")/../.."
for product in CourierPackageTests SyncMain AsyncMain courier-generate; do
    swift build --product "$product" "$@"
done
