import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which requests a stub answers: conditions on method, path, query, headers, body or the
/// router case, combined with `and`.
///
/// ```swift
/// stubs.on(.request(.post, "/auth/signin").jsonBody(["email": "ada@example.com", "pw": "wrong"]),
///          reply: .json(#"{"status":409,"success":false,"message":"wrong password"}"#, statusCode: 409))
/// stubs.on(.request(.get, "/trips").query("page", "2").header("Authorization"), reply: .json(page2))
/// stubs.on(.target(AuthRouter.self) { if case .signUp = $0 { true } else { false } }, reply: .empty(statusCode: 201))
/// ```
/// Paths compare percent-decoded and exactly (no trailing-slash folding); query conditions
/// look at one item and ignore the others.
public struct RequestMatcher: Sendable, CustomStringConvertible {
    private let predicate: @Sendable (RecordedRequest) -> Bool
    /// What the matcher accepts, in words; unmatched-request errors list it.
    public let description: String

    /// A matcher from any condition; `description` says what it accepts.
    public init(_ description: String, where predicate: @escaping @Sendable (RecordedRequest) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Whether `request` satisfies every condition.
    package func matches(_ request: RecordedRequest) -> Bool { predicate(request) }

    /// Both this matcher's conditions and `other`'s.
    public func and(_ other: RequestMatcher) -> RequestMatcher {
        RequestMatcher("\(description) and \(other.description)") { self.matches($0) && other.matches($0) }
    }

    // MARK: Starting points

    /// Every request.
    public static var any: RequestMatcher { RequestMatcher("any request") { _ in true } }

    /// Requests with this method.
    public static func method(_ method: HTTPMethod) -> RequestMatcher {
        RequestMatcher(method.rawValue) { $0.method == method.rawValue }
    }

    /// Requests to this path, whatever the method.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("any method \(path)") { $0.path == path }
    }

    /// Requests with this method and path: `.request(.get, "/me")`.
    public static func request(_ method: HTTPMethod, _ path: String) -> RequestMatcher {
        RequestMatcher("\(method.rawValue) \(path)") { $0.method == method.rawValue && $0.path == path }
    }

    /// Requests equal to what `router` builds: same method, URL (query included) and body.
    /// Use it to stub one router case with its associated values.
    public static func router(_ router: some Router) -> RequestMatcher {
        let name = RecordedRequest.name(of: router)
        guard let expected = try? router.makeRequest() else {
            return RequestMatcher("\(name) (which cannot build its request, so matches nothing)") { _ in false }
        }
        let method = expected.method.rawValue
        let url = expected.url.absoluteString
        let body = expected.bodyData ?? Data()
        return RequestMatcher("\(name) (\(method) \(url))") {
            $0.method == method && $0.request.url.absoluteString == url && $0.body == body
        }
    }

    /// Requests built from a value of `type` (a router enum) for which `accepts` is true, for
    /// example one case whatever its associated values. Needs the session to know the target,
    /// which it does for every `Session.request(_:)`.
    public static func target<Target: URLRequestConvertible>(
        _ type: Target.Type, where accepts: @escaping @Sendable (Target) -> Bool = { _ in true }
    ) -> RequestMatcher {
        RequestMatcher("a \(String(reflecting: type)) target") { request in
            (request.target as? Target).map(accepts) ?? false
        }
    }

    // MARK: Refinements

    /// Also requires the query item `name` with `value` (any value when nil).
    public func query(_ name: String, _ value: String? = nil) -> RequestMatcher {
        and(
            RequestMatcher("query \(name)=\(value ?? "*")") { request in
                request.queryItems.contains { $0.name == name && (value == nil || $0.value == value) }
            })
    }

    /// Also requires the header `name` (without regard to case) with `value` (any value when nil).
    public func header(_ name: String, _ value: String? = nil) -> RequestMatcher {
        and(
            RequestMatcher("header \(name)\(value.map { ": \($0)" } ?? "")") { request in
                guard let sent = request.header(name) else { return false }
                return value == nil || sent == value
            })
    }

    /// Also requires the body to satisfy `accepts`.
    public func body(
        _ description: String = "a body predicate",
        where accepts: @escaping @Sendable (Data) -> Bool
    ) -> RequestMatcher {
        and(RequestMatcher(description) { accepts($0.body) })
    }

    /// Also requires the body to be JSON equal to `expected` (key order and number spelling ignored).
    public func jsonBody(_ expected: JSONValue) -> RequestMatcher {
        and(RequestMatcher("JSON body \(expected)") { $0.json == expected })
    }

    /// Also requires the body to decode as `type` from JSON and satisfy `accepts`.
    public func jsonBody<Body: Decodable & Sendable>(
        _ type: Body.Type,
        where accepts: @escaping @Sendable (Body) -> Bool
    ) -> RequestMatcher {
        and(
            RequestMatcher("a JSON \(String(describing: type)) body") { request in
                (try? JSONDecoder().decode(Body.self, from: request.body)).map(accepts) ?? false
            })
    }
}
