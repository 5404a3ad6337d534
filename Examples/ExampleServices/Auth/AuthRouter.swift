import Courier

/// The authentication endpoints of the demo API; both send JSON bodies.
public enum AuthRouter: DemoRouter {
    /// `POST /auth/signup` with `{"email", "name", "pw"}`.
    case signUp(email: String, name: String, pw: String)
    /// `POST /auth/signin` with `{"email", "pw"}`.
    case signIn(email: String, pw: String)

    /// The endpoint path.
    public var path: String {
        switch self {
        case .signUp: return "/auth/signup"
        case .signIn: return "/auth/signin"
        }
    }

    /// Always `POST`.
    public var method: HTTPMethod { .post }

    /// The JSON body.
    public var parameters: RequestParams {
        switch self {
        case let .signUp(email, name, pw): return .body(["email": email, "name": name, "pw": pw])
        case let .signIn(email, pw): return .body(["email": email, "pw": pw])
        }
    }
}
