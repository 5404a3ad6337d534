import Foundation

/// A response body that wraps the useful value (the payload) with status fields, such as
/// `{"status": 200, "success": true, "message": "ok", "data": {…}}`.
///
/// Courier ships ``StatusEnvelope/Body``, ``ResultEnvelope/Body`` and
/// ``SuccessErrorEnvelope/Body``. For another shape, conform your own generic type and say, in
/// its one requirement, which of its fields are the payload, message, flag and code:
/// ```swift
/// struct Wrapped<P: Decodable>: ResponseEnvelope {
///     let ok: Bool
///     let info: String
///     let body: P?
///     var envelopeFields: EnvelopeFields<P> {
///         EnvelopeFields(payload: body, message: info, isSuccessFlag: ok, payloadKey: "body")
///     }
/// }
/// ```
/// Then pair it with an ``EnvelopeFormat`` so a service can name it once. The requirement has no
/// default on purpose: a type that does not say where its fields are does not compile.
public protocol ResponseEnvelope<Payload>: Decodable {
    /// The type of the wrapped value.
    associatedtype Payload: Decodable
    /// The fields Courier reads from this envelope.
    var envelopeFields: EnvelopeFields<Payload> { get }
}

/// Names how every response of a service is wrapped, for any payload type. A service declares it
/// once: `override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }`.
///
/// A format for your own envelope type is three lines:
/// ```swift
/// enum WrappedEnvelope: EnvelopeFormat {
///     static func open<P: Decodable>(_ data: Data, as payload: P.Type, decoder: any DataDecoder) throws -> EnvelopeFields<P> {
///         try decoder.decode(Wrapped<P>.self, from: data).envelopeFields
///     }
/// }
/// ```
public protocol EnvelopeFormat {
    /// Decodes `data` as this envelope around a `Payload`; throws the decoder's error.
    static func open<Payload: Decodable>(
        _ data: Data, as payload: Payload.Type, decoder: any DataDecoder
    ) throws
        -> EnvelopeFields<Payload>
}

/// A payload that decodes from anything and keeps nothing; used to read an envelope's message
/// and flags without caring about its payload.
package struct DiscardedPayload: Decodable, Sendable {
    /// Accepts any JSON value.
    package init(from decoder: any Decoder) throws {}
}

/// No envelope: the body is the value itself (for example `[Breed]` or `{"message": "…"}`).
public enum NoEnvelope: EnvelopeFormat {
    /// Decodes the whole body as the payload.
    public static func open<Payload: Decodable>(
        _ data: Data, as payload: Payload.Type, decoder: any DataDecoder
    ) throws
        -> EnvelopeFields<Payload>
    {
        EnvelopeFields(payload: try decoder.decode(Payload.self, from: data), payloadKey: nil)
    }
}
