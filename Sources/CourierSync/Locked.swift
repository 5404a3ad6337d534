#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// Courier uses this instead of `Synchronization.Mutex`: on Linux, `Mutex` locks through a
/// futex path that ThreadSanitizer does not intercept, so a correctly locked counter is reported
/// as a race. TSan understands `pthread_mutex_lock`/`unlock`, so every report left under
/// `--sanitize=thread` is a real race.
///
/// The API mirrors `Mutex`: `withLock { value in ... }`. The closure must not call `withLock`
/// on the same lock again (the mutex is not recursive).
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only touched inside `withLock`, with the mutex held and without re-entry: the mutex already
    /// makes every access exclusive, so the runtime's dynamic check (about 250 instructions an
    /// access, some 19 accesses per request) is switched off. Measured: W1 instructions per request
    /// (callgrind, `Benchmarks/run.sh --quick --callgrind-only`) in docs/performance.md.
    @exclusivity(unchecked) private var value: Value

    /// Creates a lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
