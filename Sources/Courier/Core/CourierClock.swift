import Dispatch
import Foundation

/// Where Courier reads the time and schedules waits: retry backoff, `Retry-After` dates and the
/// waits a ``RequestInterceptor`` asks for.
///
/// The default uses the wall clock and a global dispatch queue. Tests inject
/// their own (`TestClock` in CourierTesting) to check delays without sleeping:
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.clock = clock      // records every backoff, fires it at once
/// ```
public protocol CourierClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Runs `work` once, `delay` seconds from now (at once for a delay of zero or less), on any
    /// thread except the caller's stack.
    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void)
}

/// The wall clock; waits run on a global dispatch queue.
package struct SystemClock: CourierClock {
    /// Creates the system clock.
    package init() {}

    /// `Date()`.
    package var now: Date { Date() }

    /// Schedules `work` on a global queue after `delay` seconds.
    package func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        if delay > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }
}
