import Foundation

/// A response body that wraps the useful value (the payload) with status fields, such as
/// `{"status": 200, "success": true, "message": "ok", "data": {…}}`.
///
/// Courier ships ``StatusResponse``, ``ResultResponse``, ``GenericResponse`` and
/// ``SuccessErrorResponse``; conform your own generic type to support another shape, and pair it
/// with an ``EnvelopeFormat`` so a service can name it once.
public protocol ResponseEnvelope<Payload>: Decodable {
    /// The type of the wrapped value.
    associatedtype Payload: Decodable
    /// The wrapped value; nil when the field is missing or `null`.
    var payload: Payload? { get }
    /// The server's human-readable message, if the shape has one.
    var message: String? { get }
    /// The server's own success flag (`success`, `isSuccess`), if the shape has one. A 2xx
    /// response whose flag is `false` becomes ``NetworkResult/requestErr(_:)``.
    var isSuccessFlag: Bool? { get }
    /// The server's application code, if the shape has one.
    var code: Int? { get }
    /// The JSON key of the payload (`"data"`, `"result"`), used in error paths.
    static var payloadKey: String { get }
}

extension ResponseEnvelope {
    /// No message field.
    public var message: String? { nil }
    /// No success flag.
    public var isSuccessFlag: Bool? { nil }
    /// No application code.
    public var code: Int? { nil }
    /// `"data"`.
    public static var payloadKey: String { "data" }
}

/// Names how every response of a service is wrapped, for any payload type. A service declares it
/// once: `override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }`.
///
/// A format for your own envelope type is three lines:
/// ```swift
/// enum MyEnvelope: EnvelopeFormat {
///     static func open<P: Decodable>(_ data: Data, as payload: P.Type, decoder: JSONDecoder) throws -> OpenedEnvelope<P> {
///         OpenedEnvelope(try decoder.decode(MyResponse<P>.self, from: data))
///     }
/// }
/// ```
public protocol EnvelopeFormat {
    /// Decodes `data` as this envelope around a `Payload`; throws the decoder's error.
    static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload>
}

/// The fields of a decoded envelope, independent of its shape.
public struct OpenedEnvelope<Payload> {
    /// The payload; nil when missing or `null`.
    public var payload: Payload?
    /// The server's message.
    public var message: String?
    /// The server's success flag.
    public var isSuccessFlag: Bool?
    /// The server's application code.
    public var code: Int?
    /// The payload's JSON key, or nil when the payload is the whole body (``NoEnvelope``).
    public var payloadKey: String?

    /// Creates the fields directly.
    public init(payload: Payload?, message: String? = nil, isSuccessFlag: Bool? = nil, code: Int? = nil,
                payloadKey: String?) {
        self.payload = payload
        self.message = message
        self.isSuccessFlag = isSuccessFlag
        self.code = code
        self.payloadKey = payloadKey
    }

    /// Reads the fields of a decoded envelope.
    public init<Envelope: ResponseEnvelope>(_ envelope: Envelope) where Envelope.Payload == Payload {
        self.init(payload: envelope.payload, message: envelope.message, isSuccessFlag: envelope.isSuccessFlag,
                  code: envelope.code, payloadKey: Envelope.payloadKey)
    }
}

/// A payload that decodes from anything and keeps nothing; used to read an envelope's message
/// and flags without caring about its payload.
public struct DiscardedPayload: Decodable, Sendable {
    /// Accepts any JSON value.
    public init(from decoder: any Decoder) throws {}
}

/// No envelope: the body is the value itself (for example `[Breed]` or `{"message": "…"}`).
public enum NoEnvelope: EnvelopeFormat {
    /// Decodes the whole body as the payload.
    public static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, decoder: JSONDecoder) throws
        -> OpenedEnvelope<Payload> {
        OpenedEnvelope(payload: try decoder.decode(Payload.self, from: data), payloadKey: nil)
    }
}
