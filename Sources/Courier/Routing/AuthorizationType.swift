import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The credential an endpoint needs, declared by its ``Router`` (``Router/authorization``) and
/// applied by an ``AuthenticationInterceptor``.
///
/// ```swift
/// enum AuthRouter: Router {
///     case signIn(email: String, pw: String), refresh(token: String), me
///     var authorization: AuthorizationType {
///         switch self {
///         case .signIn, .refresh: return .none      // never sent with a (maybe stale) token
///         case .me: return .bearer
///         }
///     }
///     // ...
/// }
/// ```
public enum AuthorizationType: Sendable, Equatable {
    /// No credential: the interceptor leaves the request alone and never refreshes for it.
    case none
    /// `Authorization: Bearer <access token>`.
    case bearer
    /// `Authorization: Basic <access token>`; make the credential with ``AuthCredential/basic(username:password:)``.
    case basic
    /// The access token in a header of your choice, after `scheme` and a space when one is given:
    /// `.custom(header: "X-Auth-Token")`, or `.custom(header: "Authorization", scheme: "Token")`.
    case custom(header: String, scheme: String? = nil)
    /// The access token as a URL query parameter, `?name=<token>` (percent-encoded, replacing a
    /// parameter of that name the router wrote), for APIs keyed by the URL:
    /// `.query(name: "api_key")`. Its value is redacted in the ``NetworkLogger``'s lines,
    /// ``DataRequest/cURLDescription()`` and CourierTesting's descriptions and fixtures.
    case query(name: String)
    /// The access token as the cookie `name=<token>` in the request's `Cookie` header (beside the
    /// request's other cookies, replacing one of that name): `.cookie(name: "session")`. Bytes a
    /// cookie value cannot carry (controls, space, `"`, `,`, `;`, `\`, non-ASCII) and `%` are
    /// percent-encoded.
    case cookie(name: String)

    /// Where the credential goes, for a request: the header name and value, the query parameter,
    /// or the cookie; nil for ``none``.
    enum Placement: Equatable {
        case header(name: String, value: String)
        case query(name: String, value: String)
        case cookie(name: String, value: String)
    }

    /// Where `token` goes, or nil for ``none``.
    func placement(of token: String) -> Placement? {
        switch self {
        case .none: return nil
        case .bearer: return .header(name: "Authorization", value: "Bearer " + token)
        case .basic: return .header(name: "Authorization", value: "Basic " + token)
        case .custom(let header, let scheme):
            return .header(name: header, value: scheme.map { $0 + " " + token } ?? token)
        case .query(let name): return .query(name: name, value: token)
        case .cookie(let name): return .cookie(name: name, value: Self.cookieValue(token))
        }
    }

    /// `request` carrying `token` where this type says.
    func applying(_ token: String, to request: URLRequest) -> URLRequest {
        var request = request
        switch placement(of: token) {
        case .none: break
        case .header(let name, let value)?:
            request.setValue(value, forHTTPHeaderField: name)
        case .query(let name, let value)?:
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { break }
            var items = (components.percentEncodedQuery ?? "").split(separator: "&").filter {
                Self.queryName(of: $0) != name
            }.map(String.init)
            items.append(Self.queryEscaped(name) + "=" + Self.queryEscaped(value))
            components.percentEncodedQuery = items.joined(separator: "&")
            if let adapted = components.url { request.url = adapted }
        case .cookie(let name, let value)?:
            let others = Self.cookies(in: request.value(forHTTPHeaderField: "Cookie")).filter { $0.name != name }
            let line = (others.map { $0.name + "=" + $0.value } + [name + "=" + value]).joined(separator: "; ")
            request.setValue(line, forHTTPHeaderField: "Cookie")
        }
        return request
    }

    /// The credential `request` was sent with, as placed (what ``placement(of:)`` gives as its
    /// value), or nil when it carries none.
    func sentValue(in request: URLRequest) -> String? {
        switch placement(of: "") {
        case .none: return nil
        case .header(let name, _)?:
            return request.value(forHTTPHeaderField: name)
        case .query(let name, _)?:
            guard let url = request.url else { return nil }
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return items.last { $0.name == name }?.value
        case .cookie(let name, _)?:
            return Self.cookies(in: request.value(forHTTPHeaderField: "Cookie")).last { $0.name == name }?.value
        }
    }

    /// The value ``sentValue(in:)`` reads back from a request sent with `token`.
    func placedValue(of token: String) -> String? {
        switch placement(of: token) {
        case .none: return nil
        case .header(_, let value)?, .query(_, let value)?, .cookie(_, let value)?: return value
        }
    }

    /// The name of a `name=value` query item, percent-decoded.
    private static func queryName(of item: Substring) -> String {
        let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(name).removingPercentEncoding ?? String(name)
    }

    private static func queryEscaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        PercentEscaping.appendQueryEscaped(text, options: URLEncodingOptions(), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `name=value` pairs of a `Cookie` line.
    private static func cookies(in line: String?) -> [(name: String, value: String)] {
        guard let line else { return [] }
        return line.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }

    /// `token` with the bytes outside RFC 6265's `cookie-octet`, and `%`, percent-encoded.
    static func cookieValue(_ token: String) -> String {
        PercentEscaping.escape(token) { byte in
            let octet =
                byte == 0x21 || (0x23...0x2B).contains(byte) || (0x2D...0x3A).contains(byte)
                || (0x3C...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
            return octet && byte != UInt8(ascii: "%") ? byte : nil
        }
    }

    /// The authorization `target` declares: its router's, else ``none`` (a URL or a `URLRequest`).
    package static func declared(by target: (any URLRequestConvertible)?) -> AuthorizationType {
        (target as? any Router)?.authorization ?? .none
    }
}
