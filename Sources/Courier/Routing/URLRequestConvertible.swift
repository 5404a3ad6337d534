import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A value that can produce the `URLRequest` Courier sends: a ``Router`` case, or an
/// ``AdHocRequest`` made with `.url(_:method:headers:)` or ``urlRequest(_:)``:
/// ```swift
/// let data = try await session.request(.url("https://example.com/get")).validate().data()
/// ```
public protocol URLRequestConvertible: Sendable {
    /// Builds the request, throwing a ``CourierError`` naming what was wrong.
    func asURLRequest() throws -> URLRequest
}

/// A request given without a ``Router``: a URL (as a string or a `URL`), with a method and
/// headers, or a ready `URLRequest`. Make one with `.url(_:method:headers:)` (a `String` or a
/// `URL`) or ``URLRequestConvertible/urlRequest(_:)`` where a ``URLRequestConvertible`` is
/// expected:
/// ```swift
/// session.request(.url("https://example.com/get"))
/// session.request(.url(url, method: .delete, headers: [.authorization(bearerToken: token)]))
/// session.download(.urlRequest(prepared), to: destination)
/// ```
/// A URL is checked when the request is built: ``asURLRequest()`` throws
/// ``CourierError/invalidURL`` for a string that is not an absolute URL with a host, and
/// ``CourierError/unsupportedScheme`` for a scheme other than `http` or `https`.
public struct AdHocRequest: URLRequestConvertible {
    private enum Source: Sendable {
        case string(String)
        case url(URL)
        case request(URLRequest)
    }

    private let source: Source
    private let method: HTTPMethod
    private let headers: HTTPHeaders

    private init(_ source: Source, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders()) {
        self.source = source
        self.method = method
        self.headers = headers
    }

    /// The request: for a URL, a request with the method and headers given (no others); for a
    /// `URLRequest`, the request itself.
    public func asURLRequest() throws -> URLRequest {
        let url: URL
        switch source {
        case .request(let request): return request
        case .url(let given): url = try Self.checked(given, as: given.absoluteString)
        case .string(let string):
            guard let parsed = URL(string: string) else { throw CourierError.invalidURL(string) }
            url = try Self.checked(parsed, as: string)
        }
        guard method.isValidToken else {
            throw CourierError.invalidRequest(reason: "'\(method.rawValue)' is not a valid HTTP method")
        }
        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }  // GET is URLRequest's default
        try request.setHeaders(headers)
        return request
    }

    /// `url` when it is absolute, with a host and an `http`/`https` scheme.
    private static func checked(_ url: URL, as text: String) throws(CourierError) -> URL {
        guard let scheme = url.scheme else { throw .invalidURL(text) }
        guard SecurityPolicy.allowsScheme(scheme) else { throw .unsupportedScheme(scheme) }
        guard url.host != nil else { throw .invalidURL(text) }
        return url
    }

    static func make(_ string: String, method: HTTPMethod, headers: HTTPHeaders) -> AdHocRequest {
        AdHocRequest(.string(string), method: method, headers: headers)
    }

    static func make(_ url: URL, method: HTTPMethod, headers: HTTPHeaders) -> AdHocRequest {
        AdHocRequest(.url(url), method: method, headers: headers)
    }

    static func make(_ request: URLRequest) -> AdHocRequest { AdHocRequest(.request(request)) }
}

extension URLRequestConvertible where Self == AdHocRequest {
    /// A request for the absolute `http`/`https` URL `string`, which may carry a query; building
    /// it throws ``CourierError/invalidURL`` or ``CourierError/unsupportedScheme``.
    /// - Parameters:
    ///   - string: the URL.
    ///   - method: the HTTP method. Default: `GET`.
    ///   - headers: the headers to send. Default: none.
    public static func url(_ string: String, method: HTTPMethod = .get, headers: HTTPHeaders = []) -> AdHocRequest {
        .make(string, method: method, headers: headers)
    }

    /// A request for `url`, which must be absolute with an `http`/`https` scheme; building it
    /// throws ``CourierError/invalidURL`` or ``CourierError/unsupportedScheme`` otherwise.
    /// - Parameters:
    ///   - url: the URL.
    ///   - method: the HTTP method. Default: `GET`.
    ///   - headers: the headers to send. Default: none.
    public static func url(_ url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = []) -> AdHocRequest {
        .make(url, method: method, headers: headers)
    }

    /// `request`, sent as it is (the session's default headers, interceptors and plugins still
    /// apply).
    public static func urlRequest(_ request: URLRequest) -> AdHocRequest { .make(request) }
}
