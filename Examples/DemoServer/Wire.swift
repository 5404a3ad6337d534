import CourierTestServer
import Foundation

/// The server-side spelling of the envelopes, written independently of the client's models so the
/// examples really exercise decoding.
enum Wire {
    /// `{status, success, message, data}` (and `{status, data?, success, message?}`).
    struct StatusBody<T: Encodable>: Encodable {
        let status: Int
        let success: Bool
        let message: String?
        let data: T?
    }

    /// `{isSuccess, code, message, result}`.
    struct ResultBody<T: Encodable>: Encodable {
        let isSuccess: Bool
        let code: Int
        let message: String
        let result: T?
    }

    /// A body with no payload.
    struct Nothing: Encodable {}

    /// A successful status envelope.
    static func status<T: Encodable>(_ data: T, status: Int = 200, message: String = "ok") -> TestHTTPResponse {
        .json(StatusBody(status: status, success: true, message: message, data: data), status: status)
    }

    /// A failed status envelope without data.
    static func statusFailure(_ status: Int, _ message: String) -> TestHTTPResponse {
        .json(StatusBody<Nothing>(status: status, success: false, message: message, data: nil), status: status)
    }

    /// A `{isSuccess, code, message, result}` envelope, always HTTP 200 as such APIs do.
    static func result<T: Encodable>(_ result: T?, code: Int = 1000, message: String = "success") -> TestHTTPResponse {
        .json(ResultBody(isSuccess: code == 1000, code: code, message: message, result: result))
    }

    /// Decodes a JSON request body, or nil.
    static func body<T: Decodable>(_ type: T.Type, of request: TestHTTPRequest) -> T? {
        try? JSONDecoder().decode(T.self, from: request.body)
    }
}
