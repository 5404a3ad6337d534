import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Prepares a one-off request without declaring a ``Router``, with the same encoding rules:
    /// ```swift
    /// let user = try await Session.default
    ///     .request("https://api.example.com/users", method: .post, parameters: .body(["name": "Ada"]))
    ///     .validate().decodable(User.self)
    /// ```
    /// - Parameters:
    ///   - url: an absolute `http`/`https` URL, which may carry a query.
    ///   - method: the HTTP method (required, so that `request("https://…")` alone stays the plain
    ///     `URLRequestConvertible` form).
    ///   - parameters: how parameters are encoded. Default: none.
    ///   - headers: headers to send; unlike a ``Router``, no `Accept` header is added for you.
    public func request(
        _ url: String, method: HTTPMethod, parameters: RequestParams = .requestPlain,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> DataRequest {
        request(AdHocRoute(baseURL: url, method: method, parameters: parameters, headers: headers))
    }
}

/// The router behind ``Session/request(_:method:parameters:headers:)``: one URL, no path.
struct AdHocRoute: Router {
    let baseURL: String
    let method: HTTPMethod
    let parameters: RequestParams
    let headers: HTTPHeaders
    var path: String { "" }
    var defaultHeaders: HTTPHeaders { HTTPHeaders() }
}
