// The envelope models' former names. Apps often define types with these names themselves (a
// `GenericResponse` of their own silently shadowed Courier's), so the models are now named after
// their envelope: `StatusEnvelope.Body`, `ResultEnvelope.Body`, `SuccessErrorEnvelope.Body`.

/// Former name of ``StatusEnvelope/Body``.
@available(*, deprecated, renamed: "StatusEnvelope.Body")
public typealias StatusResponse<Payload: Decodable> = StatusEnvelope.Body<Payload>

/// Former name of ``StatusEnvelope/Body``: `{status, data?, success, message?}` is the same shape.
@available(*, deprecated, renamed: "StatusEnvelope.Body")
public typealias GenericResponse<Payload: Decodable> = StatusEnvelope.Body<Payload>

/// Former name of ``ResultEnvelope/Body``.
@available(*, deprecated, renamed: "ResultEnvelope.Body")
public typealias ResultResponse<Payload: Decodable> = ResultEnvelope.Body<Payload>

/// Former name of ``SuccessErrorEnvelope/Body``.
@available(*, deprecated, renamed: "SuccessErrorEnvelope.Body")
public typealias SuccessErrorResponse<Payload: Decodable> = SuccessErrorEnvelope.Body<Payload>

/// Former name of ``StatusEnvelope``, whose body has the same shape.
@available(*, deprecated, renamed: "StatusEnvelope")
public typealias GenericEnvelope = StatusEnvelope

/// Former name of ``EnvelopeFields``.
@available(*, deprecated, renamed: "EnvelopeFields")
public typealias OpenedEnvelope<Payload> = EnvelopeFields<Payload>
