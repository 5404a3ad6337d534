import Foundation

/// What plugins and interceptors know about the request they are called for.
///
/// ```swift
/// func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
///     guard let route = context.target as? HomeAPI else { return request }
///     ...
/// }
/// ```
public struct RequestContext: Sendable {
    /// What the request was made from: a ``Router`` case (`context.target as? HomeAPI`), or the
    /// `.url(…)` or `.urlRequest(…)` of a one-off request.
    public let target: any URLRequestConvertible
    /// The session running the request (its ``Session/configuration`` holds the ``SecurityPolicy``).
    public let session: Session
    /// A number identifying the request within its session, the same for every attempt;
    /// useful to pair log lines.
    public let requestID: UInt64
    /// Retries made before this attempt: 0 for the first attempt, 1 for the first retry, and so on.
    public internal(set) var attempt: Int

    /// The target as a ``Router``, or nil when the request was made from a URL or `URLRequest`.
    package var router: (any Router)? { target as? any Router }
}
