import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A value that can produce the `URLRequest` Courier sends: a ``Router`` case, a `URLRequest`,
/// a `URL` or a URL string.
public protocol URLRequestConvertible: Sendable {
    /// Builds the request, throwing a ``CourierError`` naming what was wrong.
    func asURLRequest() throws -> URLRequest
}

extension URLRequest: URLRequestConvertible {
    /// Returns the request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

extension URL: URLRequestConvertible {
    /// A `GET` request for this URL.
    public func asURLRequest() throws -> URLRequest { URLRequest(url: self) }
}

extension String: URLRequestConvertible {
    /// A `GET` request for this string parsed as a URL; throws ``CourierError/invalidURL`` or
    /// ``CourierError/unsupportedScheme``.
    public func asURLRequest() throws -> URLRequest {
        guard let url = URL(string: self), let scheme = url.scheme else {
            throw CourierError.invalidURL(self)
        }
        guard SecurityPolicy.allowsScheme(scheme) else { throw CourierError.unsupportedScheme(scheme) }
        guard url.host != nil else { throw CourierError.invalidURL(self) }
        return URLRequest(url: url)
    }
}
