import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request as a test transport received it: what the session really sent, after default
/// headers, plugins and interceptors. Every attempt is its own record, so a retry or a replay
/// after a token refresh shows up as a separate call.
///
/// ```swift
/// let sent = try XCTUnwrap(stubs.requests.last)
/// XCTAssertEqual(sent.method, "POST")
/// XCTAssertEqual(sent.path, "/auth/signin")
/// XCTAssertEqual(sent.header("Authorization"), "Bearer fresh")
/// XCTAssertEqual(sent.json, ["email": "ada@example.com", "pw": "lovelace"])
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The request exactly as handed to the transport.
    public let request: HTTPRequest
    /// What the request was built from (a router case...), when the session knew it.
    public let target: (any URLRequestConvertible)?
    /// The position of this call among all calls the transport received, from 0.
    package let index: Int
    /// The session's secret-header policy, used by ``description``.
    package let security: SecurityPolicy

    /// Records `request`.
    package init(
        _ request: HTTPRequest, target: (any URLRequestConvertible)? = nil, index: Int = 0,
        security: SecurityPolicy = SecurityPolicy()
    ) {
        self.request = request
        self.target = target
        self.index = index
        self.security = security
    }

    /// The method, such as `"POST"`.
    public var method: String { request.method.rawValue }

    /// The path, percent-decoded (`/search/a b`). The full URL is `request.url`.
    public var path: String {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.path ?? request.url.path
    }

    /// The query items in order, percent-decoded.
    var queryItems: [URLQueryItem] {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// The first value of the query item `name`, percent-decoded; nil when absent.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The value of the header `name`, matched without regard to case (every header:
    /// `request.headers`).
    public func header(_ name: String) -> String? {
        request.headers[name]
    }

    /// The body bytes (empty when there is none).
    public var body: Data { request.bodyData ?? Data() }

    /// The body as UTF-8 text; nil when it is not valid UTF-8.
    package var bodyText: String? { String(data: body, encoding: .utf8) }

    /// The body parsed as JSON; nil when it is empty or not JSON. To decode a type of your own:
    /// `try JSONDecoder().decode(Profile.self, from: sent.body)`.
    public var json: JSONValue? { JSONValue(data: body) }

    /// The method, URL, headers, a body excerpt and the target, one item per line: what a failing
    /// test needs to see. Secrets are redacted by the session's `SecurityPolicy`, as Courier's
    /// logger redacts them: secret headers, and secret keys in the query and the body.
    public var description: String {
        let redactor = Redactor(
            security: security, authorization: .declared(by: target))
        var lines = ["\(method) \(redactor.url(request.url))"]
        for header in request.headers.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            lines.append("  \(header.name): \(redactor.header(name: header.name, value: header.value))")
        }
        if !body.isEmpty {
            let type = request.headers["Content-Type"]
            lines.append("  body: \(Self.excerpt(of: body) { redactor.body($0, contentType: type) })")
        }
        if let target { lines.append("  from: \(Self.name(of: target))") }
        return lines.joined(separator: "\n")
    }

    /// `Type.caseName` for an enum case (associated values left out: they may be secrets), else the type.
    static func name(of target: any URLRequestConvertible) -> String {
        let typeName = String(reflecting: type(of: target))
        let mirror = Mirror(reflecting: target)
        guard mirror.displayStyle == .enum else { return typeName }
        return "\(typeName).\(mirror.children.first?.label ?? String(describing: target))"
    }

    /// The first 200 characters of a text body (after `redacting` it), or its size when it is binary.
    static func excerpt(of body: Data, limit: Int = 200, redacting: (String) -> String) -> String {
        guard let utf8 = String(data: body, encoding: .utf8) else { return "<\(body.count) bytes of binary data>" }
        let text = redacting(utf8)
        if text.count <= limit { return text }
        return String(text.prefix(limit)) + "… (\(body.count) bytes)"
    }
}
