import Courier
import CourierSync
import Dispatch
import Foundation

/// A clock for tests: time moves only when waits are scheduled (``Mode/immediate``) or when the
/// test calls ``advance(by:)``, and every wait asked for is recorded.
///
/// ```swift
/// let clock = TestClock()
/// var configuration = Session.Configuration()
/// configuration.retryPolicy = .default
/// configuration.clock = clock
/// _ = await Session(configuration: configuration).request(.url(url)).response()
/// XCTAssertEqual(clock.scheduledDelays, [3])          // the server's Retry-After: 3
/// ```
public final class TestClock: CourierClock {
    /// When scheduled work runs.
    public enum Mode: Sendable {
        /// At once: the clock jumps forward by the delay and runs the work (on a global queue).
        case immediate
        /// When ``TestClock/advance(by:)`` moves the clock past the work's deadline.
        case manual
    }

    private struct Pending {
        let deadline: Date
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: Date
        var delays: [TimeInterval] = []
        var pending: [Pending] = []
    }

    private let mode: Mode
    private let state: Locked<State>

    /// A clock reading `now` (default: 2023-11-14 22:13:20 UTC), in `mode`.
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000), mode: Mode = .immediate) {
        self.mode = mode
        state = Locked(State(now: now))
    }

    /// The clock's current time.
    public var now: Date { state.withLock { $0.now } }

    /// Every delay passed to ``schedule(after:_:)``, in order.
    public var scheduledDelays: [TimeInterval] { state.withLock { $0.delays } }

    /// How much work waits for ``advance(by:)`` (always 0 in ``Mode/immediate``).
    package var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Waits, in real time and for at most `timeout` seconds, until at least `count` pieces of
    /// work wait for ``advance(by:)``: call it before advancing, so that the request under test
    /// has reached its wait (a delayed stub, a backoff). Throws `CourierError.timedOut` otherwise,
    /// its reason saying how many were pending against how many were awaited (and
    /// `CourierError.cancelled` when the waiting task is cancelled).
    /// ```swift
    /// let clock = TestClock(mode: .manual)
    /// let stubs = StubTransport(behavior: .delayed(seconds: 5), clock: clock)
    /// let response = Task { await Session(transport: stubs).request(.url(url)).response() }
    /// try await clock.waitUntilPending()
    /// clock.advance(by: 5)                  // the stub answers now
    /// ```
    public func waitUntilPending(count: Int = 1, timeout: TimeInterval = 10) async throws(CourierError) {
        let deadline = Date().addingTimeInterval(timeout)
        while pendingCount < count {
            guard Date() < deadline else {
                throw CourierError(
                    .timedOut,
                    reason: "TestClock.waitUntilPending: \(pendingCount) piece(s) of work pending after "
                        + "\(timeout) s, \(count) awaited")
            }
            do {
                try await Task.sleep(nanoseconds: 1_000_000)
            } catch {
                throw .cancelled
            }
        }
    }

    /// Records the wait; runs `work` at once (``Mode/immediate``) or when the clock reaches it.
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            state.delays.append(delay)
            switch mode {
            case .immediate:
                state.now += max(0, delay)
                return true
            case .manual:
                if delay <= 0 { return true }
                state.pending.append(Pending(deadline: state.now + delay, work: work))
                return false
            }
        }
        if runNow { DispatchQueue.global().async(execute: work) }
    }

    /// Moves the clock forward and runs (on a global queue) the work that came due.
    public func advance(by seconds: TimeInterval) {
        let due: [Pending] = state.withLock { state in
            state.now += seconds
            let now = state.now
            let due = state.pending.filter { $0.deadline <= now }
            state.pending.removeAll { $0.deadline <= now }
            return due
        }
        for item in due { DispatchQueue.global().async(execute: item.work) }
    }
}
