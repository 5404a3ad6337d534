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

    /// The name of the header carrying the credential, or nil for ``none``.
    var headerName: String? {
        switch self {
        case .none: return nil
        case .bearer, .basic: return "Authorization"
        case .custom(let header, _): return header
        }
    }

    /// The header name and value carrying `token`, or nil for ``none``.
    func header(for token: String) -> (name: String, value: String)? {
        switch self {
        case .none: return nil
        case .bearer: return ("Authorization", "Bearer " + token)
        case .basic: return ("Authorization", "Basic " + token)
        case .custom(let header, let scheme): return (header, scheme.map { $0 + " " + token } ?? token)
        }
    }
}
