import Foundation

/// Services whose bodies are `{"isSuccess": true, "code": 1000, "message": "…", "result": …}`
/// (every field but the payload optional): declare
/// `override class var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }`.
/// The body's model is ``Body``.
public enum ResultEnvelope: EnvelopeFormat {
    /// `{isSuccess, code, message, result}`. The `code` may be a number (`2001`) or a string
    /// (`"COMMON200"`); the metadata fields decode leniently, so one of an unusable type is nil
    /// instead of an error. Only the payload (`result`) is decoded strictly.
    public struct Body<Payload: Decodable>: ResponseEnvelope {
        /// The server's success flag.
        public let isSuccess: Bool?
        /// The server's application code as sent, in text form: `"COMMON200"`, `"2001"`.
        public let appCode: String?
        /// The server's message.
        public let message: String?
        /// The payload (`result`); nil when missing or `null`.
        public let result: Payload?

        /// Creates a body, for tests and stubs.
        package init(isSuccess: Bool? = nil, appCode: String? = nil, message: String? = nil, result: Payload?) {
            self.isSuccess = isSuccess
            self.appCode = appCode
            self.message = message
            self.result = result
        }

        private enum CodingKeys: String, CodingKey { case isSuccess, code, message, result }

        /// Decodes `result` strictly and the other fields leniently.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            result = try container.decodeIfPresent(Payload.self, forKey: .result)
            isSuccess = container.lenientBool(forKey: .isSuccess)
            appCode = container.lenientText(forKey: .code)
            message = container.lenientText(forKey: .message)
        }

        /// The application code as a number, when it is one (`"2001"` → `2001`).
        package var code: Int? { appCode.flatMap { Int($0) } }

        /// ``result``, ``message``, ``isSuccess`` and ``appCode``.
        public var envelopeFields: EnvelopeFields<Payload> {
            EnvelopeFields(
                payload: result, message: message, isSuccessFlag: isSuccess, code: appCode,
                payloadKey: "result")
        }
    }

    /// Decodes a ``Body``.
    public static func open<Payload: Decodable>(
        _ data: Data, as payload: Payload.Type, decoder: any DataDecoder
    ) throws
        -> EnvelopeFields<Payload>
    {
        try decoder.decode(Body<Payload>.self, from: data).envelopeFields
    }
}

extension ResultEnvelope.Body: Sendable where Payload: Sendable {}
extension ResultEnvelope.Body: Equatable where Payload: Equatable {}
