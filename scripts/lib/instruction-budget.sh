#!/usr/bin/env bash
# Instructions per request, counted under callgrind: the budget scripts/test.sh holds beside the
# allocation budget (docs/performance.md).
#
#   bash scripts/lib/instruction-budget.sh INSTRUCTION_BUDGET_BINARY BASE_URL HANDLER_BUDGET ASYNC_BUDGET
#
# Runs InstructionBudget (Benchmarks/InstructionBudget) under callgrind with 200 and then 600
# sequential GETs of 1,200 bytes from httpbin at BASE_URL, with a completion handler and awaited.
# The difference of the two totals over the 400 requests more is what one request costs: every
# thread of the client (Courier, libcurl, the Swift runtime), start-up and warm-up left out; the
# server is another process. Prints one line per form; exits 1 when a form passes its budget or a
# run fails. Installs valgrind (and objcopy) when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/prerequisites.sh
binary="$1"
url="$2"
declare -A budget=([handler]="$3" [async]="$4")
missing=()
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 gives up on the DWARF 5 debug information clang writes for C files; a copy without
# debug information keeps the symbols.
objcopy --strip-debug "$binary" "$work/InstructionBudget"
total() { awk '/^summary:/ { print $2; found = 1; exit } /^totals:/ { t = $2 } END { if (!found && t) print t }' "$1"; }
status=0
for form in handler async; do
    counts=()
    for requests in 200 600; do
        out="$work/$form.$requests"
        if ! valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$out.callgrind" \
                "$work/InstructionBudget" "$url" "$form" "$requests" >"$out.log" 2>&1; then
            tail -20 "$out.log"
            echo "instructions per request, $form: the run of $requests requests failed"
            status=1
            continue 2
        fi
        counts+=("$(total "$out.callgrind")")
    done
    python3 - "$form" "${counts[0]}" "${counts[1]}" "${budget[$form]}" <<'PY' || status=1
import sys
form, first, second, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
per_request = (second - first) / 400
verdict = "within" if per_request <= budget else "OVER"
print(f"instructions per request, {form}: {per_request:,.0f} ({verdict} the budget of {budget:,.0f})")
sys.exit(0 if per_request <= budget else 1)
PY
done
exit "$status"
