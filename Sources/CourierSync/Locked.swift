#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// CourierSync is an implementation module, not a product: nothing here is Courier's API. Its
// declarations are `public` (with `@inlinable` members) rather than `package` because Swift 6.3
// does not inline or specialize an `@inlinable package` function in another module: Courier then
// called the generic `withLock` (and `HandoffSlot`) about 13 times per request, looking up type
// metadata each time. Measured with callgrind: W1 137.9k -> 136.2k and W2 143.0k -> 137.4k
// instructions per request (Benchmarks/EXPERIMENTS.md).

/// A value guarded by a `pthread_mutex_t`.
///
/// Courier uses this instead of `Synchronization.Mutex`: on Linux, `Mutex` locks through a
/// futex path that ThreadSanitizer does not intercept, so a correctly locked counter is reported
/// as a race. TSan understands `pthread_mutex_lock`/`unlock`, so every report left under
/// `--sanitize=thread` is a real race.
///
/// The API mirrors `Mutex`: `withLock { value in ... }`. The closure must not call `withLock`
/// on the same lock again (the mutex is not recursive). Copies of a `Locked` share one value and
/// one mutex, kept together in one allocation (``LockedStorage``).
///
/// `@unchecked Sendable` holds because the value is never reached except through ``withLock(_:)``,
/// which holds the mutex for the whole access (`storage` is visible only so that `withLock`
/// can be inlined; nothing else in the package reads it).
public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline
    let storage: LockedStorage<Value>

    /// Creates a lock guarding `value`.
    @inlinable
    public init(_ value: consuming Value) {
        storage = LockedStorage.make(value)
    }

    /// Creates a lock guarding the value `make` returns, made where the lock keeps it: a large
    /// value (a request's state) is then written once, not made and moved in (each move of it
    /// is a copy of all its bytes).
    @inlinable
    public init(making make: () -> Value) {
        storage = LockedStorage.make(with: make)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// Inlinable, so that callers in other modules get it specialized for their value and result
    /// (a generic call costs more than the lock itself on a request's path).
    @inlinable @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}

/// The value (the header) and its mutex (the one element) of a ``Locked``, in one allocation.
///
/// The value is reached only through a pointer while the mutex is held, so the runtime's dynamic
/// exclusivity check has nothing to check: the mutex makes every access exclusive.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A storage holding `value`, with its mutex initialized.
    @inlinable
    static func make(_ value: consuming Value) -> LockedStorage<Value> {
        // Moved into the buffer through an optional: a value captured by the closure and
        // returned from it would be copied, and the original destroyed (a request's state is
        // large enough for that to show).
        var pending = Optional(value)
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(mutex, nil)
                precondition(status == 0, "pthread_mutex_init failed with \(status)")
            }
            return pending.take()!
        }
        return unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    }

    /// A storage holding the value `make` returns (returned straight into the buffer's header).
    @inlinable
    static func make(with make: () -> Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(mutex, nil)
                precondition(status == 0, "pthread_mutex_init failed with \(status)")
            }
            return make()
        }
        return unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    }

    deinit {
        // The header (the value) is destroyed by ManagedBuffer; the element is ours.
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}
