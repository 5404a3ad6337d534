import BenchmarkFixtures
import Dispatch
import Foundation
import CourierSync
import Synchronization

/// What one workload run produced.
struct Measurement {
    var seconds: Double
    var cpuSeconds: Double
    var bytes: Int
}

/// Wall-clock and CPU time of the code between `start()` and `stop(bytes:)`.
struct Stopwatch {
    private var wallStart = DispatchTime.now()
    private var cpuStart = Stopwatch.cpuTime()

    mutating func start() {
        cpuStart = Self.cpuTime()
        wallStart = DispatchTime.now()
    }

    func stop(bytes: Int) -> Measurement {
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart.uptimeNanoseconds) / 1e9
        return Measurement(seconds: wall, cpuSeconds: Self.cpuTime() - cpuStart, bytes: bytes)
    }

    /// User plus system CPU time of the whole process, every thread included.
    static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// The process's peak resident set size (VmHWM) in KiB, or -1.
func peakRSSKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst(6).filter(\.isNumber)
        return Int(digits) ?? -1
    }
    return -1
}

/// A thread-safe counter shared by concurrent workers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    /// Returns the value before adding `amount`.
    func add(_ amount: Int = 1) -> Int {
        value.wrappingAdd(amount, ordering: .relaxed).oldValue
    }

    var current: Int { value.load(ordering: .relaxed) }
}

/// Runs async work from synchronous code and waits for it. The process's main stays synchronous
/// so that the same binary also runs under valgrind (which cannot run an async main).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        box.value.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try box.value.withLock { $0! }.get()
}

private final class ResultBox<T: Sendable>: Sendable {
    let value = Locked<Result<T, any Error>?>(nil)
}

/// Runs `one` (a blocking request) `warmup` times, then `count` times on the clock, and measures
/// the bytes the requests added to `bytes`; throws if any request counted a failure.
func measureBlocking(count: Int, warmup: Int, bytes: Counter, failures: Counter, one: () -> Void) throws -> Measurement {
    for _ in 0..<warmup { one() }
    var clock = Stopwatch()
    let before = bytes.current
    clock.start()
    for _ in 0..<count { one() }
    let measurement = clock.stop(bytes: bytes.current - before)
    if failures.current > 0 { throw BenchmarkFailure("\(failures.current) requests failed") }
    return measurement
}
