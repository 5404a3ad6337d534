import CourierTestServer

/// `POST /login`: 201 and a new account for an unknown email, 200 for a known one, answering
/// `{success, data, error: {code, message}}` with string error codes.
enum LoginRoutes {
    private struct Body: Decodable { let provider: String; let email: String }
    private struct Login: Encodable { let userId: Int; let nickname: String; let accessToken: String }

    static func register(on server: TestHTTPServer, users: UserStore) {
        server.route("POST", "/login") { request in
            guard let body = Wire.body(Body.self, of: request) else {
                return Wire.error(400, code: "INVALID_BODY", "provider and email are required")
            }
            guard body.email.contains("@") else {
                return Wire.error(400, code: "INVALID_EMAIL", "'\(body.email)' is not an email address")
            }
            if let user = users.user(email: body.email) {
                return Wire.success(Login(userId: user.id, nickname: user.name, accessToken: "token-\(user.id)"))
            }
            let nickname = "\(body.provider)-" + (body.email.split(separator: "@").first.map(String.init) ?? "user")
            guard let user = users.add(email: body.email, name: nickname, password: nil) else {
                return Wire.error(409, code: "EMAIL_TAKEN", "that email was registered meanwhile")
            }
            return Wire.success(
                Login(userId: user.id, nickname: user.name, accessToken: "token-\(user.id)"),
                status: 201)
        }
    }
}
