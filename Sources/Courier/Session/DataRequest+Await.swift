import CourierSync
import Dispatch
import Synchronization

/// Awaiting a request from `async` code.
///
/// The transfer's completion runs on the engine thread and only fills a `HandoffSlot`; if the
/// awaiting task is suspended it resumes it there, which enqueues the task on its executor: no
/// user code runs on the engine thread. When a session has only one request awaited at a time
/// (a sequential caller), the awaiting task first spins briefly (see ``AwaitSpinner``): a small
/// request often completes within that window, and the task then continues without suspending,
/// so the engine thread has no thread to wake.
extension DataRequest {
    /// Waits for the outcome, cancelling the request if the awaiting task is cancelled.
    func outcome() async -> Outcome {
        // A task cancelled before it awaits never sends: without this, whether the request went
        // out depended on how soon the engine thread picked it up before the cancel came.
        if Task.isCancelled { cancel() }
        let slot = HandoffSlot<Outcome>()
        let spinner = session.awaitSpinner
        let alone = spinner.enter()
        defer { spinner.leave() }
        whenComplete { slot.fill($0) }
        guard alone, spinner.isEnabled else { return await suspend(until: slot) }
        let start = DispatchTime.now().uptimeNanoseconds
        if let outcome = spinner.spin(on: slot, since: start) { return outcome }
        let outcome = await suspend(until: slot)
        spinner.observe(wait: DispatchTime.now().uptimeNanoseconds - start)
        return outcome
    }

    private func suspend(until slot: HandoffSlot<Outcome>) async -> Outcome {
        await withTaskCancellationHandler {
            await slot.wait()
        } onCancel: {
            self.cancel()
        }
    }
}

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

    /// Watches `slot` for up to the policy's window; the outcome (and the wait observed) if it
    /// arrived.
    func spin(on slot: HandoffSlot<DataRequest.Outcome>, since start: UInt64) -> DataRequest.Outcome? {
        let window = policy.withLock { $0.nextWindow() }
        let result = SpinPolicy.spin(window: window, since: start) { slot.isFilled || Task.isCancelled }
        policy.withLock { $0.observe(result) }
        guard case .arrived(let waited) = result, let outcome = slot.value else { return nil }
        observe(wait: waited)
        return outcome
    }

    /// Records how long an outcome took to arrive after its task began to wait.
    func observe(wait: UInt64) {
        policy.withLock { $0.observe(wait: wait) }
    }
}
