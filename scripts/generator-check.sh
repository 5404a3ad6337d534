#!/usr/bin/env bash
# courier-generate against third-party documents (docs/generator.md): every OpenAPI document in
# ../shared/data/openapi (beside the clone, when present) is generated into a module of its own and
# compiled (to SIL) in Swift 6 mode with warnings as errors, against the Courier module of the package's
# debug build (as a target that depends on Courier is compiled; swiftc directly, so Courier is not
# built a second time in another package). A document the tool rejects must be rejected with a
# message naming a JSON pointer (never a crash); that is a pass, reported with the message. Prints
# one line per document:
#   generator <document>: passed (compiled, N files) | passed (rejected: <message>) | FAILED (<why>)
# Exits non-zero if any document failed. COURIER_GENERATOR_DOCS overrides the folder.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
docs="${COURIER_GENERATOR_DOCS:-../shared/data/openapi}"
work=".build/generator-check"
if [ ! -d "$docs" ]; then
    echo "generator: $docs not found, third-party documents skipped"
    exit 0
fi
{ swift build --product courier-generate && swift build --target Courier; } >/dev/null \
    || { echo "generator build: FAILED"; exit 1; }
bin="$(swift build --show-bin-path)"
tool="$bin/courier-generate"
modules="$bin/Modules"
if [ ! -d "$modules" ]; then modules="$bin"; fi
rm -rf "$work" && mkdir -p "$work/Sources"
targets=()
declare -A outcome
for document in "$docs"/*.yaml "$docs"/*.yml "$docs"/*.json; do
    [ -f "$document" ] || continue
    name="$(basename "$document")"
    module="Doc$(echo "${name%.*}" | tr -c 'A-Za-z0-9\n' '_' )"
    message="$("$tool" "$document" --output "$work/Sources/$module" --module-name API --no-format 2>&1)"
    code=$?
    if [ "$code" -eq 0 ]; then
        targets+=("$module")
        outcome[$name]="$module"
    elif [ "$code" -eq 1 ] && grep -q "#" <<<"$message"; then
        outcome[$name]="rejected: ${message#courier-generate: }"
    else
        outcome[$name]="FAILED (exit $code: $message)"
    fi
done
failed=0
for name in $(printf '%s\n' "${!outcome[@]}" | sort); do
    result="${outcome[$name]}"
    case "$result" in
        rejected:*) echo "generator $name: passed ($result)" ;;
        FAILED*) echo "generator $name: $result"; failed=$((failed + 1)) ;;
        *)
            # The flags a package target that depends on Courier is compiled with (`swift build -v`):
            # Courier's module, the module maps of the C modules it imports, Swift 6, -Onone. Without
            # debug information and a module file, which nothing here reads and which only add time
            # (a fifth of it for the largest document): every diagnostic is still made.
            mkdir -p "$work/objects/$result"
            mapfile -t sources < <(find "$PWD/$work/Sources/$result" -name '*.swift' | sort)
            # Whole-module SIL: every diagnostic of a build (type checking and the mandatory SIL
            # passes: definite initialization, unreachable code...) without generating machine code,
            # about half the CPU time of `-c` (Rebilly's 1,408 files: 94 s against 210 s).
            if (cd "$work/objects/$result" && swiftc -module-name "$result" -parse-as-library -swift-version 6 \
                -warnings-as-errors -Onone -wmo -emit-sil -o /dev/null -I "$modules" \
                -Xcc -fmodule-map-file="$bin/CCurlShim.build/module.modulemap" \
                -Xcc -I -Xcc "$root/Sources/CCurlShim/include" -Xcc -fmodule-map-file="$root/Sources/CCurl/module.modulemap" \
                -module-cache-path "$PWD/../ModuleCache" "${sources[@]}") >"$work/$result.log" 2>&1; then
                echo "generator $name: passed (compiled, $(find "$work/Sources/$result" -name '*.swift' | wc -l) files)"
            else
                echo "generator $name: FAILED (does not compile, see $work/$result.log)"
                grep -E "error:" "$work/$result.log" | head -5
                failed=$((failed + 1))
            fi
            ;;
    esac
done
[ "$failed" -eq 0 ]
