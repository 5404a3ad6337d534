import Foundation
import Synchronization

/// A one-way "the server is stopping" flag that sleeping connection threads can wait on,
/// so delays and trickles end promptly at shutdown instead of sleeping on.
///
/// The flag is an atomic, set and waited on while holding `condition`'s lock (so a sleeper
/// cannot miss the broadcast); `NSCondition` is made for use across threads.
final class StopSignal: Sendable {
    private let condition = NSCondition()
    private let stopped = Atomic<Bool>(false)

    /// Whether ``stop()`` has been called.
    var isStopped: Bool {
        stopped.load(ordering: .acquiring)
    }

    /// Sets the flag and wakes every sleeper. Idempotent.
    func stop() {
        condition.lock()
        stopped.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps for `milliseconds` unless stopped first. Returns `true` if the full time
    /// elapsed, `false` if the server is (or became) stopped.
    func sleep(milliseconds: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, milliseconds)) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while !isStopped {
            if !condition.wait(until: deadline) { break }
        }
        return !isStopped
    }
}
