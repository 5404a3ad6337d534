import Synchronization

/// Where a value produced on one thread meets the task waiting for it: whichever comes second
/// hands it over, exactly once.
///
/// The value travels through a ``Locked`` slot, and the continuation only says that it is there.
/// Swift's continuations do synchronize, but when the value arrives before the task has finished
/// suspending, the concurrency runtime (which is not instrumented) hands it over in a way
/// ThreadSanitizer cannot see, and every field of an object built on the delivering thread is
/// reported as a data race. Passing through the mutex makes the handoff visible, so those reports
/// are gone and any left are real.
///
/// ``isFilled`` can be read without the lock, so a waiter may watch for the value (spin) before it
/// suspends with ``wait()``.
package final class HandoffSlot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())
    private let filled = Atomic<Bool>(false)

    package init() {}

    /// Stores the value and resumes the task suspended in ``wait()``, if there is one. Call once,
    /// from any thread.
    package func fill(_ value: Value) {
        let waiter = state.withLock { state in
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        filled.store(true, ordering: .releasing)
        waiter?.resume()
    }

    /// Whether the value is in; lock-free.
    package var isFilled: Bool { filled.load(ordering: .acquiring) }

    /// The value, if it is in.
    package var value: Value? {
        guard isFilled else { return nil }
        return state.withLock { $0.value }
    }

    /// Suspends until the value is in (at once if it already is) and returns it.
    package func wait() async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.value != nil { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.value! }
    }
}

/// Suspends the calling task until `start`'s `deliver` callback (called exactly once, from any
/// thread) hands over a value, and returns that value (through a ``HandoffSlot``).
package func awaitHandoff<Value: Sendable>(
    _ start: (_ deliver: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    let slot = HandoffSlot<Value>()
    start { slot.fill($0) }
    return await slot.wait()
}
