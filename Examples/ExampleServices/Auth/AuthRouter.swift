import Courier
import Foundation

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

    /// What the demo API answers for each endpoint, for stubs (`StubTransport` answers with it
    /// when a test sets nothing else) and previews.
    public var sampleData: Data {
        switch self {
        case .signUp:
            return Data(#"{"status":201,"success":true,"message":"signed up","data":{"userId":1,"name":"Ada"}}"#.utf8)
        case .signIn:
            return Data(
                #"{"status":200,"success":true,"message":"signed in","data":{"userId":1,"name":"Ada","accessToken":"sample-access-1","refreshToken":"sample-refresh-1","expiresIn":3600}}"#
                    .utf8)
        case .refresh:
            return Data(
                #"{"status":200,"success":true,"message":"refreshed","data":{"accessToken":"sample-access-2","refreshToken":"sample-refresh-2","expiresIn":3600}}"#
                    .utf8)
        case .me:
            return Data(
                #"{"status":200,"success":true,"message":"ok","data":{"userId":1,"name":"Ada","email":"ada@example.com"}}"#
                    .utf8)
        case .demoExpireTokens:
            return Data(#"{"status":200,"success":true,"message":"every access token has expired"}"#.utf8)
        }
    }

    /// 201 for a sign-up, 200 otherwise.
    public var sampleStatusCode: Int {
        if case .signUp = self { return 201 }
        return 200
    }
}
