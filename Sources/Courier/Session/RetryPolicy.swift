import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When a failed request is sent again, and after how long.
///
/// Off by default. Turn it on per session:
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.retryPolicy = .default          // up to 2 retries, exponential backoff
/// ```
/// Only idempotent methods are retried (never POST or PATCH), only for transient failures
/// (connection failures, timeouts, connections cut short, and the statuses in
/// `retryableStatusCodes`), and a server's `Retry-After` (seconds or an HTTP date) is honoured.
/// The decision is a pure function of the attempt, method, status, error and `Retry-After`.
///
/// A policy is also a ``RequestInterceptor`` (a retrier), so one request can have its own:
/// `session.request(route).interceptor(RetryPolicy(maxRetries: 5))`. The session's policy is
/// asked after every interceptor; `attempt` counts the retries of every retrier. Waits go
/// through the session's ``Session/Configuration/clock``.
public struct RetryPolicy: RequestInterceptor, Equatable {
    package let maxRetries: Int
    package let retryableStatusCodes: Set<Int>
    package let retryableMethods: Set<String>
    package let baseDelay: TimeInterval
    package let maxDelay: TimeInterval

    /// Never retry.
    public static let disabled = RetryPolicy(maxRetries: 0)
    /// Up to 2 retries, 0.5 s then 1 s (with jitter), at most 30 s of waiting per retry.
    public static let `default` = RetryPolicy(maxRetries: 2)

    /// Creates a policy.
    /// - Parameters:
    ///   - maxRetries: how many times a request may be sent again after its first attempt (0:
    ///     never). Default: 2.
    ///   - retryableStatusCodes: statuses worth another try. Default: 408, 429, 500, 502, 503, 504.
    ///   - retryableMethods: methods that may be repeated safely. Default: GET, HEAD, PUT,
    ///     DELETE, OPTIONS, TRACE.
    ///   - baseDelay: the first backoff in seconds; each retry doubles it, with jitter. Default: 0.5.
    ///   - maxDelay: the longest wait accepted, in seconds; a `Retry-After` asking for more ends
    ///     the retries. Default: 30.
    public init(
        maxRetries: Int = 2,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"],
        baseDelay: TimeInterval = 0.5,
        maxDelay: TimeInterval = 30
    ) {
        self.maxRetries = maxRetries
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableMethods = retryableMethods
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before sending the request again, or nil to deliver this outcome as it is.
    /// - Parameters:
    ///   - attempt: retries already made (0 after the first attempt).
    ///   - method: the request's HTTP method.
    ///   - statusCode: the response status, if a response arrived without a transport error.
    ///   - error: the transport error, if any.
    ///   - retryAfter: the response's `Retry-After` header.
    ///   - now: the current time, for `Retry-After` dates.
    ///   - jitter: a number in 0...1 spreading backoffs of concurrent clients.
    package func retryDelay(
        afterAttempt attempt: Int, method: String, statusCode: Int?, error: CourierError?,
        retryAfter: String?, now: Date = Date(), jitter: Double = Double.random(in: 0...1)
    )
        -> TimeInterval?
    {
        guard attempt < maxRetries, retryableMethods.contains(method.uppercased()) else { return nil }
        if let error {
            guard Self.isTransient(error) else { return nil }
        } else {
            guard let statusCode, retryableStatusCodes.contains(statusCode) else { return nil }
            if let retryAfter, let wait = Self.seconds(fromRetryAfter: retryAfter, now: now) {
                return wait <= maxDelay ? wait : nil
            }
        }
        let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt)))
        return exponential / 2 + exponential / 2 * min(max(jitter, 0), 1)
    }

    /// The decision as a ``RetryDecision``, for the attempt `request` that ended with `response`.
    func decision(
        for request: URLRequest, dueTo response: DataResponse<Data?>, attempt: Int, now: Date
    ) -> RetryDecision {
        guard attempt < maxRetries else { return .doNotRetry }
        let delay = retryDelay(
            afterAttempt: attempt, method: request.httpMethod ?? "GET",
            statusCode: response.error == nil ? response.statusCode : nil, error: response.error,
            retryAfter: response.head?.value(forHeader: "Retry-After"), now: now)
        return delay.map { .retry(after: $0) } ?? .doNotRetry
    }

    /// Retries `request` as the policy decides, reading the time from the session's clock.
    public func retry(
        _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
    ) async
        -> RetryDecision
    {
        decision(for: request, dueTo: response, attempt: context.attempt, now: context.session.configuration.clock.now)
    }

    /// Failures that another attempt may well not see.
    static func isTransient(_ error: CourierError) -> Bool {
        switch error {
        case .timedOut, .cannotConnect, .truncatedResponse: return true
        default: return false
        }
    }

    /// `Retry-After` as seconds from `now`: a non-negative integer, or an HTTP date.
    static func seconds(fromRetryAfter value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
