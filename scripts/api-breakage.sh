#!/usr/bin/env bash
# Fails when Courier's public API breaks in a way CHANGELOG.md does not announce.
#
# Compares the library products (Courier, CourierTesting, CourierTestServer) with the last
# release, named in api/baseline (a tag name and the commit it points to), using
# `swift package diagnose-api-breaking-changes`. Every break that tool reports must be listed in
# api/announced-breaks.txt (its exact message, one per line); each of those is announced in the
# "Unreleased" section of CHANGELOG.md. After a release, api/baseline names it and the list is
# emptied.
#
# The release's API (the tool's JSON description of each module, made by building the release in a
# checkout of its own, which takes most of the check's time) is kept in api/baseline-api, with the
# release's commit and the toolchain that made it. When both match, the check reads it instead of
# building the release again; otherwise it builds the release, as the tool does by default.
#
#   bash scripts/api-breakage.sh                   # exit 1 and the unannounced breaks, if any
#   bash scripts/api-breakage.sh --list            # every break since the release, in the list's format
#   bash scripts/api-breakage.sh --store-baseline  # build the release's API again and keep it in api/
set -euo pipefail
cd "$(dirname "$0")/.."
read -r release commit <api/baseline
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    git fetch --quiet --unshallow 2>/dev/null || true
fi
git cat-file -e "$commit^{commit}" 2>/dev/null \
    || { echo "api-breakage: the baseline commit $commit ($release) is not in this clone" >&2; exit 1; }
log=.build/api-breakage.log
mkdir -p .build
allowlist=api/announced-breaks.txt
if [ "${1:-}" = "--list" ]; then allowlist=/dev/null; fi
modules=(Courier CourierTesting CourierTestServer)
stored=api/baseline-api
made_with="$commit $(swift --version 2>/dev/null | head -n 1)"
cache=".build/api-baseline/$commit"
regenerate=()
if [ "${1:-}" = "--store-baseline" ]; then
    regenerate=(--regenerate-baseline)
elif [ ! -d "$cache" ] && [ "$(cat "$stored/made-with" 2>/dev/null)" = "$made_with" ]; then
    mkdir -p "$cache"
    for module in "${modules[@]}"; do gunzip -c "$stored/$module.json.gz" >"$cache/$module.json"; done
fi
set +e
swift package diagnose-api-breaking-changes "$commit" --products "${modules[@]}" "${regenerate[@]}" \
    --baseline-dir ".build/api-baseline" --breakage-allowlist-path "$allowlist" >"$log" 2>&1
code=$?
set -e
if [ "${1:-}" = "--store-baseline" ]; then
    for module in "${modules[@]}"; do
        [ -f "$cache/$module.json" ] || { echo "api-breakage: the release's API was not made (see $log)" >&2; exit 1; }
    done
    rm -rf "$stored" && mkdir -p "$stored"
    for module in "${modules[@]}"; do gzip -9 -n -c "$cache/$module.json" >"$stored/$module.json.gz"; done
    echo "$made_with" >"$stored/made-with"
    echo "api-breakage: the API of $release ($commit) stored in $stored"
    exit 0
fi
if [ "${1:-}" = "--list" ]; then
    sed -n 's/^ *💔 \(API breakage: .*\)$/\1/p' "$log" | sort -u
    exit 0
fi
if [ "$code" -eq 0 ]; then
    echo "api-breakage: no unannounced break since $release ($commit)"
    exit 0
fi
grep -E "💔|API breakage|error:" "$log" | sed 's/^/  /' | head -60
echo "api-breakage: FAILED: the API breaks above are not announced (api/announced-breaks.txt, CHANGELOG.md); log in $log" >&2
exit 1
