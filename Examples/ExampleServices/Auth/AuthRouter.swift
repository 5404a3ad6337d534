import Courier

/// The authentication endpoints of the demo API. Each declares the credential it needs: only
/// `me` is sent with the access token; sign-up, sign-in and refresh never are.
public enum AuthRouter: DemoRouter {
    /// `POST /auth/signup` with `{"email", "name", "pw"}`.
    case signUp(email: String, name: String, pw: String)
    /// `POST /auth/signin` with `{"email", "pw"}`.
    case signIn(email: String, pw: String)
    /// `POST /auth/refresh` with `{"refreshToken"}`.
    case refresh(token: String)
    /// `GET /auth/me`, with the access token.
    case me
    /// `POST /auth/demo/expire-tokens`: asks the demo server to expire every access token, as if
    /// time had passed (a demo control, not part of a real API).
    case demoExpireTokens

    /// The endpoint path.
    public var path: String {
        switch self {
        case .signUp: return "/auth/signup"
        case .signIn: return "/auth/signin"
        case .refresh: return "/auth/refresh"
        case .me: return "/auth/me"
        case .demoExpireTokens: return "/auth/demo/expire-tokens"
        }
    }

    /// `GET` for `me`, `POST` otherwise.
    public var method: HTTPMethod {
        switch self {
        case .me: return .get
        case .signUp, .signIn, .refresh, .demoExpireTokens: return .post
        }
    }

    /// The JSON body.
    public var parameters: RequestParams {
        switch self {
        case let .signUp(email, name, pw): return .body(["email": email, "name": name, "pw": pw])
        case let .signIn(email, pw): return .body(["email": email, "pw": pw])
        case let .refresh(token): return .body(["refreshToken": token])
        case .me, .demoExpireTokens: return .requestPlain
        }
    }

    /// `me` needs the bearer token; the others must never carry one.
    public var authorization: AuthorizationType {
        switch self {
        case .me: return .bearer
        case .signUp, .signIn, .refresh, .demoExpireTokens: return .none
        }
    }
}
