/// The fields of a response envelope that Courier reads, whatever the envelope's shape: the
/// payload, the server's message, its success flag and its application code. An envelope
/// builds it; Courier reads it (a failure's message and code reach ``ServiceFailure``).
///
/// A custom envelope builds one in ``ResponseEnvelope/envelopeFields``, naming each of its own
/// fields explicitly, so a field of another name or type cannot be dropped silently:
/// ```swift
/// var envelopeFields: EnvelopeFields<P> {
///     EnvelopeFields(payload: body, message: info, isSuccessFlag: ok, code: errorCode, payloadKey: "body")
/// }
/// ```
public struct EnvelopeFields<Payload> {
    /// The payload; nil when missing or `null`.
    package var payload: Payload?
    /// The server's message.
    package var message: String?
    /// The server's success flag; `false` on a 2xx response makes it ``NetworkResult/requestErr(_:)``.
    package var isSuccessFlag: Bool?
    /// The server's application code as sent, in text form: `"COMMON200"`, `"USER404"`, `"2001"`.
    package var appCode: String?
    /// The payload's JSON key (`"data"`, `"result"`), used in error paths; nil when the payload
    /// is the whole body (``NoEnvelope``).
    package var payloadKey: String?

    /// Creates the fields. `code` takes the application code in whatever type the envelope
    /// declares it (`String`, `Int`, optional or not) and keeps its text (`"COMMON200"`, `"2001"`).
    public init(
        payload: Payload?, message: String? = nil, isSuccessFlag: Bool? = nil,
        code: (any LosslessStringConvertible)? = nil, payloadKey: String?
    ) {
        self.payload = payload
        self.message = message
        self.isSuccessFlag = isSuccessFlag
        self.appCode = code.map { $0.description }
        self.payloadKey = payloadKey
    }

    /// The application code as a number, when it is one (`"2001"` → `2001`); nil for codes such
    /// as `"COMMON200"`. `appCode` always has the code as sent.
    package var code: Int? { appCode.flatMap { Int($0) } }
}

extension EnvelopeFields: Sendable where Payload: Sendable {}
extension EnvelopeFields: Equatable where Payload: Equatable {}
