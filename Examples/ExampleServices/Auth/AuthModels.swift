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
}
