#!/usr/bin/env bash
# courier-generate against third-party documents (docs/generator.md): every OpenAPI document in
# ../shared/data/openapi (beside the clone, when present) is generated into one target of a
# temporary package that depends on Courier by path, and the package is built in Swift 6 mode with
# warnings as errors. A document the tool rejects must be rejected with a message naming a JSON
# pointer (never a crash); that is a pass, reported with the message. Prints one line per document:
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
swift build --product courier-generate >/dev/null || { echo "generator build: FAILED"; exit 1; }
tool="$(swift build --show-bin-path)/courier-generate"
rm -rf "$work/Sources" && mkdir -p "$work/Sources"
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
{
    echo '// swift-tools-version:6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "GeneratorCheck",'
    echo "    dependencies: [.package(name: \"Courier\", path: \"$root\")],"
    echo '    targets: ['
    for target in "${targets[@]}"; do
        echo "        .target(name: \"$target\", dependencies: [.product(name: \"Courier\", package: \"Courier\")],"
        echo "            swiftSettings: [.unsafeFlags([\"-warnings-as-errors\"])]),"
    done
    echo '    ],'
    echo '    swiftLanguageModes: [.v6]'
    echo ')'
} >"$work/Package.swift"
failed=0
for name in $(printf '%s\n' "${!outcome[@]}" | sort); do
    result="${outcome[$name]}"
    case "$result" in
        rejected:*) echo "generator $name: passed ($result)" ;;
        FAILED*) echo "generator $name: $result"; failed=$((failed + 1)) ;;
        *)
            if swift build --package-path "$work" --target "$result" >"$work/$result.log" 2>&1; then
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
