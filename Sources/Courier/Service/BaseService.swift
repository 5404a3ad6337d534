import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The base class of an API's services, for the router-pattern style: holds the ``Session``,
/// names the response envelope once, and turns every response into a ``NetworkResult`` in one
/// place, ``judgeStatus(by:_:type:decodingMode:)``. It is a ``Service``: the request helpers,
/// ``ServiceSession`` overrides and judging are the same machinery.
///
/// ```swift
/// final class AuthService: BaseService, @unchecked Sendable {
///     static let shared = AuthService()
///     private init() { super.init() }
///     override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
///
///     func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
///         await request(AuthRouter.signIn(email: email, pw: pw))
///     }
/// }
/// ```
/// Requests are sent without `validate()`: every status reaches `judgeStatus`.
///
/// `BaseService` is `@unchecked Sendable` because it is an `open` class: Swift checks `Sendable`
/// only for final classes. Its own state is two `let` constants of `Sendable` types. Swift asks
/// every subclass to restate the conformance (`BaseService, @unchecked Sendable`), which is the
/// subclass author's promise to keep to immutable, `Sendable` stored properties (or to protect
/// mutable state with a lock). To have the compiler check a service instead, adopt ``Service``
/// with a final class, a struct or an actor.
open class BaseService: Service, @unchecked Sendable {
    /// The session requests are sent with (``Session/default`` unless given to
    /// ``init(session:decoder:)``), unless a ``ServiceSession`` override is active.
    public let session: Session
    /// The decoder for bodies and envelopes.
    public let decoder: any DataDecoder

    /// Creates a service over `session`, decoding with `decoder`, or when it is nil with the
    /// session's ``Session/Configuration/decoder`` (a ``CourierJSONDecoder`` unless the session
    /// says otherwise). Pass a `JSONDecoder` to decode with Foundation.
    public init(session: Session = .default, decoder: (any DataDecoder)? = nil) {
        self.session = session
        self.decoder = decoder ?? session.configuration.decoder
    }

    /// How this service's responses are wrapped. Default: ``NoEnvelope`` (the body is the value).
    /// Override once per service, or once in a base service shared by an API's services.
    open class var envelope: any EnvelopeFormat.Type { NoEnvelope.self }

    /// Plugins for every request of this service, run after the session's plugins (see ``Plugin``).
    /// Default: none. Override to log or adjust one service's traffic:
    /// ```swift
    /// override var plugins: [any Plugin] { [NetworkLogger(level: .basic)] }
    /// ```
    open var plugins: [any Plugin] { [] }

    /// Creates the request for `target`; every helper sends its requests through here, then adds
    /// the service's ``plugins`` to it. Override to add validation or per-service tweaks, building
    /// on `super`:
    /// ```swift
    /// override func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
    ///     super.makeRequest(target).validate()
    /// }
    /// ```
    /// Default: ``Service/standardRequest(_:)`` (the ``ServiceSession`` override, else ``session``).
    open func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
        standardRequest(target)
    }

    /// Maps a response's status and body to a ``NetworkResult``. Override to treat some statuses
    /// differently (for example a 404 as an empty success), falling back to `super`:
    /// ```swift
    /// override func judgeStatus<T: Decodable & Sendable>(by statusCode: Int, _ data: Data, type: T.Type,
    ///                                                    decodingMode: DecodingMode) -> NetworkResult<T> {
    ///     if statusCode == 404, let none = [Song]() as? T { return .success(none) }
    ///     return super.judgeStatus(by: statusCode, data, type: type, decodingMode: decodingMode)
    /// }
    /// ```
    /// Default: ``Service/standardJudgeStatus(by:_:type:decodingMode:)``.
    open func judgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        standardJudgeStatus(by: statusCode, data, type: type, decodingMode: decodingMode)
    }
}
