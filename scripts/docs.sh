#!/usr/bin/env bash
# Builds Courier's documentation site with DocC: the API reference of Courier, CourierTesting and
# CourierTestServer, with the guides in docs/ as articles (docs/ stays the one source of truth).
# Fails on any DocC warning, on an undocumented public symbol, on a public type that no Topics
# group lists, and on a ```swift block of the guides that does not compile against the modules
# exactly as shown, or whose code does not start with its imports
# (scripts/lib/check_doc_snippets.py). Output: .build/docs-site (open it through a static server).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
ensure_system_packages

site=".build/docs-site"
work=".build/docs-work"
rm -rf "$site" "$work"
mkdir -p "$site" "$work"

graphs="$(swift build --show-bin-path)/../symbolgraph"
rm -rf "$graphs"
# The command also tries the test-only modules, which it cannot load, and then exits non-zero;
# the library modules' graphs are what matter, and each is checked below.
swift package dump-symbol-graph --minimum-access-level public >"$work/symbol-graph.log" 2>&1 || true
for module in Courier CourierTesting CourierTestServer; do
    [ -f "$graphs/$module.symbols.json" ] || { cat "$work/symbol-graph.log"; echo "no symbol graph for $module" >&2; exit 1; }
done

build_module() {
    local module="$1" catalog="$2"; shift 2
    local module_graphs="$work/graphs/$module" staged="$work/$module.docc" lower
    lower="$(echo "$module" | tr '[:upper:]' '[:lower:]')"
    mkdir -p "$module_graphs"
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    python3 scripts/lib/docc_prepare.py "$catalog" "$staged" "$module_graphs" "$module" "$@"
    docc convert "$staged" --additional-symbol-graph-dir "$module_graphs" \
        --output-path "$site/$module" --hosting-base-path "$module" --transform-for-static-hosting \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.courier.$module" \
        --warnings-as-errors >"$work/$module.log" 2>&1 || { cat "$work/$module.log"; return 1; }
    if grep -q "warning:" "$work/$module.log"; then cat "$work/$module.log"; return 1; fi
    echo "  $module: $site/$module/documentation/$lower/"
}

echo "Building the documentation site"
build_module Courier Sources/Courier/Courier.docc docs/*.md
build_module CourierTesting Sources/CourierTesting/CourierTesting.docc
build_module CourierTestServer Sources/CourierTestServer/CourierTestServer.docc

echo "Type-checking the guides' code"
python3 scripts/lib/check_doc_snippets.py "$(swift build --show-bin-path)" README.md docs/*.md Sources/*/*.docc/*.md

cat >"$site/index.html" <<'HTML'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Courier documentation</title></head>
<body>
<h1>Courier documentation</h1>
<ul>
<li><a href="Courier/documentation/courier/">Courier</a>: routers, sessions, services, the engine, and the guides</li>
<li><a href="CourierTesting/documentation/couriertesting/">CourierTesting</a>: stubs, recording and replay for your tests</li>
<li><a href="CourierTestServer/documentation/couriertestserver/">CourierTestServer</a>: an in-process HTTP server with fault injection</li>
</ul>
</body></html>
HTML
echo "Documentation built without warnings in $site."
echo "Open it with: python3 -m http.server --directory $site 8080   then browse http://127.0.0.1:8080/"
