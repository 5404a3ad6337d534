import Courier
import Foundation

/// A canned answer: a response (status, headers, body), or a transport failure, and when to give it.
///
/// ```swift
/// stubs.on(.request(.get, "/me"), reply: .json(#"{"name":"Ada"}"#))
/// stubs.on(.request(.get, "/slow"), reply: StubResponse.text("late").with(.delayed(seconds: 2)))
/// stubs.on(.request(.get, "/offline"), reply: .failure(.cannotConnect))
/// stubs.on(.request(.get, "/hang"), reply: StubResponse(behavior: .never))  // for cancellation tests
/// ```
public struct StubResponse: Sendable {
    /// The status code of the response.
    let statusCode: Int
    /// The response headers, in order.
    let headers: HTTPHeaders
    /// The response body.
    let body: Data
    /// When set, the request fails with this error instead of receiving the response.
    let error: CourierError?
    /// When to answer; nil uses the transport's behaviour (given to `StubTransport(behavior:…)`).
    var behavior: StubBehavior?

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: the status code of the response.
    ///   - headers: the response headers, in order.
    ///   - body: the response body.
    ///   - error: when set, the request fails with this error instead of receiving the response.
    ///   - behavior: when to answer; nil uses the transport's behaviour (given to
    ///     ``StubTransport/init(behavior:clock:sampleData:fallback:)``).
    public init(
        statusCode: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(),
        error: CourierError? = nil, behavior: StubBehavior? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.error = error
        self.behavior = behavior
    }

    /// A JSON body with `Content-Type: application/json`.
    public static func json(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: [.contentType("application/json")], body: Data(text.utf8))
    }

    /// An `Encodable` value encoded as the JSON body.
    public static func json(
        _ value: some Encodable, statusCode: Int = 200,
        encoder: JSONEncoder = JSONEncoder()
    ) -> StubResponse {
        do {
            return StubResponse(
                statusCode: statusCode, headers: [.contentType("application/json")],
                body: try encoder.encode(value))
        } catch {
            return failure(.invalidRequest(reason: "stub body could not be encoded: \(error)"))
        }
    }

    /// A plain-text body.
    public static func text(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(
            statusCode: statusCode, headers: [.contentType("text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// No body, for example a 204 or a bare 401.
    public static func empty(statusCode: Int = 204) -> StubResponse {
        StubResponse(statusCode: statusCode)
    }

    /// A transport failure, such as `.failure(.cannotConnect)`, `.failure(.cancelled)` or
    /// `.failure(CourierError(.dnsFailure, reason: "api.example.com"))`; ``timedOut(_:)`` for a
    /// timeout of a given kind.
    public static func failure(_ error: CourierError) -> StubResponse {
        StubResponse(statusCode: 0, error: error)
    }

    /// The request timed out (`CourierError.timedOut`), on the time limit `kind` (the
    /// whole-request limit by default), as `CourierError.timeoutKind` reports it.
    public static func timedOut(_ kind: CourierError.TimeoutKind = .request) -> StubResponse {
        failure(.timedOut(kind))
    }

    /// The same response with `behavior` replacing the current one.
    public func with(_ behavior: StubBehavior) -> StubResponse {
        var copy = self
        copy.behavior = behavior
        return copy
    }
}
