import Courier

/// Social login, whose success status says whether the account is new. Its API answers
/// `{success, data, error: {code, message}}`, the error code a string (`"INVALID_EMAIL"`).
public final class LoginService: Service {
    /// The one instance the app uses.
    public static let shared = LoginService()

    private init() {}

    /// Every response of this service is a `SuccessErrorEnvelope.Body`.
    public static var envelope: any EnvelopeFormat.Type { SuccessErrorEnvelope.self }

    /// Signs in; `.success(let reply)` has `reply.statusCode` 200 (returning user) or 201 (new user).
    public func signIn(provider: String, email: String) async -> NetworkResult<ServiceReply<Login>> {
        await request(LoginRouter.signIn(provider: provider, email: email))
    }
}
