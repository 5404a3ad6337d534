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

    /// `{isSuccess, code, message, result}`, with string codes such as `"COMMON200"`.
    struct ResultBody<T: Encodable>: Encodable {
        let isSuccess: Bool
        let code: String
        let message: String
        let result: T?
    }

    /// `{success, data, error}` where `error` is `{code, message}` with a string code.
    struct SuccessErrorBody<T: Encodable>: Encodable {
        struct ErrorBody: Encodable { let code: String; let message: String }
        let success: Bool
        let data: T?
        let error: ErrorBody?
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

    /// A `{isSuccess, code, message, result}` envelope, always HTTP 200 as such APIs do; the code
    /// is a string (`"COMMON200"` for success), as many such APIs send it.
    static func result<T: Encodable>(
        _ result: T?, code: String = "COMMON200", message: String = "success"
    )
        -> TestHTTPResponse
    {
        .json(ResultBody(isSuccess: code == "COMMON200", code: code, message: message, result: result))
    }

    /// A successful `{success, data, error}` envelope.
    static func success<T: Encodable>(_ data: T, status: Int = 200) -> TestHTTPResponse {
        .json(SuccessErrorBody(success: true, data: data, error: nil), status: status)
    }

    /// A failed `{success, data, error}` envelope whose error has a string code.
    static func error(_ status: Int, code: String, _ message: String) -> TestHTTPResponse {
        .json(
            SuccessErrorBody<Nothing>(success: false, data: nil, error: .init(code: code, message: message)),
            status: status)
    }

    /// Decodes a JSON request body, or nil.
    static func body<T: Decodable>(_ type: T.Type, of request: TestHTTPRequest) -> T? {
        try? JSONDecoder().decode(T.self, from: request.body)
    }
}
