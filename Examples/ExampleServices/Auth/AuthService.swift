import Foundation
import Courier

/// Sign-up, sign-in and the profile against the demo API, whose bodies are
/// `{status, success, message, data}`.
///
/// The service's session carries an ``AuthenticationInterceptor``: a successful sign-in stores
/// the token pair in it, every endpoint declaring `.bearer` gets the access token, and when the
/// server answers 401 the interceptor refreshes the token once (however many calls are waiting)
/// and replays the calls.
public final class AuthService: Service {
    /// The one instance the app uses.
    public static let shared = AuthService()

    /// Holds the credential and refreshes it.
    public let authentication: AuthenticationInterceptor

    /// The session every call of this service goes through: it carries ``authentication``.
    public let session: Session

    /// How many times the tokens were renewed (the interceptor renews once for all the calls
    /// that met the same expired token).
    public var renewals: Int { get async { await renewalCount.value } }
    private let renewalCount = RenewalCount()

    private init() {
        let authentication = AuthenticationInterceptor { expired in
            try await AuthService.shared.renew(expired)
        }
        var configuration = Session.Configuration()
        configuration.interceptors = [authentication]
        self.authentication = authentication
        session = Session(configuration: configuration)
    }

    /// Every response of this service is a `StatusEnvelope.Body`.
    public static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    /// Creates an account; 409 (`requestErr`) when the email is taken.
    public func signUp(email: String, name: String, pw: String) async -> NetworkResult<SignUpResult> {
        await request(AuthRouter.signUp(email: email, name: name, pw: pw))
    }

    /// Signs in and keeps the tokens for later calls; 404 (`requestErr`) for an unknown email,
    /// 409 for a wrong password.
    public func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
        let result: NetworkResult<SignIn> = await request(AuthRouter.signIn(email: email, pw: pw))
        if case .success(let signIn) = result { remember(signIn) }
        return result
    }

    /// Signs in, calling `completion` on `queue` (default: the session's callback queue).
    public func signIn(
        email: String, pw: String, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (NetworkResult<SignIn>) -> Void
    ) {
        request(AuthRouter.signIn(email: email, pw: pw), queue: queue) { (result: NetworkResult<SignIn>) in
            if case .success(let signIn) = result { self.remember(signIn) }
            completion(result)
        }
    }

    /// The signed-in user's profile; the access token is added (and refreshed) by the interceptor.
    public func profile() async -> NetworkResult<Profile> {
        await request(AuthRouter.me)
    }

    /// Forgets the tokens.
    public func signOut() {
        authentication.credential = nil
    }

    private func remember(_ signIn: SignIn) {
        authentication.credential = AuthCredential(
            accessToken: signIn.accessToken, refreshToken: signIn.refreshToken,
            expiresAt: Date().addingTimeInterval(TimeInterval(signIn.expiresIn)))
    }

    /// Exchanges the refresh token for a new pair; `AuthRouter.refresh` declares no
    /// authorization, so this call is not intercepted itself.
    private func renew(_ expired: AuthCredential) async throws(ServiceError) -> AuthCredential {
        await renewalCount.increment()
        let tokens: Tokens = try await requestValue(AuthRouter.refresh(token: expired.refreshToken ?? ""))
        return AuthCredential(
            accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
            expiresAt: Date().addingTimeInterval(TimeInterval(tokens.expiresIn)))
    }
}

/// Counts the renewals of ``AuthService``.
private actor RenewalCount {
    private(set) var value = 0

    func increment() { value += 1 }
}
