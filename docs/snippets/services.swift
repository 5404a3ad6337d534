import Courier

// Services the guides call without declaring them.
final class AuthService: Service {
    static let shared = AuthService()
    static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
        await request(AuthRouter.signIn(email: email, pw: pw))
    }
}

final class LoginService: Service {
    static let shared = LoginService()
    static var envelope: any EnvelopeFormat.Type { SuccessErrorEnvelope.self }
}

final class HomeService: Service {
    static let shared = HomeService()
    static var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }
}
