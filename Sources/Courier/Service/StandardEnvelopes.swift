import Foundation

/// `{"status": 200, "success": true, "message": "…", "data": …}`. Declare it with
/// ``StatusEnvelope``.
public struct StatusResponse<Payload: Decodable>: ResponseEnvelope {
    /// The HTTP-like status the server repeats in the body.
    public let status: Int
    /// The server's success flag.
    public let success: Bool
    /// The server's message.
    public let message: String?
    /// The payload (`data`); nil when missing or `null`.
    public let data: Payload?

    /// ``data``.
    public var payload: Payload? { data }
    /// ``success``.
    public var isSuccessFlag: Bool? { success }
}

/// `{"isSuccess": true, "code": 1000, "message": "…", "result": …}`. Declare it with
/// ``ResultEnvelope``.
public struct ResultResponse<Payload: Decodable>: ResponseEnvelope {
    /// The server's success flag.
    public let isSuccess: Bool
    /// The server's application code.
    public let code: Int?
    /// The server's message.
    public let message: String?
    /// The payload (`result`); nil when missing or `null`.
    public let result: Payload?

    /// ``result``.
    public var payload: Payload? { result }
    /// ``isSuccess``.
    public var isSuccessFlag: Bool? { isSuccess }
    /// `"result"`.
    public static var payloadKey: String { "result" }
}

/// `{"status": 200, "data": …?, "success": true, "message": "…"?}`, the "generic response"
/// many teams alias: `typealias TravelResponse<T: Decodable> = GenericResponse<T>`. Declare it
/// with ``GenericEnvelope``.
public struct GenericResponse<Payload: Decodable>: ResponseEnvelope {
    /// The HTTP-like status the server repeats in the body.
    public let status: Int
    /// The payload (`data`), optional in this shape.
    public let data: Payload?
    /// The server's success flag.
    public let success: Bool
    /// The server's message, optional in this shape.
    public let message: String?

    /// ``data``.
    public var payload: Payload? { data }
    /// ``success``.
    public var isSuccessFlag: Bool? { success }
}

/// `{"success": true, "data": …, "error": null}` where `error` is a string or an object with a
/// `message` (and optional `code`). Declare it with ``SuccessErrorEnvelope``.
public struct SuccessErrorResponse<Payload: Decodable>: ResponseEnvelope {
    /// The error detail of a ``SuccessErrorResponse``: `"text"` or `{"code": …, "message": "…"}`.
    public struct ErrorDetail: Decodable, Sendable, Equatable {
        /// The error's text.
        public let message: String?
        /// The error's code, when it is an object with a numeric `code`.
        public let code: Int?

        private enum CodingKeys: String, CodingKey { case message, code }

        /// Decodes a string or an object.
        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                message = text
                code = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            code = try? container.decodeIfPresent(Int.self, forKey: .code)
        }
    }

    /// The server's success flag.
    public let success: Bool
    /// The payload (`data`); nil when missing or `null`.
    public let data: Payload?
    /// The error, when the call failed.
    public let error: ErrorDetail?

    /// ``data``.
    public var payload: Payload? { data }
    /// The error's message.
    public var message: String? { error?.message }
    /// ``success``.
    public var isSuccessFlag: Bool? { success }
    /// The error's code.
    public var code: Int? { error?.code }
}

extension StatusResponse: Sendable where Payload: Sendable {}
extension ResultResponse: Sendable where Payload: Sendable {}
extension GenericResponse: Sendable where Payload: Sendable {}
extension SuccessErrorResponse: Sendable where Payload: Sendable {}

/// Services whose bodies are ``StatusResponse`` (`{status, success, message, data}`).
public enum StatusEnvelope: EnvelopeFormat {
    /// Decodes a ``StatusResponse``.
    public static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload> {
        OpenedEnvelope(try decoder.decode(StatusResponse<Payload>.self, from: data))
    }
}

/// Services whose bodies are ``ResultResponse`` (`{isSuccess, code, message, result}`).
public enum ResultEnvelope: EnvelopeFormat {
    /// Decodes a ``ResultResponse``.
    public static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload> {
        OpenedEnvelope(try decoder.decode(ResultResponse<Payload>.self, from: data))
    }
}

/// Services whose bodies are ``GenericResponse`` (`{status, data?, success, message?}`).
public enum GenericEnvelope: EnvelopeFormat {
    /// Decodes a ``GenericResponse``.
    public static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload> {
        OpenedEnvelope(try decoder.decode(GenericResponse<Payload>.self, from: data))
    }
}

/// Services whose bodies are ``SuccessErrorResponse`` (`{success, data, error}`).
public enum SuccessErrorEnvelope: EnvelopeFormat {
    /// Decodes a ``SuccessErrorResponse``.
    public static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload> {
        OpenedEnvelope(try decoder.decode(SuccessErrorResponse<Payload>.self, from: data))
    }
}
