/// The `data` of a successful sign-up.
public struct SignUpResult: Codable, Sendable, Equatable {
    /// The new user's id.
    public let userId: Int
    /// The name the user signed up with.
    public let name: String
}

/// The `data` of a successful sign-in.
public struct SignIn: Codable, Sendable, Equatable {
    /// The user's id.
    public let userId: Int
    /// The user's display name.
    public let name: String
    /// The access token for later calls.
    public let accessToken: String
    /// The token that renews the access token.
    public let refreshToken: String
    /// Seconds until the access token expires.
    public let expiresIn: Int
}

/// The `data` of a successful refresh: a new token pair.
public struct Tokens: Codable, Sendable, Equatable {
    /// The new access token.
    public let accessToken: String
    /// The new refresh token (the old one no longer works).
    public let refreshToken: String
    /// Seconds until the access token expires.
    public let expiresIn: Int
}

/// The `data` of `GET /auth/me`.
public struct Profile: Codable, Sendable, Equatable {
    /// The user's id.
    public let userId: Int
    /// The display name.
    public let name: String
    /// The email address.
    public let email: String
}
