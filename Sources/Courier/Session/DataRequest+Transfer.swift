import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The waits the driver (DataRequest+Driver.swift) hands off: a transfer to the transport, with
/// this request's options and its cancel token, and a backoff on the session's clock.
extension DataRequest {
    /// Hands `request` to the transport with this request's options; `completion` gets the result
    /// (on the engine thread: it must only hand it on). A cancel reaches the transfer.
    func submit(_ request: HTTPRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        var options = session.transferOptions(for: request, destination: destination)
        let (progress, target, epoch, cachePolicy, coalesces) = state.withLock {
            ($0.progress, $0.target, $0.epoch, $0.own?.cachePolicy, $0.own?.coalesces ?? true)
        }
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
        // The token stays until the request is published: cancelling a finished transfer does
        // nothing (the transport's contract), so an earlier attempt's token needs no clearing.
        let token = session.execute(request, options: options, completion: completion)
        let cancelNow = state.withLock { state -> Bool in
            if case .transferring(_, true) = state.machine.state { return true }
            if state.machine.state == .completing || state.machine.state == .finished { return false }
            state.token = token
            return false
        }
        if cancelNow { token.cancel() }
    }

    /// Runs one transfer and waits for it in this task. An awaiting caller alone on its session
    /// spins briefly before suspending (see ``AwaitSpinner``).
    func transfer(_ request: HTTPRequest, spins: Bool) async -> TransportResult {
        let slot = HandoffSlot<TransportResult>()
        let spinner = session.awaitSpinner
        let alone = spins && spinner.enter()
        defer { if spins { spinner.leave() } }
        submit(request) { slot.fill($0) }
        guard alone, spinner.isEnabled else { return await slot.wait() }
        let start = DispatchTime.now().uptimeNanoseconds
        if let result = spinner.spin(on: slot, since: start) { return result }
        let result = await slot.wait()
        spinner.observe(wait: DispatchTime.now().uptimeNanoseconds - start)
        return result
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
            return state.outcome != nil
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
