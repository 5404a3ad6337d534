import CourierSync
import Foundation

/// Virtual time for tests: nothing scheduled on it happens until the test advances it, so
/// delays are tested without sleeping and without timing assertions.
///
/// ```swift
/// let clock = TestClock()
/// let stubs = StubTransport(behavior: .delayed(seconds: 5), clock: clock)
/// let response = Task { await Session(transport: stubs).request(Ping.ping).response() }
/// try await clock.waitUntilScheduled()      // the stub is waiting for virtual time
/// clock.advance(by: 5)                      // ...and answers now
/// ```
public final class TestClock: Sendable {
    private struct Entry {
        let due: TimeInterval
        let order: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: TimeInterval = 0
        var nextOrder = 0
        var entries: [Entry] = []
    }

    private let state = Locked(State())

    /// Creates a clock at time zero.
    public init() {}

    /// Seconds this clock has been advanced by.
    public var now: TimeInterval { state.withLock { $0.now } }

    /// How many scheduled actions have not run yet.
    public var scheduledCount: Int { state.withLock { $0.entries.count } }

    /// Runs `action` once the clock has been advanced `seconds` past the current time (at the
    /// next ``advance(by:)`` call when `seconds` is zero or less).
    public func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.entries.append(Entry(due: state.now + max(0, seconds), order: state.nextOrder, action: action))
            state.nextOrder += 1
        }
    }

    /// Moves time forward by `seconds`, running every action that falls due, earliest first
    /// (ties in scheduling order), on the calling thread. Actions scheduled while advancing run
    /// too if they fall due within the same advance.
    public func advance(by seconds: TimeInterval) {
        let target = state.withLock { $0.now + max(0, seconds) }
        while let entry = nextDue(before: target) {
            entry.action()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Removes and returns the earliest action due at or before `target`, moving `now` to it.
    private func nextDue(before target: TimeInterval) -> Entry? {
        state.withLock { state in
            guard let index = state.entries.indices.filter({ state.entries[$0].due <= target })
                .min(by: { (state.entries[$0].due, state.entries[$0].order) < (state.entries[$1].due, state.entries[$1].order) })
            else { return nil }
            let entry = state.entries.remove(at: index)
            state.now = max(state.now, entry.due)
            return entry
        }
    }

    /// Waits (in real time, up to `timeout` seconds) until at least `count` actions are
    /// scheduled: call it before ``advance(by:)`` so the request under test has reached the
    /// point where it waits. Throws ``TestClockTimeout`` if that never happens.
    public func waitUntilScheduled(count: Int = 1, timeout: TimeInterval = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while scheduledCount < count {
            guard Date() < deadline else { throw TestClockTimeout(expected: count, scheduled: scheduledCount) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// ``TestClock/waitUntilScheduled(count:timeout:)`` gave up: fewer actions were scheduled than expected.
public struct TestClockTimeout: Error, Sendable, CustomStringConvertible {
    /// How many scheduled actions the test waited for.
    public let expected: Int
    /// How many there were when it gave up.
    public let scheduled: Int

    /// Says what was expected and found.
    public var description: String {
        "TestClock: waited for \(expected) scheduled action(s), found \(scheduled)"
    }
}
