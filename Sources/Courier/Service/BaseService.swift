import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The base class of an API's services: holds the ``Session``, names the response envelope once,
/// and turns every response into a ``NetworkResult`` in one place, ``judgeStatus(by:_:type:decodingMode:)``.
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
/// mutable state with a lock). With it, `static let shared = AuthService()` compiles in Swift 6
/// and Swift 5 language modes alike.
open class BaseService: @unchecked Sendable {
    /// The session requests are sent with (``Session/default`` unless given to ``init(session:decoder:)``).
    public let session: Session
    /// The decoder for bodies and envelopes.
    public let decoder: JSONDecoder

    /// Creates a service over `session`, decoding with `decoder`.
    public init(session: Session = .default, decoder: JSONDecoder = JSONDecoder()) {
        self.session = session
        self.decoder = decoder
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

    /// Creates the request for `target`; override to add validation or per-service tweaks.
    /// The service's ``plugins`` are added to whatever it returns.
    open func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
        session.request(target)
    }

    /// ``makeRequest(_:)`` with the service's ``plugins`` added.
    final func serviceRequest(_ target: any URLRequestConvertible) -> DataRequest {
        let request = makeRequest(target)
        for plugin in plugins { request.plugin(plugin) }
        return request
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
    /// Default: 2xx → ``decodeBody(statusCode:_:type:decodingMode:)`` (``NetworkResult/success(_:)``,
    /// or ``NetworkResult/pathErr(_:)`` when the body does not hold the value, or
    /// ``NetworkResult/requestErr(_:)`` when the envelope's success flag is false);
    /// 4xx → ``NetworkResult/requestErr(_:)``; 5xx and any other status → ``NetworkResult/serverErr(_:)``.
    open func judgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        switch statusCode {
        case 200..<300: return decodeBody(statusCode: statusCode, data, type: type, decodingMode: decodingMode)
        case 400..<500: return .requestErr(failure(statusCode: statusCode, data))
        default: return .serverErr(failure(statusCode: statusCode, data))
        }
    }

    /// Decodes a successful body with the service's envelope: ``NetworkResult/success(_:)``,
    /// ``NetworkResult/pathErr(_:)`` or, for a false success flag, ``NetworkResult/requestErr(_:)``.
    public final func decodeBody<T: Decodable & Sendable>(
        statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        switch reader.value(of: type, from: data, mode: decodingMode) {
        case .success(let value):
            return .success(value)
        case .failure(.flaggedFailure(let message, let code)):
            return .requestErr(ServiceFailure(statusCode: statusCode, message: message, code: code, body: data))
        case .failure(.undecodable(let error, let message, let code)):
            return .pathErr(ServiceFailure(statusCode: statusCode, message: message, code: code, body: data,
                                           error: error))
        }
    }

    /// The failure context for an error response: status, raw body, and the server's message and
    /// code when the body has them.
    public final func failure(statusCode: Int, _ data: Data) -> ServiceFailure {
        let details = reader.failureDetails(in: data)
        return ServiceFailure(statusCode: statusCode, message: details.message, code: details.code, body: data)
    }

    /// Maps a finished request to a ``NetworkResult``: a transport failure (or no HTTP response)
    /// is ``NetworkResult/networkFail(_:)``, anything else goes to
    /// ``judgeStatus(by:_:type:decodingMode:)``.
    public final func judge<T: Decodable & Sendable>(
        _ response: DataResponse<Data?>, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        let body = response.data ?? Data()
        guard let statusCode = response.statusCode, response.error == nil else {
            let error = response.error ?? .protocolViolation(message: "no HTTP response")
            return .networkFail(ServiceFailure(statusCode: response.statusCode, body: body, error: error))
        }
        return judgeStatus(by: statusCode, body, type: type, decodingMode: decodingMode)
    }

    /// Like ``judge(_:as:decodingMode:)``, keeping the status and headers with the value.
    public final func judgeReply<T: Decodable & Sendable>(
        _ response: DataResponse<Data?>, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<ServiceReply<T>> {
        let statusCode = response.statusCode ?? 0
        let headers = response.headers
        return judge(response, as: type, decodingMode: decodingMode).map {
            ServiceReply(value: $0, statusCode: statusCode, headers: headers)
        }
    }

    private var reader: EnvelopeReader {
        EnvelopeReader(format: type(of: self).envelope, decoder: decoder)
    }
}
