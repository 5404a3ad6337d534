import Courier

// The sign-in router of the guides; needs routers.swift (ExampleAPI).
enum AuthRouter: ExampleAPI {
    case signUp(email: String, name: String, pw: String), signIn(email: String, pw: String), me, signOut
    var path: String {
        switch self {
        case .signUp: return "/auth/signup"
        case .signIn: return "/auth/signin"
        case .me: return "/auth/me"
        case .signOut: return "/auth/signout"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .me: return .get
        default: return .post
        }
    }
    var parameters: RequestParams {
        switch self {
        case let .signUp(email, name, pw): return .body(["email": email, "name": name, "pw": pw])
        case let .signIn(email, pw): return .body(["email": email, "pw": pw])
        case .me, .signOut: return .requestPlain
        }
    }
}
