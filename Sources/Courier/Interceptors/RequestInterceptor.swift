import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adapts requests before they are sent and decides whether failed attempts are sent again.
///
/// Both steps are `async` and run off the engine thread. Register interceptors on a session
/// (every request) or on one request; implement only the step you need:
/// ```swift
/// struct APIKey: RequestInterceptor {
///     func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
///         var request = request
///         request.setValue(try await keychain.apiKey(), forHTTPHeaderField: "X-Api-Key")
///         return request
///     }
/// }
/// configuration.interceptors = [APIKey()]
/// session.request(HomeAPI.latest).interceptor(RetryPolicy(maxRetries: 5))
/// ```
/// Every attempt starts again from the request as built, so each retry goes through every
/// adapter (and every plugin) again. Adapters run in registration order (the session's, then the
/// request's), each receiving the previous one's result; then the plugins' `prepare`.
/// Retriers are asked in the same order; the first answer other than ``RetryDecision/doNotRetry``
/// wins, and the session's ``Session/Configuration/retryPolicy`` is asked last.
public protocol RequestInterceptor: Sendable {
    /// Returns the request to send. Throwing fails the request: a ``CourierError`` as it is,
    /// any other error as ``CourierError/adaptationFailed``.
    /// Default: the request unchanged.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Decides what happens after an attempt finished with `response` (a status, or a transport
    /// error in `response.result`). `request` is the attempt's request as sent, before any
    /// redirect. Not asked for cancelled requests. Default: ``RetryDecision/doNotRetry``.
    func retry(
        _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
    ) async
        -> RetryDecision
}

extension RequestInterceptor {
    /// The request unchanged.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }

    /// ``RetryDecision/doNotRetry``.
    public func retry(
        _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
    ) async
        -> RetryDecision
    { .doNotRetry }
}

/// What a retrier decided about a finished attempt.
public enum RetryDecision: Sendable, Equatable {
    /// No opinion: the next retrier is asked; if none retries, the response is delivered.
    case doNotRetry
    /// Send the request again after waiting this many seconds (0: at once).
    case retry(after: TimeInterval)
    /// Stop and fail the request with this error.
    case fail(CourierError)
}

/// Running interceptors in order, with their errors made typed.
enum InterceptorChain {
    /// Runs one adapter; a non-Courier error becomes ``CourierError/adaptationFailed``.
    static func adapt(
        _ request: URLRequest, with interceptor: any RequestInterceptor,
        context: RequestContext
    ) async throws(CourierError) -> URLRequest {
        do {
            return try await interceptor.adapt(request, context: context)
        } catch let error as CourierError {
            throw error
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .adaptationFailed(interceptor: String(describing: type(of: interceptor)), underlying: error)
        }
    }

    /// The first decision other than ``RetryDecision/doNotRetry``, or `doNotRetry`.
    static func retry(
        _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext,
        asking retriers: [any RequestInterceptor]
    ) async -> RetryDecision {
        for retrier in retriers {
            let decision = await retrier.retry(request, dueTo: response, context: context)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }
}
