import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The waits the driver (DataRequest+Driver.swift) hands off: a transfer to the transport, with
/// this request's options and its cancel token, and a backoff on the session's clock.
extension DataRequest {
    /// How an attempt's transport result reaches the driver: the transport's completion (on the
    /// engine thread) moves it into the run's outcome, in the request's state, and wakes whoever
    /// waits for it. Nothing is made per attempt (no slot, and the completion captures only the
    /// request), and the state stays small: the result itself is not kept here (the state's
    /// allocation must stay within glibc's per-thread cache, 1,032 bytes; see
    /// Benchmarks/EXPERIMENTS.md).
    /// Whether the outcome is in is ``resultArrived``, written under the state's lock.
    struct Delivery {
        /// An awaiting driver suspended until the outcome is in.
        var waiter: UnsafeContinuation<Void, Never>?
        /// For completion handlers: the queue the driver continues on.
        var queue: DispatchQueue?
        /// The attempt the result belongs to.
        var attempt = 0
    }

    /// Hands `request` to the transport with this request's options; the result becomes the
    /// run's outcome (see ``transportFinished(_:)``). A cancel reaches the transfer.
    ///
    /// With `queue`, the driver continues there with ``resumeOnQueue()`` once the outcome is in;
    /// without, an awaiting driver waits with ``awaitOutcome()``.
    func submit(_ request: HTTPRequest, attempt: Int, queue: DispatchQueue?) {
        let options = attemptOptions(for: request, attempt: attempt, queue: queue)
        // The token stays until the request is published: cancelling a finished transfer does
        // nothing (the transport's contract), so an earlier attempt's token needs no clearing.
        // The options are handed over (a `let` at its last use: moved into the engine's token).
        let token = session.execute(request, options: consume options) { [self] result in
            transportFinished(result)
        }
        let cancelNow = state.withLock { state -> Bool in
            if case .transferring(_, true) = state.machine.state { return true }
            if state.machine.state == .completing || state.machine.state == .finished { return false }
            state.token = token
            return false
        }
        if cancelNow { token.cancel() }
    }

    /// The session's options for this attempt of `request`, with the request's own parts; records
    /// in the state that the attempt's result goes to `queue` (or to an awaiting driver).
    private func attemptOptions(for request: HTTPRequest, attempt: Int, queue: DispatchQueue?) -> TransferOptions {
        let (progress, cachePolicy, coalesces) = state.withLock { state in
            state.delivery = Delivery(queue: queue, attempt: attempt)
            resultArrived.store(false, ordering: .relaxed)
            return (state.progress, state.own?.cachePolicy, state.own?.coalesces ?? true)
        }
        // Made after the lock, so that it is moved out at the end: made before, it was copied
        // out and destroyed (about 350 instructions per request).
        var options = session.transferOptions(for: request, destination: destination)
        options.progress = progress
        options.target = target
        options.sessionEpoch = epoch
        options.cachePolicy = cachePolicy
        options.coalesces = coalesces
        if let resumeOffset {
            // Ranges count stored bytes: a body decompressed on the fly could not be continued.
            options.resumeOffset = resumeOffset
            options.automaticDecompression = false
        }
        return options
    }

    /// The transport's completion (on the engine thread, or wherever a transport completes):
    /// moves the result into the run's outcome (no user code runs: plugins see it in the
    /// driver), then resumes the awaiting driver or sends the driver to its queue. The outcome
    /// passes through the state's mutex, so ThreadSanitizer sees the handoff (see `HandoffSlot`).
    private func transportFinished(_ result: consuming TransportResult) {
        var result: TransportResult? = consume result
        let (waiter, queue) = state.withLock { state in
            // Made in place: a `let` captured by the closure would be copied in, then destroyed
            // (~1,000 instructions per request on the engine thread).
            let attempt = state.delivery.attempt
            state.record(outcome(of: result.take()!, attempt: attempt))
            // Under the lock, so that a driver about to suspend either sees it or leaves its
            // continuation for this completion to take.
            resultArrived.store(true, ordering: .releasing)
            defer { state.delivery.waiter = nil }
            return (state.delivery.waiter, state.delivery.queue)
        }
        if let waiter {
            waiter.resume()
        } else if let queue {
            queue.async { [self] in resumeOnQueue() }
        }
    }

    /// Suspends until the current attempt's outcome is in the run (at once if it is).
    ///
    /// The continuation is an unsafe one (a checked one allocates for each wait): it is resumed
    /// exactly once, here when the outcome is already in, or by ``transportFinished(_:)``, which
    /// takes it out of the state under the lock.
    @inline(__always)
    private nonisolated(nonsending) func awaitOutcome() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if resultArrived.load(ordering: .relaxed) { return true }
                state.delivery.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Runs one transfer and waits, in this task, until its outcome is in the run. An awaiting
    /// caller alone on its session spins briefly before suspending (see ``AwaitSpinner``).
    @inline(__always)
    nonisolated(nonsending) func transfer(_ request: HTTPRequest, attempt: Int) async {
        let spins = attempt == 0
        let spinner = session.awaitSpinner
        let alone = spins && spinner.enter()
        defer { if spins { spinner.leave() } }
        submit(request, attempt: attempt, queue: nil)
        guard alone, spinner.isEnabled else { return await awaitOutcome() }
        let start = DispatchTime.now().uptimeNanoseconds
        if spinner.spin(until: { resultArrived.load(ordering: .acquiring) }, since: start) { return }
        await awaitOutcome()
        spinner.observe(wait: DispatchTime.now().uptimeNanoseconds - start)
    }

    /// Waits `seconds` on the session's clock; a cancel that finished the request ends it early.
    func backoff(_ seconds: Double) async {
        let slot = HandoffSlot<Bool>()
        let once = Locked(false)
        let wake: @Sendable () -> Void = {
            let first = once.withLock { fired in
                defer { fired = true }
                return !fired
            }
            if first { slot.fill(true) }
        }
        let finished = state.withLock { state -> Bool in
            state.wake = wake
            return state.isPublished
        }
        if finished { wake() }
        session.configuration.clock.schedule(after: seconds, wake)
        _ = await slot.wait()
        state.withLock { $0.wake = nil }
    }

    /// What a transfer delivered, as the outcome of attempt number `attempt` (0 for the first).
    func outcome(of result: consuming TransportResult, attempt: Int) -> Outcome {
        // The parts moved out of `result` (`take()`, `swap`) and into the outcome in one
        // expression: copying them cost ~2,500 instructions per request.
        var metrics = result.metrics.take()
        metrics?.retryCount = attempt
        let error = result.error.take()
        let succeeded = if case .none = error { true } else { false }
        var body = Data()
        swap(&body, &result.data)
        return Outcome(
            request: result.request, head: result.head.take(), body: consume body, metrics: consume metrics,
            error: error, fileURL: succeeded ? destination : nil, resumeData: result.resumeData.take(),
            transferred: result.transferred.take())
    }
}
