#!/usr/bin/env bash
# Builds the later parts of scripts/test.sh ahead of time, in turn (the generator's check beside the
# fuzz build), so that their builds use the core the running tests leave idle (a test run mostly
# waits on sockets and timers: the plain suite uses about half of one core). scripts/test.sh
# starts this in the background at the lowest CPU priority (`nice -n 19`), so it takes only CPU
# time nothing else wants.
#
#   bash scripts/lib/build-ahead.sh DIR PART...
#
# PART is tsan, asan (scripts/lib/build-sanitized.sh: the test bundle and the programs its tests
# start, under that sanitizer, in the scratch path scripts/test.sh uses), budget (the release builds
# of AllocationBudget and InstructionBudget), fuzz (scripts/fuzz.sh --build-only) or generator (the whole of
# scripts/generator-check.sh, which is a build: its log is the result). They run in the order
# given, but for generator, which runs beside fuzz when both are asked for.
# When a part's step has ended, its exit code is written to DIR/PART. Nothing here decides a
# result: each part of scripts/test.sh waits for its step, then builds again in the foreground
# (nothing is left to do when the step succeeded, and the same errors appear when it did not), and
# the generator's log is read as if the check had run in the foreground.
set -uo pipefail
cd "$(dirname "$0")/../.."
# Started in a session of its own (setsid). Where Linux schedules by session (autogroup, on unless
# the tasks sit in a CPU cgroup), sessions share the CPU equally whatever their tasks' nice values,
# so the session itself is set to the lowest priority too.
if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup 2>/dev/null || true; fi
dir="$1"
shift
# run_part PART: the step for PART, then its exit code in DIR/PART.
run_part() {
    case "$1" in
        tsan) bash scripts/lib/build-sanitized.sh --sanitize=thread --scratch-path .build/tsan >.build/build-tsan.log 2>&1 ;;
        asan) bash scripts/lib/build-sanitized.sh --sanitize=address --scratch-path .build/asan >.build/build-asan.log 2>&1 ;;
        budget)
            swift build -c release --product AllocationBudget --scratch-path .build/budget \
                >.build/build-budget.log 2>&1 \
                && swift build -c release --product InstructionBudget --scratch-path .build/budget \
                    >>.build/build-budget.log 2>&1
            ;;
        fuzz) bash scripts/fuzz.sh --build-only >.build/build-fuzz.log 2>&1 ;;
        generator) bash scripts/generator-check.sh >.build/test-output-generator.log 2>&1 ;;
        *) echo "build-ahead: unknown part $1" >&2; false ;;
    esac
    echo "$?" >"$dir/$1"
}
# The generator's check runs beside the fuzz build, which alone keeps 1.3 cores busy on average (a
# whole-module compile of Courier, then one compiler per target); with no fuzz part it runs in turn.
beside_fuzz=false
if [[ " $* " == *" fuzz "* && " $* " == *" generator "* ]]; then beside_fuzz=true; fi
for part in "$@"; do
    if "$beside_fuzz" && [ "$part" = generator ]; then continue; fi
    if "$beside_fuzz" && [ "$part" = fuzz ]; then
        run_part generator &
        run_part fuzz
        wait
    else
        run_part "$part"
    fi
done
