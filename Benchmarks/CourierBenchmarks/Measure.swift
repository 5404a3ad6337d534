import BenchmarkFixtures
import Dispatch
import Foundation
import CourierSync
import Synchronization

/// What one workload run produced.
struct Measurement {
    var seconds: Double
    var usage: ResourceUsage
    var bytes: Int
    /// CPU seconds of the loop thread alone (Courier's engine thread, or the engine model's loop),
    /// part of `usage`; nil when the process has none.
    var loopThreadSeconds: Double?

    var cpuSeconds: Double { usage.userSeconds + usage.systemSeconds }
}

/// CPU time and context switches of the whole process (every thread), from `getrusage`.
struct ResourceUsage {
    var userSeconds: Double
    var systemSeconds: Double
    /// Context switches where a thread gave up the CPU to wait (a futex, poll, read...).
    var voluntarySwitches: Int
    /// Context switches where the scheduler took the CPU from a runnable thread.
    var involuntarySwitches: Int

    static func now() -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return ResourceUsage(
            userSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            systemSeconds: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            voluntarySwitches: usage.ru_nvcsw, involuntarySwitches: usage.ru_nivcsw)
    }

    static func - (end: ResourceUsage, start: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            userSeconds: end.userSeconds - start.userSeconds,
            systemSeconds: end.systemSeconds - start.systemSeconds,
            voluntarySwitches: end.voluntarySwitches - start.voluntarySwitches,
            involuntarySwitches: end.involuntarySwitches - start.involuntarySwitches)
    }
}

/// Wall-clock time, CPU time and context switches of the code between `start()` and `stop(bytes:)`.
struct Stopwatch {
    private var wallStart = DispatchTime.now()
    private var usageStart = ResourceUsage.now()
    private var loopStart: [Int: UInt64] = [:]

    mutating func start() {
        loopStart = LoopThreads.cpuNanoseconds()
        usageStart = ResourceUsage.now()
        wallStart = DispatchTime.now()
    }

    func stop(bytes: Int) -> Measurement {
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart.uptimeNanoseconds) / 1e9
        let usage = ResourceUsage.now() - usageStart
        let loop = LoopThreads.cpuNanoseconds()
        let loopSeconds =
            loop.isEmpty
            ? nil : Double(loop.reduce(0) { $0 + $1.value - min($1.value, loopStart[$1.key] ?? 0) }) / 1e9
        return Measurement(seconds: wall, usage: usage, bytes: bytes, loopThreadSeconds: loopSeconds)
    }
}

/// The loop threads of the process: Courier's engine threads (`courier-engine`) and the engine
/// model's (`engine-model`), found by the names they give themselves.
enum LoopThreads {
    static let names: Set<String> = ["courier-engine", "engine-model"]

    /// CPU nanoseconds each loop thread has run, by thread id (the first field of
    /// `/proc/self/task/<id>/schedstat`: time on a CPU, in nanoseconds).
    static func cpuNanoseconds() -> [Int: UInt64] {
        var result: [Int: UInt64] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            guard let id = Int(task),
                let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                names.contains(name.trimmingCharacters(in: .newlines)),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
                let first = stat.split(separator: " ").first, let nanoseconds = UInt64(first)
            else { continue }
            result[id] = nanoseconds
        }
        return result
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
func measureBlocking(count: Int, warmup: Int, bytes: Counter, failures: Counter, one: () -> Void) throws -> Measurement
{
    for _ in 0..<warmup { one() }
    var clock = Stopwatch()
    let before = bytes.current
    clock.start()
    for _ in 0..<count { one() }
    let measurement = clock.stop(bytes: bytes.current - before)
    if failures.current > 0 { throw BenchmarkFailure("\(failures.current) requests failed") }
    return measurement
}
