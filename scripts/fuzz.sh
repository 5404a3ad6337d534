#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ against the package's own sources (Courier,
# CourierSync, CCurlShim) with `-sanitize=fuzzer,address`, then runs them.
#
#   bash scripts/fuzz.sh                 # build, then a smoke run: 5 s per target (CI)
#   bash scripts/fuzz.sh --runs 1000000  # build, then 1,000,000 executions per target
#   bash scripts/fuzz.sh --seconds 60 FormEncoding   # one target, one minute
#   bash scripts/fuzz.sh --build-only    # build every target, run none (scripts/test.sh builds ahead)
#
# Crashes are written to .build/fuzz/crashes/<target>/ and make the script exit non-zero.
# Corpora grow in .build/fuzz/corpus/<target>/ and are reused by later runs.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=(-max_total_time=5)
targets=()
build_only=false
while [ $# -gt 0 ]; do
    case "$1" in
        --build-only) build_only=true; shift ;;
        --runs) mode=(-runs="$2"); shift 2 ;;
        --seconds) mode=(-max_total_time="$2"); shift 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ "${#targets[@]}" -eq 0 ]; then
    for file in Fuzz/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi

out="${COURIER_FUZZ_DIR:-.build/fuzz}"
mkdir -p "$out/modules/CCurlShim"
flags=(-sanitize=fuzzer,address -O -g -swift-version 6 -package-name courier -parse-as-library -warnings-as-errors)

# The libraries are instrumented once; each target links against them. Rebuilt when a source (or
# this script) changes.
stamp="$out/modules/stamp"
if [ ! -f "$stamp" ] || [ -n "$(find Sources/Courier Sources/CourierSync Sources/CCurlShim scripts/fuzz.sh -newer "$stamp" -print -quit)" ]; then
    echo "Building Courier for fuzzing"
    cat > "$out/modules/CCurlShim/module.modulemap" <<MAP
module CCurlShim {
    header "$PWD/Sources/CCurlShim/include/CCurlShim.h"
    export *
}
MAP
    for source in Sources/CCurlShim/*.c; do
        # shellcheck disable=SC2046 # pkg-config prints several flags
        clang -c -O1 -g -fsanitize=address,fuzzer-no-link $(pkg-config --cflags libcurl) -I Sources/CCurlShim/include \
            "$source" -o "$out/modules/shim-$(basename "$source" .c).o"
    done
    swiftc "${flags[@]}" -module-name CourierSync -wmo -emit-module -emit-module-path "$out/modules/CourierSync.swiftmodule" \
        -c Sources/CourierSync/*.swift -o "$out/modules/CourierSync.o"
    mapfile -t sources < <(find Sources/Courier -name '*.swift' | sort)
    # Whole-module optimization with code generation on every core: one object per source file,
    # named in an output file map (the file names are unique across Sources/Courier).
    rm -rf "$out/modules/Courier" && mkdir -p "$out/modules/Courier"
    python3 - "$out/modules/Courier" "${sources[@]}" >"$out/modules/Courier.map.json" <<'PY'
import json, os, sys
folder = sys.argv[1]
print(json.dumps({s: {"object": f"{folder}/{os.path.basename(s)[:-6]}.o"} for s in sys.argv[2:]}))
PY
    swiftc "${flags[@]}" -module-name Courier -enable-testing -wmo -num-threads "$(nproc)" -I "$out/modules" \
        -I Sources/CCurl -I "$out/modules/CCurlShim" -emit-module -emit-module-path "$out/modules/Courier.swiftmodule" \
        -c "${sources[@]}" -output-file-map "$out/modules/Courier.map.json"
    touch "$stamp"
fi

# The targets are linked as separate programs, one compiler per core at a time (each compile is
# single-threaded); each one's output is printed when it ends.
building=()
build_failed=0
finish_oldest_build() {
    local target="${building[0]}"
    building=("${building[@]:1}")
    if ! wait "${build_pids[$target]}"; then
        build_failed=1
        echo "fuzz target $target: build FAILED"
    fi
    cat "$out/bin/$target.build.log"
}
declare -A build_pids
for target in "${targets[@]}"; do
    binary="$out/bin/$target"
    mkdir -p "$out/bin"
    if [ ! -x "$binary" ] || [ "$stamp" -nt "$binary" ] || [ "Fuzz/$target.swift" -nt "$binary" ] \
        || [ -n "$(find Fuzz/Support -newer "$binary" -print -quit)" ]; then
        if [ "${#building[@]}" -ge "$(nproc)" ]; then finish_oldest_build; fi
        echo "Building fuzz target $target"
        rm -f "$binary"
        swiftc "${flags[@]}" -module-name "Fuzz$target" -I "$out/modules" -I Sources/CCurl -I "$out/modules/CCurlShim" \
            "Fuzz/$target.swift" Fuzz/Support/*.swift \
            "$out"/modules/Courier/*.o "$out/modules/CourierSync.o" "$out"/modules/shim-*.o -lcurl -o "$binary" \
            >"$out/bin/$target.build.log" 2>&1 &
        build_pids[$target]=$!
        building+=("$target")
    fi
done
while [ "${#building[@]}" -gt 0 ]; do finish_oldest_build; done
if [ "$build_failed" -ne 0 ]; then exit 1; fi
if "$build_only"; then exit 0; fi

failed=0
for target in "${targets[@]}"; do
    corpus="$out/corpus/$target"
    crashes="$out/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    echo "Fuzzing $target (${mode[*]})"
    # libFuzzer prints the crash itself; Swift's own backtracer can hang a crashing fuzzer.
    dictionary=()
    if [ -f "Fuzz/$target.dict" ]; then dictionary=(-dict="Fuzz/$target.dict"); fi
    if ! SWIFT_BACKTRACE=enable=no "$out/bin/$target" "${mode[@]}" "${dictionary[@]}" -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" \
        >"$out/$target.log" 2>&1; then
        failed=$((failed + 1))
        tail -40 "$out/$target.log"
        echo "fuzz $target: FAILED (log: $out/$target.log, inputs: $crashes/)"
    else
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz $target: passed, $runs executions"
    fi
done
exit "$failed"
