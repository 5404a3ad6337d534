#!/usr/bin/env bash
# Differential fuzzing of CourierJSONDecoder against Foundation's JSONDecoder
# (Fuzz/JSONDecoding.swift), with libFuzzer and AddressSanitizer. Any difference in outcome, a
# crash or a memory error stops the run and keeps the input.
#
#   bash scripts/fuzz-json.sh                   # smoke run: 30 seconds (what CI runs)
#   bash scripts/fuzz-json.sh --seconds 3600    # a long run
#   bash scripts/fuzz-json.sh --runs 1000000
#
# Only the decoder's sources (Sources/Courier/JSON) and CourierSync are compiled, so the build
# needs no libcurl. Inputs that fail land in .build/fuzz-json/crashes/; the corpus grows in
# .build/fuzz-json/corpus/ and is reused by later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swiftc >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi

mode=(-max_total_time=30)
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) mode=(-max_total_time="$2"); shift 2 ;;
        --runs) mode=(-runs="$2"); shift 2 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done

out="${COURIER_FUZZ_DIR:-.build/fuzz-json}"
mkdir -p "$out/modules" "$out/corpus" "$out/crashes"
flags=(-sanitize=fuzzer,address -O -g -swift-version 6 -package-name courier -parse-as-library)
binary="$out/JSONDecoding"
if [ ! -x "$binary" ] || [ -n "$(find Sources/Courier/JSON Sources/CourierSync Fuzz/JSONDecoding.swift -newer "$binary" -print -quit)" ]; then
    echo "Building the JSONDecoding fuzz target (log: $out/build.log)"
    {
        swiftc "${flags[@]}" -module-name CourierSync -wmo -emit-module -emit-module-path "$out/modules/CourierSync.swiftmodule" \
            -c Sources/CourierSync/*.swift -o "$out/modules/CourierSync.o" \
        && swiftc "${flags[@]}" -module-name Courier -wmo -I "$out/modules" -emit-module \
            -emit-module-path "$out/modules/Courier.swiftmodule" -c Sources/Courier/JSON/*.swift -o "$out/modules/Courier.o" \
        && swiftc "${flags[@]}" -module-name FuzzJSONDecoding -I "$out/modules" Fuzz/JSONDecoding.swift \
            "$out/modules/Courier.o" "$out/modules/CourierSync.o" -o "$binary"
    } > "$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" >&2; echo "fuzz JSONDecoding: build FAILED" >&2; exit 1; }
fi

# Seeds: one document of each shape the models read, under every strategy selector.
if [ -z "$(ls -A "$out/corpus")" ]; then
    seeds=('{"id":1,"userName":"a","score":1.5,"ratio":0.25,"small":-8,"big":18446744073709551615,"flags":[true,false],"createdAt":"2024-05-01T12:00:00Z","blob":"aGVsbG8=","link":"https://example.com/a","amount":19.99,"tags":{"x":1},"children":[{"id":2}]}'
           '[{"id":1,"user_name":"b","created_at":1700000000,"blob":[1,2,3]},{"children":[]}]'
           '{"a":[1,"two",null,{"b":[]}],"super":{"c":"\u00e9\ud83d\ude00"},"d":1e400}' '[1,2.5,"x",null,true,[],{}]' '"text"' '-0')
    index=0
    for seed in "${seeds[@]}"; do
        for selector in 0 1 2 4 6 8 16 31; do
            printf "\\x$(printf %02x "$selector")%s" "$seed" > "$out/corpus/seed-$index-$selector"
        done
        index=$((index + 1))
    done
fi

echo "Fuzzing JSONDecoding (${mode[*]})"
if ! "$binary" "${mode[@]}" -dict=Fuzz/JSONDecoding.dict -artifact_prefix="$out/crashes/" -print_final_stats=1 \
        "$out/corpus" > "$out/JSONDecoding.log" 2>&1; then
    tail -40 "$out/JSONDecoding.log"
    echo "fuzz JSONDecoding: FAILED (log: $out/JSONDecoding.log, inputs: $out/crashes/)"
    exit 1
fi
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/JSONDecoding.log" | grep -o '[0-9]*$' || echo "?")
echo "fuzz JSONDecoding: passed, $runs executions"
