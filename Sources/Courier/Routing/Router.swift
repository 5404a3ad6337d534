import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Describes an API's endpoints, usually as an enum with one case per endpoint.
///
/// Declare the base URL once for a whole API with a protocol of your own, then let each
/// router give only its path, method and parameters:
/// ```swift
/// protocol MyAPIRouter: Router {}
/// extension MyAPIRouter {
///     var baseURL: String { "https://api.example.com/v1" }
/// }
///
/// enum AuthRouter: MyAPIRouter {
///     case signIn(email: String, pw: String)
///     var path: String { "/auth/signin" }
///     var method: HTTPMethod { .post }
///     var parameters: RequestParams {
///         switch self {
///         case let .signIn(email, pw): return .body(["email": email, "pw": pw])
///         }
///     }
/// }
/// let request = try AuthRouter.signIn(email: "a@b.c", pw: "pw").asURLRequest()
/// ```
/// Courier builds the ``HTTPRequest`` once, when the request is made: it joins ``baseURL`` and
/// ``path`` with exactly one `/`, encodes ``parameters``, and sets ``defaultHeaders``
/// (`Accept: application/json`), then ``headers``, then the body's `Content-Type` unless one was
/// given (a multipart body always sets its own: the boundary is part of it), sent in that order.
/// Every failure is a ``CourierError`` naming what was wrong. `asURLRequest()` shows the same
/// request as a `URLRequest`; Courier never calls it, so implementing it does not change what is
/// sent (use a ``Plugin``'s `prepare` for that).
///
/// `headers`, `defaultHeaders`, `parameters` and `timeout` have defaults, so their types are
/// associated types, and a declaration of another type is used rather than silently ignored: a
/// router may declare `var headers: [String: String]?` (Moya's habit) or
/// `var timeout: TimeInterval` and they are used; a headers or timeout type Courier cannot read
/// fails the request with ``CourierError/invalidRequest`` naming the property.
///
/// `var parameters: [String: Any]` (or `Parameters`, or `RequestParams?`) does not compile: a
/// dictionary does not say how it is encoded. Declare `var parameters: RequestParams` and return
/// the case that says it: `.body(dict)` for a JSON body, `.parameters(dict)` for URL encoding
/// (the query for `GET`, `HEAD` and `DELETE`, a form body otherwise), `.query(dict)`,
/// `.form(dict)`, or `.requestPlain` for none.
public protocol Router: URLRequestConvertible {
    /// The type of ``headers``: ``HTTPHeaders`` unless the router declares `[String: String]`,
    /// or an optional of either.
    associatedtype HeadersType = HTTPHeaders
    /// The type of ``defaultHeaders``: ``HTTPHeaders`` unless the router declares another, as
    /// for ``headers``.
    associatedtype DefaultHeadersType = HTTPHeaders
    /// The type of ``parameters``: ``RequestParams``.
    associatedtype ParametersType = RequestParams
    /// The type of ``timeout``: `TimeInterval?` unless the router declares `TimeInterval`, `Int`
    /// or `Duration`, or an optional of these.
    associatedtype TimeoutType = TimeInterval?

    /// The absolute `http`/`https` URL that ``path`` is relative to, such as
    /// `"https://api.example.com/v1"`. It may end with `/` and may carry a query.
    /// An invalid value fails the request with ``CourierError/invalidURL``
    /// (or ``CourierError/unsupportedScheme`` for schemes such as `file`).
    var baseURL: String { get }
    /// The endpoint path, such as `"/users/\(segment: id)"`; may include `?query`.
    /// Use `\(segment:)` for user data: it escapes a value to exactly one segment.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Headers for this endpoint, applied over ``defaultHeaders``: ``HTTPHeaders`` or
    /// `[String: String]`, optional or not. Default: none.
    var headers: HeadersType { get }
    /// Headers shared by every endpoint. Default: `Accept: application/json`.
    var defaultHeaders: DefaultHeadersType { get }
    /// The parameters and how they are encoded. Default: ``RequestParams/requestPlain``.
    var parameters: ParametersType { get }
    /// The request timeout (`URLRequest.timeoutInterval`) in seconds (`TimeInterval` or `Int`)
    /// or as a `Duration`; `nil` keeps the session's default. Default: `nil`.
    var timeout: TimeoutType { get }
    /// A canned response body for stubbing and previews; `CourierTesting`'s `StubTransport`
    /// answers with it when a test sets no stub of its own. Default: empty (no sample).
    var sampleData: Data { get }
    /// The status code sent with ``sampleData``. Default: 200.
    var sampleStatusCode: Int { get }
    /// The headers sent with ``sampleData``. Default: `Content-Type: application/json` when
    /// ``sampleData`` is not empty, none otherwise.
    var sampleHeaders: HTTPHeaders { get }
    /// The credential this endpoint needs from an ``AuthenticationInterceptor``. Default:
    /// ``AuthorizationType/none``, so sign-in and refresh endpoints are never sent with a token;
    /// declare `.bearer` (or another type) for the endpoints that need one.
    var authorization: AuthorizationType { get }
}

extension Router where HeadersType == HTTPHeaders {
    /// No endpoint-specific headers.
    public var headers: HTTPHeaders { [] }
}

extension Router where DefaultHeadersType == HTTPHeaders {
    /// `Accept: application/json`.
    public var defaultHeaders: HTTPHeaders { .routerDefault }
}

extension Router where ParametersType == RequestParams {
    /// No parameters.
    public var parameters: RequestParams { .requestPlain }
}

extension Router where TimeoutType == TimeInterval? {
    /// No timeout of the router's own.
    public var timeout: TimeInterval? { nil }
}

extension Router {
    /// An empty body.
    public var sampleData: Data { Data() }
    /// 200.
    public var sampleStatusCode: Int { 200 }
    /// `Content-Type: application/json` when ``sampleData`` is not empty.
    public var sampleHeaders: HTTPHeaders { sampleData.isEmpty ? HTTPHeaders() : [.contentType("application/json")] }
    /// No credential.
    public var authorization: AuthorizationType { .none }

    /// Unavailable: a router's ``parameters`` say how they are encoded.
    @available(
        *, unavailable,
        message:
            "a Router's parameters say how they are encoded: declare 'var parameters: RequestParams' and return e.g. .body(dict) for JSON, .parameters(dict) for URL encoding (query for GET/HEAD/DELETE, form otherwise), .query(dict), .form(dict)"
    )
    public func asURLRequest() throws -> URLRequest {
        throw CourierError.invalidRequest(reason: "a Router's parameters must be RequestParams")
    }

    /// The router's parameters, which the compiler makes a ``RequestParams`` for every router
    /// that uses the default `asURLRequest()`.
    private func requestParams() throws(CourierError) -> RequestParams {
        // The common declaration without a dynamic cast (a cast costs more than encoding the
        // parameters).
        if ParametersType.self == RequestParams.self { return unsafeBitCast(parameters, to: RequestParams.self) }
        guard let parameters = parameters as? RequestParams else {
            throw .invalidRequest(
                reason: "a Router's parameters of type \(ParametersType.self) are not supported: declare RequestParams")
        }
        return parameters
    }
    /// The URL this router's request goes to, query parameters included.
    package func resolvedURL() throws -> URL {
        let encoded = try requestParams().encoded(for: method)
        return try URLBuilder.makeURL(base: baseURL, path: path, extraQuery: encoded.query)
    }

    /// The request for this router, validated: ``baseURL`` and ``path`` joined, ``parameters``
    /// encoded, ``defaultHeaders`` then ``headers`` then the body's `Content-Type`, in that order.
    ///
    /// Each of the router's properties is read once: a computed one (a base URL from mutable
    /// configuration, say) cannot give the check and the request two different values.
    package func makeRequest() throws(CourierError) -> HTTPRequest {
        let method = self.method
        let base = baseURL
        guard method.isValidToken else {
            throw .invalidRequest(reason: "'\(method.rawValue)' is not a valid HTTP method")
        }
        let timeout = try RouterValue.timeout(self.timeout)
        if let timeout, !(timeout.isFinite && timeout > 0) {
            throw .invalidRequest(reason: "timeout must be a positive number of seconds, got \(timeout)")
        }
        var allHeaders = try RouterValue.headers(defaultHeaders, of: "defaultHeaders")
        let ownHeaders = try RouterValue.headers(headers, of: "headers")
        // Merged only when there is something to merge: a merge copies the defaults (a reference
        // count on the storage every request of the router shares).
        if !ownHeaders.isEmpty { allHeaders = allHeaders.merging(ownHeaders) }
        // Before any body (or file) is encoded. The usual router's headers are the shared
        // defaults themselves, valid by construction (a test holds them): not checked again.
        if !allHeaders.isRouterDefault { try allHeaders.validated() }
        let encoded: EncodedParameters
        let url: URL
        do {
            let path = self.path
            let recent = URLBuilder.recentURL(base: base, path: path)
            // Fail fast, before any body (or file) is encoded; a URL built lately from `base`
            // says it is valid.
            if recent == nil { _ = try URLBuilder.validatedBase(base) }
            let parameters = try requestParams()
            // No parameters and a URL built lately: nothing to encode, and no encoded value to
            // make and destroy (about 300 instructions per request).
            if case .requestPlain = parameters, let recent {
                return HTTPRequest(trusted: method, url: recent, headers: allHeaders, body: .none, timeout: timeout)
            }
            encoded = try parameters.encoded(for: method)
            if let recent, encoded.query == nil {
                url = recent
            } else {
                url = try URLBuilder.makeURL(base: base, path: path, extraQuery: encoded.query)
            }
        } catch let error as CourierError {
            throw error
        } catch {
            throw .invalidRequest(reason: String(describing: error))
        }
        if let contentType = encoded.contentType, encoded.setsContentType(over: allHeaders["Content-Type"]) {
            allHeaders.update(.contentType(contentType))
            try allHeaders.validated()
        }
        let body: HTTPRequest.Body =
            if let stream = encoded.stream { .segments(stream) } else { encoded.body.map { .data($0) } ?? .none }
        return HTTPRequest(trusted: method, url: url, headers: allHeaders, body: body, timeout: timeout)
    }
}

extension Router where ParametersType == RequestParams? {
    /// Unavailable: a router's ``parameters`` are not optional.
    @available(
        *, unavailable,
        message:
            "a Router's parameters are not optional: declare 'var parameters: RequestParams', and return .requestPlain for none"
    )
    public func asURLRequest() throws -> URLRequest {
        throw CourierError.invalidRequest(reason: "a Router's parameters must be RequestParams")
    }
}

extension Router where ParametersType == RequestParams {
    /// The request Courier sends for this router, as a `URLRequest` (to inspect it, or to hand
    /// to code that wants one). Courier itself builds the router's ``HTTPRequest`` directly and
    /// never calls this: to change what is sent, use ``headers``, ``parameters`` and
    /// ``timeout``, or a ``Plugin``'s `prepare` for changes that need the whole request.
    public func asURLRequest() throws -> URLRequest {
        try makeRequest().urlRequest
    }
}
