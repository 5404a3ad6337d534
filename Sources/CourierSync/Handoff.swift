/// Suspends the calling task until `start`'s `deliver` callback (called exactly once, from any
/// thread) hands over a value, and returns that value.
///
/// The value travels through a ``Locked`` slot besides the continuation. Swift's continuations do
/// synchronize, but when the value arrives before the task has finished suspending, the
/// concurrency runtime (which is not instrumented) hands it over in a way ThreadSanitizer cannot
/// see, and every field of an object built on the delivering thread is reported as a data race.
/// Passing through the mutex makes the handoff visible, so those reports are gone and any left
/// are real.
package func awaitHandoff<Value: Sendable>(
    _ start: (_ deliver: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    let slot = Locked<Value?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        start { value in
            slot.withLock { $0 = value }
            continuation.resume()
        }
    }
    return slot.withLock { $0! }
}
