import Foundation
import Courier

/// Sign-up and sign-in against the demo API, whose bodies are `{status, success, message, data}`.
public final class AuthService: BaseService, @unchecked Sendable {
    /// The one instance the app uses.
    public static let shared = AuthService()

    private init() { super.init() }

    /// Every response of this service is a `StatusEnvelope.Body`.
    public override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    /// Creates an account; 409 (`requestErr`) when the email is taken.
    public func signUp(email: String, name: String, pw: String) async -> NetworkResult<SignUpResult> {
        await request(AuthRouter.signUp(email: email, name: name, pw: pw))
    }

    /// Signs in; 404 (`requestErr`) for an unknown email, 409 for a wrong password.
    public func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
        await request(AuthRouter.signIn(email: email, pw: pw))
    }

    /// Signs in, calling `completion` on `queue` (default: the session's callback queue).
    public func signIn(email: String, pw: String, queue: DispatchQueue? = nil,
                       completion: @escaping @Sendable (NetworkResult<SignIn>) -> Void) {
        request(AuthRouter.signIn(email: email, pw: pw), queue: queue, completion: completion)
    }
}
