import Foundation

/// Services whose bodies are `{"status": 200, "success": true, "message": "…", "data": …}`
/// (every field but the payload optional): declare
/// `override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }`.
/// The body's model is ``Body``.
public enum StatusEnvelope: EnvelopeFormat {
    /// `{status, success, message, data}`. The metadata fields decode leniently: a `status` of
    /// `"200"`, a `success` of `1` or `"true"`, a numeric `message` are read, and a field of an
    /// unusable type is nil instead of an error. Only the payload (`data`) is decoded strictly.
    public struct Body<Payload: Decodable>: ResponseEnvelope {
        /// The HTTP-like status the server repeats in the body.
        public let status: Int?
        /// The server's success flag.
        public let success: Bool?
        /// The server's message.
        public let message: String?
        /// The payload (`data`); nil when missing or `null`.
        public let data: Payload?

        /// Creates a body, for tests and stubs.
        package init(status: Int? = nil, success: Bool? = nil, message: String? = nil, data: Payload?) {
            self.status = status
            self.success = success
            self.message = message
            self.data = data
        }

        private enum CodingKeys: String, CodingKey { case status, success, message, data }

        /// Decodes `data` strictly and the other fields leniently.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = try container.decodeIfPresent(Payload.self, forKey: .data)
            status = container.lenientInt(forKey: .status)
            success = container.lenientBool(forKey: .success)
            message = container.lenientText(forKey: .message)
        }

        /// ``data``, ``message`` and ``success``.
        public var envelopeFields: EnvelopeFields<Payload> {
            EnvelopeFields(payload: data, message: message, isSuccessFlag: success, payloadKey: "data")
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

extension StatusEnvelope.Body: Sendable where Payload: Sendable {}
extension StatusEnvelope.Body: Equatable where Payload: Equatable {}
