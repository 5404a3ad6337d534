import CourierSync
import Dispatch
import Synchronization

/// Decides, per session, whether an awaiting task spins before it suspends: only when it is the
/// session's only awaited request, and for an adaptive window (``SpinPolicy``) that shrinks to
/// nothing when outcomes do not arrive within it (large bodies, slow servers) and grows back when
/// they do. A spin is bounded by ``SpinPolicy/maximumWindow`` and ends early when the task is
/// cancelled. A session created with `spinsBeforeParking` false never spins.
final class AwaitSpinner: Sendable {
    private let awaiting = Atomic<Int>(0)
    private let policy: Locked<SpinPolicy>
    let isEnabled: Bool

    init(enabled: Bool) {
        isEnabled = enabled
        policy = Locked(SpinPolicy(enabled: enabled))
    }

    /// Counts an awaiting task in; true when no other task of the session is awaiting.
    func enter() -> Bool {
        awaiting.wrappingAdd(1, ordering: .relaxed).oldValue == 0
    }

    func leave() {
        awaiting.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Watches `arrived` for up to the policy's window; true (and the wait observed) if it became
    /// true. A cancelled task stops watching.
    func spin(until arrived: () -> Bool, since start: UInt64) -> Bool {
        let window = policy.withLock { $0.nextWindow() }
        let result = SpinPolicy.spin(window: window, since: start) { arrived() || Task.isCancelled }
        policy.withLock { $0.observe(result) }
        guard case .arrived(let waited) = result, arrived() else { return false }
        observe(wait: waited)
        return true
    }

    /// Records how long an outcome took to arrive after its task began to wait.
    func observe(wait: UInt64) {
        policy.withLock { $0.observe(wait: wait) }
    }
}
