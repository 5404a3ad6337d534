import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The path for requests with plugins or interceptors: one task per request, started from the
/// caller's context (so task-local values stay visible to interceptors), runs every attempt:
/// adapters → plugins' `prepare` → `willSend` → transfer → `didReceive` → retry decision, and
/// finally validation → plugins' `process` → the waiters. No user code runs on the engine thread:
/// the transfer's completion only resumes the task.
///
/// While user code runs (an adapter, a retrier, a backoff wait), `cancel()` completes the request
/// at once with ``CourierError/cancelled`` and cancels the task; whatever that code returns later
/// is dropped.
extension DataRequest {
    func run(_ request: HTTPRequest, through extensions: RequestExtensions) {
        let context = context(attempt: 0)
        adopt(Task { await self.attempts(of: request, through: extensions, context: context) })
    }

    private func attempts(
        of base: HTTPRequest, through extensions: RequestExtensions, context start: RequestContext
    ) async {
        var context = start
        let cancelled = Outcome(request: base, head: nil, data: Data(), metrics: nil, error: .cancelled)
        completeOnCancel(with: cancelled, extensions: extensions, context: context)
        while true {
            let request: HTTPRequest, sent: URLRequest
            do throws(CourierError) {
                (request, sent) = try await extensions.prepare(base, context: context)
            } catch {
                return complete(
                    Outcome(request: base, head: nil, data: Data(), metrics: nil, error: error),
                    extensions: extensions, context: context)
            }
            guard !isFinished else { return }
            extensions.willSend(sent, context: context)
            let result = await transfer(request)
            let outcome = outcome(of: result, attempt: context.attempt)
            let response = outcome.response
            extensions.didReceive(response, context: context)
            guard !isFinished else { return }
            // Neither a cancelled request nor one its session shut down or cancelled is retried.
            if isCancelled || interruption != nil {
                return complete(outcome, extensions: extensions, context: context)
            }
            completeOnCancel(with: cancelled, extensions: extensions, context: context)
            switch await extensions.retryDecision(for: sent, dueTo: response, context: context) {
            case .doNotRetry:
                return complete(outcome, extensions: extensions, context: context)
            case .fail(let error):
                var failed = outcome
                failed.error = error
                failed.discardFile()
                return complete(failed, extensions: extensions, context: context)
            case .retry(let delay):
                guard !isFinished else { return }
                await session.configuration.clock.wait(delay)
                guard !isFinished else { return }
                // A cancel() that ended the wait completes the request, never starts another attempt.
                if isCancelled { return complete(cancelled, extensions: extensions, context: context) }
                if let error = interruption {
                    var stopped = cancelled
                    stopped.error = error
                    return complete(stopped, extensions: extensions, context: context)
                }
                context.attempt += 1
            }
        }
    }

    /// While user code runs or a backoff elapses, `cancel()` completes the request with `cancelled`.
    private func completeOnCancel(with cancelled: Outcome, extensions: RequestExtensions, context: RequestContext) {
        install(BackoffToken { [weak self] in self?.complete(cancelled, extensions: extensions, context: context) })
    }

    /// Runs one transfer; the transport's completion (on the engine thread) only resumes the task.
    /// The result is handed over through a lock as well as the continuation: the task may resume
    /// on another thread, and ThreadSanitizer sees a lock's ordering where it cannot see the
    /// concurrency runtime's (a transport of any kind then reads as race-free).
    private func transfer(_ request: HTTPRequest) async -> TransportResult {
        await awaitHandoff { deliver in
            let (slot, options) = beginTransfer(of: request)
            let token = session.execute(request, options: options, completion: deliver)
            install(token, slot: slot, stopIfFinished: true)
        }
    }
}

extension DataRequest.Outcome {
    /// The outcome as plugins and retriers see it.
    var response: DataResponse<Data?> {
        DataRequest.makeResponse(self, serializer: DataRequest.optionalData)
    }

    /// This outcome changed to what a plugin's `process` returned: on success the body is the
    /// result's value, on failure the response's `data`.
    func replaced(by response: DataResponse<Data?>) -> Self {
        var outcome = self
        outcome.request = response.request
        outcome.head = response.responseHead
        outcome.metrics = response.metrics
        switch response.result {
        case .success(let body):
            outcome.data = body ?? Data()
            outcome.error = nil
        case .failure(let error):
            outcome.data = response.data ?? Data()
            outcome.error = error
            outcome.discardFile()
        }
        return outcome
    }
}

/// The plugins and interceptors a request runs through, in registration order.
struct RequestExtensions: Sendable {
    var plugins: [any Plugin] = []
    var interceptors: [any RequestInterceptor] = []
    /// The policy asked after every interceptor.
    var retryPolicy = RetryPolicy.disabled

    /// No plugins and no interceptors: the direct path applies.
    var isEmpty: Bool { plugins.isEmpty && interceptors.isEmpty }

    /// These extensions followed by `plugins` and `interceptors`.
    func appending(plugins: [any Plugin], interceptors: [any RequestInterceptor]) -> Self {
        if plugins.isEmpty && interceptors.isEmpty { return self }
        var combined = self
        combined.plugins += plugins
        combined.interceptors += interceptors
        return combined
    }

    /// The interceptors' adapters, then the plugins' `prepare`, on the request as a `URLRequest`;
    /// returns the result validated, and the `URLRequest` the hooks saw last.
    func prepare(
        _ base: HTTPRequest, context: RequestContext
    ) async throws(CourierError) -> (HTTPRequest, URLRequest) {
        var request = base.urlRequest
        for interceptor in interceptors {
            request = try await InterceptorChain.adapt(request, with: interceptor, context: context)
        }
        for plugin in plugins {
            do {
                request = try plugin.prepare(request, context: context)
            } catch {
                throw Self.typed(error, plugin: plugin, hook: .prepare)
            }
        }
        return (try HTTPRequest(adapted: request, from: base), request)
    }

    func willSend(_ request: URLRequest, context: RequestContext) {
        for plugin in plugins { plugin.willSend(request, context: context) }
    }

    func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
        for plugin in plugins { plugin.didReceive(response, context: context) }
    }

    /// The interceptors' decision, else the retry policy's.
    func retryDecision(
        for request: URLRequest, dueTo response: DataResponse<Data?>,
        context: RequestContext
    ) async -> RetryDecision {
        let decision = await InterceptorChain.retry(request, dueTo: response, context: context, asking: interceptors)
        guard decision == .doNotRetry else { return decision }
        return retryPolicy.decision(
            for: request, dueTo: response, attempt: context.attempt,
            now: context.session.configuration.clock.now)
    }

    /// Every plugin's `process` in turn; a throwing plugin turns the result into its error and
    /// the following plugins see that failure.
    func process(_ outcome: DataRequest.Outcome, context: RequestContext) -> DataRequest.Outcome {
        var outcome = outcome
        for plugin in plugins {
            let response = outcome.response
            do {
                outcome = outcome.replaced(by: try plugin.process(response, context: context))
            } catch {
                outcome = outcome.replaced(
                    by: DataResponse(
                        request: response.request, head: response.head,
                        data: response.data, metrics: response.metrics,
                        result: .failure(Self.typed(error, plugin: plugin, hook: .process))))
            }
        }
        return outcome
    }

    private static func typed(_ error: any Error, plugin: any Plugin, hook: CourierError.PluginHook) -> CourierError {
        if let error = error as? CourierError { return error }
        return .pluginFailed(plugin: String(describing: type(of: plugin)), hook: hook, underlying: error)
    }
}
