import Foundation

/// A credential an ``AuthenticationInterceptor`` applies to requests and refreshes.
///
/// ```swift
/// let credential = AuthCredential(accessToken: signIn.accessToken, refreshToken: signIn.refreshToken,
///                                 expiresAt: Date().addingTimeInterval(signIn.expiresIn))
/// ```
public struct AuthCredential: Sendable, Equatable {
    /// The token sent with each request (for ``AuthorizationType/basic``, the Base64 of
    /// `user:password`).
    public var accessToken: String
    /// The token your refresh closure exchanges for a new credential, if the API has one.
    public var refreshToken: String?
    /// When the access token stops working, if known: a credential about to expire is refreshed
    /// before a request is sent rather than after a 401.
    public var expiresAt: Date?

    /// Creates a credential.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// A credential for HTTP Basic authentication (use with ``AuthorizationType/basic``).
    public static func basic(username: String, password: String) -> AuthCredential {
        AuthCredential(accessToken: Data("\(username):\(password)".utf8).base64EncodedString())
    }

    /// True when the credential expires within `leeway` seconds of `now`.
    func isExpired(at now: Date, leeway: TimeInterval) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= leeway
    }
}
