import Foundation

/// A feature's service: names its API's envelope once and turns every response into a
/// ``NetworkResult``, with the request helpers (`request`, `requestValue`) as extensions.
///
/// Adopt it with a final class, a struct or an actor whose stored properties are `Sendable`
/// constants; the compiler checks that, so no `@unchecked Sendable` is needed:
/// ```swift
/// final class AuthService: Service {
///     static let shared = AuthService()
///     static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
///
///     func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
///         await request(AuthRouter.signIn(email: email, pw: pw))
///     }
/// }
/// ```
/// ``envelope`` has no default, so a service that does not declare it, or declares it with
/// another type, does not compile. Every other requirement has a default: ``session`` is
/// ``Session/default``, ``decoder`` the session's decoder (``CourierJSONDecoder`` unless the session
/// says otherwise), ``plugins`` empty; ``makeRequest(_:)`` and
/// ``judgeStatus(by:_:type:decodingMode:)`` are the two override points, each with a `standard…`
/// implementation to fall back to. ``ServiceSession`` points services at another session (a stub
/// in tests, a staging server) without editing them.
///
/// ``BaseService`` is the same machinery as a base class, for the router-pattern style.
public protocol Service: Sendable {
    /// How this service's responses are wrapped: ``NoEnvelope``, ``StatusEnvelope``,
    /// ``ResultEnvelope``, ``SuccessErrorEnvelope`` or your own ``EnvelopeFormat``.
    static var envelope: any EnvelopeFormat.Type { get }
    /// The service's own session. Default: ``Session/default``. A ``ServiceSession`` override,
    /// when one is active, is used instead.
    var session: Session { get }
    /// The decoder for bodies and envelopes. Default: the service's ``session``'s
    /// ``Session/Configuration/decoder``, a ``CourierJSONDecoder`` unless that session says
    /// otherwise. Return Foundation's `JSONDecoder` to decode this service's responses with it.
    var decoder: any DataDecoder { get }
    /// Plugins for every request of this service, run after the session's plugins (see
    /// ``Plugin``). Default: none.
    var plugins: [any Plugin] { get }
    /// Creates the request for `target`; every helper sends its requests through here, then adds
    /// ``plugins`` to it. Default: ``standardRequest(_:)``. Implement it to add something to every
    /// request, building on ``standardRequest(_:)``: `standardRequest(target).validate()`.
    func makeRequest(_ target: any URLRequestConvertible) -> DataRequest
    /// Maps a response's status and body to a ``NetworkResult``. Default:
    /// ``standardJudgeStatus(by:_:type:decodingMode:)``. Implement it to treat some statuses
    /// differently, falling back to ``standardJudgeStatus(by:_:type:decodingMode:)``.
    func judgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode
    ) -> NetworkResult<T>
}

extension Service {
    /// ``Session/default``.
    public var session: Session { .default }

    /// The ``session``'s ``Session/Configuration/decoder``.
    public var decoder: any DataDecoder { session.configuration.decoder }

    /// No plugins.
    public var plugins: [any Plugin] { [] }

    /// ``standardRequest(_:)``.
    public func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
        standardRequest(target)
    }

    /// ``standardJudgeStatus(by:_:type:decodingMode:)``.
    public func judgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode
    ) -> NetworkResult<T> {
        standardJudgeStatus(by: statusCode, data, type: type, decodingMode: decodingMode)
    }

    /// The request for `target` on the session in effect: the ``ServiceSession`` override if
    /// one is active, else ``session``. Custom ``makeRequest(_:)`` implementations build on it.
    public func standardRequest(_ target: any URLRequestConvertible) -> DataRequest {
        (ServiceSession.current ?? session).request(target)
    }

    /// ``makeRequest(_:)`` with the service's ``plugins`` added: what every helper sends.
    func serviceRequest(_ target: any URLRequestConvertible) -> DataRequest {
        let request = makeRequest(target)
        for plugin in plugins { request.plugin(plugin) }
        return request
    }

    /// The standard mapping of a status and body to a ``NetworkResult``:
    /// 2xx → the body decoded with the service's envelope (``NetworkResult/success(_:)``,
    /// ``NetworkResult/pathErr(_:)`` when the body does not hold the value, or
    /// ``NetworkResult/requestErr(_:)`` when the envelope's success flag is false);
    /// 4xx → ``NetworkResult/requestErr(_:)``; 5xx and any other status → ``NetworkResult/serverErr(_:)``,
    /// with the status, the body and the server's message and application code when it has them.
    /// An override builds on it for any status: `standardJudgeStatus(by: 404, …)` gives the
    /// failure context of an error response, `standardJudgeStatus(by: 200, …)` decodes a body.
    public func standardJudgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        switch statusCode {
        case 200..<300: return decodeBody(statusCode: statusCode, data, type: type, decodingMode: decodingMode)
        case 400..<500: return .requestErr(failure(statusCode: statusCode, data))
        default: return .serverErr(failure(statusCode: statusCode, data))
        }
    }
}
