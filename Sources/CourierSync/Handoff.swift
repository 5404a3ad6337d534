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
public final class HandoffSlot<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var value: Value?
        @usableFromInline var waiter: UnsafeContinuation<Void, Never>?

        @usableFromInline
        init() {}
    }

    @usableFromInline let state = Locked(State())
    @usableFromInline let filled = Atomic<Bool>(false)

    /// An empty slot.
    ///
    /// The slot's members are inlinable so that each use is compiled for its value type: as
    /// generic code called across modules, handing over one response looked up the slot's type
    /// metadata twice and copied the value through its witnesses, on the engine thread.
    @inlinable
    public init() {}

    /// Stores the value and resumes the task suspended in ``wait()``, if there is one. Call once,
    /// from any thread.
    @inlinable
    public func fill(_ value: consuming Value) {
        var value: Value? = value
        let waiter = state.withLock { state in
            state.value = value.take()
            defer { state.waiter = nil }
            return state.waiter
        }
        filled.store(true, ordering: .releasing)
        waiter?.resume()
    }

    /// Whether the value is in; lock-free.
    @inlinable
    public var isFilled: Bool { filled.load(ordering: .acquiring) }

    /// The value, if it is in.
    @inlinable
    public var value: Value? {
        guard isFilled else { return nil }
        return state.withLock { $0.value }
    }

    /// Suspends until the value is in (at once if it already is) and returns it.
    ///
    /// The continuation is an unsafe one (a checked one allocates a canary object for each wait):
    /// it is resumed exactly once, either here when the value is already in, or by the one
    /// ``fill(_:)``, which takes it out of the state under the lock.
    @inlinable
    public func wait() async -> Value {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
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
public func awaitHandoff<Value: Sendable>(
    _ start: (_ deliver: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    let slot = HandoffSlot<Value>()
    start { slot.fill($0) }
    return await slot.wait()
}
