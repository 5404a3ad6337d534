import CourierTestServer

/// The auth API, answering `{status, success, message, data}`:
///
/// | route | answer |
/// |---|---|
/// | `POST /auth/signup` | 201 and the new user; 409 if the email is taken |
/// | `POST /auth/signin` | the user and a token pair; 404 unknown email, 409 wrong password |
/// | `POST /auth/refresh` | a new token pair for a refresh token (each works once); 401 otherwise |
/// | `GET /auth/me` | the profile, for `Authorization: Bearer <access token>`; 401 otherwise |
/// | `POST /auth/demo/expire-tokens` | demo control: every access token expires, as if time had passed |
enum AuthRoutes {
    private struct SignUpBody: Decodable { let email: String; let name: String; let pw: String }
    private struct SignInBody: Decodable { let email: String; let pw: String }
    private struct RefreshBody: Decodable { let refreshToken: String }
    private struct SignUpData: Encodable { let userId: Int; let name: String }
    private struct SignInData: Encodable {
        let userId: Int; let name: String; let accessToken: String; let refreshToken: String; let expiresIn: Int
    }
    private struct TokenData: Encodable { let accessToken: String; let refreshToken: String; let expiresIn: Int }
    private struct ProfileData: Encodable { let userId: Int; let name: String; let email: String }

    /// What `expiresIn` says; the demo expires tokens on request instead of by time.
    private static let lifetime = 3600

    static func register(on server: TestHTTPServer, users: UserStore, tokens: TokenStore) {
        server.route("POST", "/auth/signup") { request in
            guard let body = Wire.body(SignUpBody.self, of: request) else {
                return Wire.statusFailure(400, "email, name and pw are required")
            }
            guard let user = users.add(email: body.email, name: body.name, password: body.pw) else {
                return Wire.statusFailure(409, "that email is already registered")
            }
            return Wire.status(SignUpData(userId: user.id, name: user.name), status: 201, message: "signed up")
        }
        server.route("POST", "/auth/signin") { request in
            guard let body = Wire.body(SignInBody.self, of: request) else {
                return Wire.statusFailure(400, "email and pw are required")
            }
            guard let user = users.user(email: body.email) else {
                return Wire.statusFailure(404, "no user with that email")
            }
            guard user.password == body.pw else {
                return Wire.statusFailure(409, "wrong password")
            }
            let pair = tokens.issue(for: user.id)
            return Wire.status(
                SignInData(
                    userId: user.id, name: user.name, accessToken: pair.accessToken,
                    refreshToken: pair.refreshToken, expiresIn: lifetime),
                message: "signed in")
        }
        server.route("POST", "/auth/refresh") { request in
            guard let body = Wire.body(RefreshBody.self, of: request), let pair = tokens.refresh(body.refreshToken)
            else {
                return Wire.statusFailure(401, "refresh token unknown or already used")
            }
            return Wire.status(
                TokenData(accessToken: pair.accessToken, refreshToken: pair.refreshToken, expiresIn: lifetime),
                message: "refreshed")
        }
        server.route("GET", "/auth/me") { request in
            guard let userId = tokens.user(authorization: request.header("Authorization")),
                let user = users.user(id: userId)
            else {
                return Wire.statusFailure(401, "access token missing or expired")
            }
            return Wire.status(ProfileData(userId: user.id, name: user.name, email: user.email))
        }
        server.route("POST", "/auth/demo/expire-tokens") { _ in
            tokens.expireAccessTokens()
            return Wire.status(Wire.Nothing(), message: "every access token has expired")
        }
    }
}
