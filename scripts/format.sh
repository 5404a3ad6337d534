#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and the repository's .swift-format.
#   bash scripts/format.sh           rewrite the files in place
#   bash scripts/format.sh --check   change nothing; fail (and list the places) if any file differs
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Examples Benchmarks Fuzz)
if [ "${1:-}" = "--check" ]; then
    report="$(mktemp)"
    swift-format lint --strict --configuration .swift-format --recursive --parallel "${paths[@]}" 2>"$report" || true
    if [ -s "$report" ]; then
        head -40 "$report"
        echo "format check: $(wc -l <"$report") places differ from .swift-format; run: bash scripts/format.sh" >&2
        rm -f "$report"
        exit 1
    fi
    rm -f "$report"
    echo "format check: every Swift file matches .swift-format"
else
    swift-format format --in-place --configuration .swift-format --recursive --parallel "${paths[@]}"
fi
