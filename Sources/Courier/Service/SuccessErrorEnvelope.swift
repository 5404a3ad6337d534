import Foundation

/// Services whose bodies are `{"success": true, "data": …, "error": null}`, where `error` is a
/// text or `{"code": …, "message": "…"}`: declare
/// `override class var envelope: any EnvelopeFormat.Type { SuccessErrorEnvelope.self }`.
/// The body's model is ``Body``.
public enum SuccessErrorEnvelope: EnvelopeFormat {
    /// The `error` of a ``Body``: `"text"` or `{"code": "INVALID_TOKEN", "message": "…"}`, the
    /// code a string or a number. Decodes leniently: an error of another shape has no message
    /// and no code.
    public struct ErrorDetail: Decodable, Sendable, Equatable {
        /// The error's text.
        public let message: String?
        /// The error's code as sent, in text form: `"INVALID_TOKEN"`, `"42"`.
        public let appCode: String?

        /// Creates an error detail, for tests and stubs.
        package init(message: String?, appCode: String? = nil) {
            self.message = message
            self.appCode = appCode
        }

        private enum CodingKeys: String, CodingKey { case message, code }

        /// Decodes a string or an object; anything else gives an empty detail.
        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.init(message: text)
            } else if let container = try? decoder.container(keyedBy: CodingKeys.self) {
                self.init(
                    message: container.lenientText(forKey: .message), appCode: container.lenientText(forKey: .code))
            } else {
                self.init(message: nil)
            }
        }

        /// The code as a number, when it is one (`"42"` → `42`).
        package var code: Int? { appCode.flatMap { Int($0) } }
    }

    /// `{success, data, error}`. The metadata fields decode leniently; only the payload
    /// (`data`) is decoded strictly.
    public struct Body<Payload: Decodable>: ResponseEnvelope {
        /// The server's success flag.
        public let success: Bool?
        /// The payload (`data`); nil when missing or `null`.
        public let data: Payload?
        /// The error, when the call failed.
        public let error: ErrorDetail?

        /// Creates a body, for tests and stubs.
        package init(success: Bool? = nil, data: Payload?, error: ErrorDetail? = nil) {
            self.success = success
            self.data = data
            self.error = error
        }

        private enum CodingKeys: String, CodingKey { case success, data, error }

        /// Decodes `data` strictly and the other fields leniently.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = try container.decodeIfPresent(Payload.self, forKey: .data)
            success = container.lenientBool(forKey: .success)
            error = (try? container.decodeIfPresent(ErrorDetail.self, forKey: .error)) ?? nil
        }

        /// ``data``, the error's message and code, and ``success``.
        public var envelopeFields: EnvelopeFields<Payload> {
            EnvelopeFields(
                payload: data, message: error?.message, isSuccessFlag: success, code: error?.appCode,
                payloadKey: "data")
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

extension SuccessErrorEnvelope.Body: Sendable where Payload: Sendable {}
extension SuccessErrorEnvelope.Body: Equatable where Payload: Equatable {}
