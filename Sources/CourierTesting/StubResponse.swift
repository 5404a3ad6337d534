import Courier
import Foundation

/// A canned answer for a stubbed `Session`: a response, or a transport failure.
public struct StubResponse: Sendable {
    /// The status code of the response.
    public var statusCode: Int
    /// The response headers.
    public var headers: [String: String]
    /// The response body.
    public var body: Data
    /// When set, the request fails with this error instead of receiving the response.
    public var error: CourierError?
    /// How long to wait before answering, in seconds (cancellation still completes at once).
    public var delay: TimeInterval

    /// Creates a response.
    public init(statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data(),
                error: CourierError? = nil, delay: TimeInterval = 0) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.error = error
        self.delay = delay
    }

    /// A JSON body with `Content-Type: application/json`.
    public static func json(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    /// An `Encodable` value encoded as the JSON body.
    public static func json(_ value: some Encodable, statusCode: Int = 200,
                            encoder: JSONEncoder = JSONEncoder()) -> StubResponse {
        do {
            return StubResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"],
                                body: try encoder.encode(value))
        } catch {
            return failure(.invalidRequest(reason: "stub body could not be encoded: \(error)"))
        }
    }

    /// A plain-text body.
    public static func text(_ text: String, statusCode: Int = 200) -> StubResponse {
        StubResponse(statusCode: statusCode, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// No body, for example a 204.
    public static func empty(statusCode: Int = 204) -> StubResponse {
        StubResponse(statusCode: statusCode)
    }

    /// A transport failure such as `CourierError.timedOut` or `CourierError.cannotConnect`.
    public static func failure(_ error: CourierError) -> StubResponse {
        StubResponse(statusCode: 0, error: error)
    }

    /// The same response answered after `seconds`.
    public func delayed(by seconds: TimeInterval) -> StubResponse {
        var copy = self
        copy.delay = seconds
        return copy
    }
}
