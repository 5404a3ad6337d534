// The soak: many requests mixing successes, faults, timeouts, retries and cancellations against
// the in-process test server, checking that every one completes exactly once with the expected
// kind of result, and that file descriptors, threads and heap memory come back to their baseline.
//
//   swift run -c release CourierSoak --requests 100000     # the long run (docs/reliability.md)
//   .build/debug/CourierSoak --requests 5000               # the CI variant (scripts/test.sh)
//
// Prints the figures and ends with `soak: passed` or `soak: FAILED (...)` (exit status 1).
import Courier
import CourierSync
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let number = Int(arguments[index + 1].replacingOccurrences(of: "_", with: "")) else { return value }
    return number
}
let requestCount = option("--requests", default: 100_000)
let concurrency = option("--concurrency", default: 32)
let warmUpCount = min(2_000, max(200, requestCount / 10))

say("soak: \(requestCount) requests, \(concurrency) in flight, after a warm-up of \(warmUpCount)")

// Warm-up: fills the caches and pools the runtime keeps for good (Foundation, libcurl's global
// state, dispatch's worker threads), then tears everything down. What is left is the baseline.
var failures: [String] = []
let warmUp = try runMix(count: warmUpCount, concurrency: concurrency)
failures += warmUp.failures.map { "warm-up: \($0)" }
let baseline = settledResources(towards: nil)
say("baseline after warm-up: \(baseline)")

let started = ContinuousClock.now
let run = try runMix(count: requestCount, concurrency: concurrency)
let elapsed = Double((ContinuousClock.now - started).components.seconds)
    + Double((ContinuousClock.now - started).components.attoseconds) / 1e18
failures += run.failures
say("ran \(requestCount) requests in \(String(format: "%.1f", elapsed)) s; outcomes: \(run.tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
say("peak during the run: \(run.peak)")

let after = settledResources(towards: baseline)
say("after teardown: \(after)")
// A leak of one small object per request shows up as at least ~32 bytes × requests.
let heapAllowance = 512 * 1024
if after.fileDescriptors > baseline.fileDescriptors {
    failures.append("file descriptors: \(baseline.fileDescriptors) before, \(after.fileDescriptors) after")
}
if after.threads > baseline.threads {
    failures.append("threads: \(baseline.threads) before, \(after.threads) after")
}
if after.heapBytes > baseline.heapBytes + heapAllowance {
    failures.append("heap: \(after.heapBytes - baseline.heapBytes) bytes more than before (allowed \(heapAllowance))")
}
if failures.isEmpty {
    say("soak: passed")
} else {
    for failure in failures.prefix(20) { say("  \(failure)") }
    say("soak: FAILED (\(failures.count) problems)")
    exit(1)
}

/// Prints a line at once (stdout is block-buffered when piped to a log).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
