import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A point on the system's monotonic clock, in nanoseconds: the engine's time for deadlines,
/// idle limits and progress pacing.
///
/// Why not `ContinuousClock.Instant`: the standard library keeps that type's layout private
/// (it is not frozen), so every struct that holds one, and every `Optional` of it, is copied and
/// destroyed through runtime witnesses instead of plain loads and stores. On W1 that cost about
/// 3,000 instructions per request (see Benchmarks/EXPERIMENTS.md). This is one `Int64`.
///
/// The arithmetic mirrors `ContinuousClock.Instant`'s (`+`, `-` with a `Duration`, the
/// `Duration` between two instants), so code reads the same.
struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an arbitrary, fixed point (the system's boot, on Linux).
    let nanoseconds: Int64

    init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Now, read from `CLOCK_MONOTONIC`.
    static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// This instant moved by `milliseconds` (saturating, so a huge limit means "far away").
    func adding(milliseconds: Int) -> MonotonicInstant {
        let (scaled, overflowScaling) = Int64(clamping: milliseconds).multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflowAdding) = nanoseconds.addingReportingOverflow(scaled)
        if overflowScaling || overflowAdding { return MonotonicInstant(nanoseconds: milliseconds < 0 ? .min : .max) }
        return MonotonicInstant(nanoseconds: sum)
    }

    /// Whole milliseconds from this instant until `later`, rounded up; negative when `later` has
    /// passed.
    func milliseconds(until later: MonotonicInstant) -> Int64 {
        let (difference, overflow) = later.nanoseconds.subtractingReportingOverflow(nanoseconds)
        if overflow { return later.nanoseconds > nanoseconds ? .max / 1_000_000 : .min / 1_000_000 }
        if difference <= 0 { return difference / 1_000_000 }
        return difference / 1_000_000 + (difference % 1_000_000 == 0 ? 0 : 1)
    }

    /// Seconds from `earlier` to this instant.
    func seconds(since earlier: MonotonicInstant) -> TimeInterval {
        TimeInterval(nanoseconds &- earlier.nanoseconds) / 1e9
    }

    static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: instant.nanoseconds &+ duration.nanosecondCount)
    }

    static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: instant.nanoseconds &- duration.nanosecondCount)
    }

    static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds &- earlier.nanoseconds)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanosecondCount: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowAdding) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowAdding { return seconds < 0 ? .min : .max }
        return sum
    }
}
