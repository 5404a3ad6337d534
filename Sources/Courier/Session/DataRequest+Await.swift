import CourierSync
import Dispatch
import Synchronization

/// Awaiting a request from `async` code.
///
/// The transfer's completion runs on the engine thread and only fills an ``OutcomeSlot``; if the
/// awaiting task is suspended it resumes it there, which enqueues the task on its executor: no
/// user code runs on the engine thread. When a session has only one request awaited at a time
/// (a sequential caller), the awaiting task first spins briefly (see ``AwaitSpinner``): a small
/// request often completes within that window, and the task then continues without suspending,
/// so the engine thread has no thread to wake.
extension DataRequest {
    /// Waits for the outcome, cancelling the request if the awaiting task is cancelled.
    func outcome() async -> Outcome {
        let slot = OutcomeSlot()
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

    private func suspend(until slot: OutcomeSlot) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                slot.wait(continuation)
            }
        } onCancel: {
            self.cancel()
        }
    }
}

/// Where a request's outcome meets the task awaiting it: whichever comes second hands it over.
final class OutcomeSlot: Sendable {
    private struct State {
        var outcome: DataRequest.Outcome?
        var continuation: CheckedContinuation<DataRequest.Outcome, Never>?
    }

    private let state = Locked(State())
    /// Set once the outcome is in; read without the lock while spinning.
    private let isFilled = Atomic<Bool>(false)

    /// Stores the outcome and resumes the waiting task, if one is suspended. Any thread.
    func fill(_ outcome: DataRequest.Outcome) {
        let continuation = state.withLock { state in
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        isFilled.store(true, ordering: .releasing)
        continuation?.resume(returning: outcome)
    }

    /// Resumes `continuation` with the outcome now, or when it arrives.
    func wait(_ continuation: CheckedContinuation<DataRequest.Outcome, Never>) {
        let ready: DataRequest.Outcome? = state.withLock { state in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// The outcome, if it is in.
    var outcome: DataRequest.Outcome? {
        guard isFilled.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.outcome }
    }

    var isReady: Bool { isFilled.load(ordering: .acquiring) }
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
    func spin(on slot: OutcomeSlot, since start: UInt64) -> DataRequest.Outcome? {
        let window = policy.withLock { $0.nextWindow() }
        let result = SpinPolicy.spin(window: window, since: start) { slot.isReady || Task.isCancelled }
        policy.withLock { $0.observe(result) }
        guard case .arrived(let waited) = result, slot.isReady else { return nil }
        observe(wait: waited)
        return slot.outcome
    }

    /// Records how long an outcome took to arrive after its task began to wait.
    func observe(wait: UInt64) {
        policy.withLock { $0.observe(wait: wait) }
    }
}
