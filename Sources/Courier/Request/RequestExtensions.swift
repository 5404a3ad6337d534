import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The plugins and interceptors a request runs through, in registration order.
///
/// Immutable, and held in one object: each request keeps its session's (copied into its state
/// when it starts, and read from there), and a copy is then one reference count, where the
/// arrays and the retry policy inline took about ten. None at all (no object) when there is
/// nothing to run, the usual case: then a request counts no reference on an object that every
/// request of the session shares, whose count the callers' threads would otherwise pass between
/// them (three counts a request in W2; Benchmarks/EXPERIMENTS.md, Round 30).
struct RequestExtensions: Sendable {
    private final class Storage: Sendable {
        let plugins: [any Plugin]
        let interceptors: [any RequestInterceptor]
        let retryPolicy: RetryPolicy

        init(plugins: [any Plugin], interceptors: [any RequestInterceptor], retryPolicy: RetryPolicy) {
            self.plugins = plugins
            self.interceptors = interceptors
            self.retryPolicy = retryPolicy
        }
    }

    /// Nil when there are no plugins and no interceptors and the retry policy retries nothing.
    private let storage: Storage?

    /// Extensions with these plugins and interceptors, and `retryPolicy` asked after every
    /// interceptor.
    init(
        plugins: [any Plugin] = [], interceptors: [any RequestInterceptor] = [], retryPolicy: RetryPolicy = .disabled
    ) {
        storage =
            plugins.isEmpty && interceptors.isEmpty && retryPolicy.maxRetries == 0
            ? nil : Storage(plugins: plugins, interceptors: interceptors, retryPolicy: retryPolicy)
    }

    var plugins: [any Plugin] { storage?.plugins ?? [] }
    var interceptors: [any RequestInterceptor] { storage?.interceptors ?? [] }
    /// The policy asked after every interceptor.
    var retryPolicy: RetryPolicy { storage?.retryPolicy ?? .disabled }

    /// At least one plugin.
    var hasPlugins: Bool { storage.map { !$0.plugins.isEmpty } ?? false }

    /// No plugins and no interceptors.
    var isEmpty: Bool { storage.map { $0.plugins.isEmpty && $0.interceptors.isEmpty } ?? true }

    /// Adapters or plugins run before each attempt.
    var adapts: Bool { !isEmpty }

    /// Something may retry an attempt: an interceptor, or a retry policy that allows retries.
    var decides: Bool { storage.map { !$0.interceptors.isEmpty || $0.retryPolicy.maxRetries > 0 } ?? false }

    /// These extensions followed by `plugins` and `interceptors` (these same ones when both are
    /// empty).
    func appending(plugins: [any Plugin], interceptors: [any RequestInterceptor]) -> Self {
        if plugins.isEmpty && interceptors.isEmpty { return self }
        return RequestExtensions(
            plugins: self.plugins + plugins, interceptors: self.interceptors + interceptors,
            retryPolicy: retryPolicy)
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

    /// Every plugin's `process` in turn, each given what the one before returned; a throwing
    /// plugin turns the result into its error and the following plugins see that failure. What
    /// only Courier knows (the download file, resume data, the final progress) is kept; a failure
    /// removes the downloaded file.
    func process(_ outcome: DataRequest.Outcome, context: RequestContext) -> DataRequest.Outcome {
        var outcome = outcome
        for plugin in plugins {
            let before = outcome
            do {
                outcome = try plugin.process(outcome, context: context)
            } catch {
                outcome.result = .failure(Self.typed(error, plugin: plugin, hook: .process))
            }
            outcome.transferred = before.transferred
            outcome.download = before.download
            if outcome.error != nil { outcome.discardFile() }
        }
        return outcome
    }

    private static func typed(_ error: any Error, plugin: any Plugin, hook: CourierError.PluginHook) -> CourierError {
        if let error = error as? CourierError { return error }
        return .pluginFailed(plugin: String(describing: type(of: plugin)), hook: hook, underlying: error)
    }
}
