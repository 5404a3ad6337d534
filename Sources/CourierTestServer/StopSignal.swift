import Foundation

/// A one-way "the server is stopping" flag that sleeping connection threads can wait on,
/// so delays and trickles end promptly at shutdown instead of sleeping on.
///
/// `@unchecked Sendable` is justified: the only mutable state, `stopped`, is read and
/// written exclusively while holding `condition`'s lock, and `NSCondition` itself is
/// designed for cross-thread use.
final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false

    /// Whether ``stop()`` has been called.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Sets the flag and wakes every sleeper. Idempotent.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps for `milliseconds` unless stopped first. Returns `true` if the full time
    /// elapsed, `false` if the server is (or became) stopped.
    func sleep(milliseconds: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, milliseconds)) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return !stopped
    }
}
