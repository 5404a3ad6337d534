import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The direct path, for requests without plugins or interceptors: the transport's completion
/// (on the engine thread) decides retries with the session's ``RetryPolicy`` (a pure function) and
/// completes the request there, hopping to a global queue only for custom validations.
extension DataRequest {
    /// Hands the request to the transport; `attempt` counts retries already made.
    func send(_ request: HTTPRequest, attempt: Int) {
        let (slot, options) = beginTransfer(of: request)
        let epoch = options.sessionEpoch
        let token = session.execute(request, options: options) { result in
            // Retains the request (and so its session) until the transfer has completed.
            if let delay = self.retryDelay(after: result, sent: request, attempt: attempt, epoch: epoch) {
                self.retry(request, attempt: attempt + 1, after: delay)
                return
            }
            let outcome = self.outcome(of: result, attempt: attempt)
            // This runs on the engine thread: user-written validations run elsewhere, so a slow
            // one cannot stall other transfers.
            if self.hasCustomValidation {
                DispatchQueue.global().async { self.complete(outcome) }
            } else {
                self.complete(outcome)
            }
        }
        install(token, slot: slot, stopIfFinished: attempt > 0)
    }

    /// The session policy's wait before retrying `sent`, or nil to deliver `result` (always after
    /// a shutdown or a `cancelAll()` since `epoch`).
    private func retryDelay(
        after result: TransportResult, sent: HTTPRequest, attempt: Int, epoch: UInt64
    ) -> TimeInterval? {
        let policy = session.configuration.retryPolicy
        guard policy.maxRetries > attempt, !isCancelled, session.interruption(since: epoch) == nil else { return nil }
        return policy.retryDelay(after: result, sent: sent, attempt: attempt, now: session.configuration.clock.now)
    }

    /// What a transfer delivered, as the outcome of attempt number `attempt` (0 for the first).
    @inline(__always)
    func outcome(of result: TransportResult, attempt: Int) -> Outcome {
        var outcome = Outcome(
            request: result.request, head: result.head, data: result.data, metrics: result.metrics,
            error: result.error, fileURL: result.error == nil ? destination : nil)
        outcome.resumeData = result.resumeData
        outcome.transferred = result.transferred
        outcome.metrics?.retryCount = attempt
        return outcome
    }

    /// Waits `delay` on the session's clock, then sends `request` again; `cancel()` during the
    /// wait completes at once.
    ///
    /// The timer owns the request only through `waiting`, which `cancel()` empties: it must keep
    /// a request nobody else holds alive until the retry, but a cancelled request (and its
    /// session) is released at once, not when the backoff ends.
    private func retry(_ request: HTTPRequest, attempt: Int, after delay: TimeInterval) {
        let cancelled = Outcome(request: request, head: nil, data: Data(), metrics: nil, error: .cancelled)
        let waiting = Locked<DataRequest?>(self)
        let take: @Sendable () -> DataRequest? = {
            waiting.withLock { owner in
                defer { owner = nil }
                return owner
            }
        }
        install(BackoffToken { take()?.complete(cancelled) })
        session.configuration.clock.schedule(after: delay) {
            guard let owner = take(), !owner.isFinished, !owner.isCancelled else { return }
            owner.send(request, attempt: attempt)
        }
    }
}

extension RetryPolicy {
    /// The wait before retrying the attempt `sent` that ended with `result`, or nil.
    func retryDelay(after result: TransportResult, sent: HTTPRequest, attempt: Int, now: Date) -> TimeInterval? {
        retryDelay(
            afterAttempt: attempt, method: sent.method.rawValue,
            statusCode: result.error == nil ? result.head?.statusCode : nil, error: result.error,
            retryAfter: result.head?.value(forHeader: "Retry-After"), now: now)
    }
}

/// Stands for a request waiting between attempts: cancelling it completes the request.
struct BackoffToken: TransportCancellable {
    let onCancel: @Sendable () -> Void
    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    func cancel() { onCancel() }
}
