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
/// The default ``asURLRequest()`` joins ``baseURL`` and ``path`` with exactly one `/`,
/// encodes ``parameters``, and sets ``defaultHeaders`` (`Accept: application/json`), then
/// ``headers``, then the body's `Content-Type` unless one was given. Every failure throws a
/// ``CourierError``.
public protocol Router: URLRequestConvertible {
    /// The absolute `http`/`https` URL that ``path`` is relative to, such as
    /// `"https://api.example.com/v1"`. It may end with `/` and may carry a query.
    /// An invalid value makes ``asURLRequest()`` throw ``CourierError/invalidURL(_:)``
    /// (or ``CourierError/unsupportedScheme(_:)`` for schemes such as `file`).
    var baseURL: String { get }
    /// The endpoint path, such as `"/users/\(segment: id)"`; may include `?query`.
    /// Use ``PathSegment/escape(_:)`` or `\(segment:)` for user data.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Headers for this endpoint, applied over ``defaultHeaders``. Default: none.
    var headers: HTTPHeaders { get }
    /// Headers shared by every endpoint. Default: ``HTTPHeaders/routerDefault``
    /// (`Accept: application/json`).
    var defaultHeaders: HTTPHeaders { get }
    /// The parameters and how they are encoded. Default: ``RequestParams/requestPlain``.
    var parameters: RequestParams { get }
    /// The request timeout in seconds (`URLRequest.timeoutInterval`); `nil` keeps the
    /// session's default. Default: `nil`.
    var timeout: TimeInterval? { get }
    /// A canned response body for stubbing and previews. Default: empty.
    var sampleData: Data { get }
    /// Builds the request; the default implementation is ``makeURLRequest()``.
    func asURLRequest() throws -> URLRequest
}

extension Router {
    /// No endpoint-specific headers.
    public var headers: HTTPHeaders { [] }
    /// `Accept: application/json`.
    public var defaultHeaders: HTTPHeaders { .routerDefault }
    /// No parameters.
    public var parameters: RequestParams { .requestPlain }
    /// No timeout of the router's own.
    public var timeout: TimeInterval? { nil }
    /// An empty body.
    public var sampleData: Data { Data() }

    /// Builds the request with ``makeURLRequest()``.
    public func asURLRequest() throws -> URLRequest {
        try makeURLRequest()
    }

    /// The URL this router's request goes to, query parameters included.
    public func resolvedURL() throws -> URL {
        let encoded = try parameters.encoded(for: method)
        return try URLBuilder.makeURL(base: baseURL, path: path, extraQuery: encoded.query)
    }

    /// The standard request for this router; call it from a custom ``asURLRequest()`` to
    /// adjust the result.
    public func makeURLRequest() throws -> URLRequest {
        guard method.isValidToken else {
            throw CourierError.invalidRequest(reason: "'\(method.rawValue)' is not a valid HTTP method")
        }
        if let timeout, !(timeout.isFinite && timeout > 0) {
            throw CourierError.invalidRequest(reason: "timeout must be a positive number of seconds, got \(timeout)")
        }
        var allHeaders = defaultHeaders.merging(headers)
        try allHeaders.validate()
        _ = try URLBuilder.validatedBase(baseURL)  // fail fast, before any body (or file) is encoded
        let encoded = try parameters.encoded(for: method)
        let url = try URLBuilder.makeURL(base: baseURL, path: path, extraQuery: encoded.query)

        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }  // GET is URLRequest's default
        if let timeout {
            request.timeoutInterval = timeout
        }
        if let contentType = encoded.contentType, allHeaders["Content-Type"] == nil {
            allHeaders.update(.contentType(contentType))
        }
        try request.setHeaders(allHeaders)
        request.httpBody = encoded.body
        if let stream = encoded.stream { request.httpBodyStream = UploadBodyStream(.segments(stream)) }
        return request
    }
}
