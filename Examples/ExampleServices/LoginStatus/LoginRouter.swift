import Courier

/// The social-login endpoint: 200 for a returning user, 201 when it creates the account.
public enum LoginRouter: DemoRouter {
    /// `POST /login` with `{"provider", "email"}`.
    case signIn(provider: String, email: String)

    /// `/login`.
    public var path: String { "/login" }

    /// `POST`.
    public var method: HTTPMethod { .post }

    /// The JSON body.
    public var parameters: RequestParams {
        switch self {
        case let .signIn(provider, email): return .body(["provider": provider, "email": email])
        }
    }
}

/// The `data` of a login.
public struct Login: Codable, Sendable, Equatable {
    /// The user's id.
    public let userId: Int
    /// The nickname (generated for new users).
    public let nickname: String
    /// The access token.
    public let accessToken: String
}
