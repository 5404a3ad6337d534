import CourierTestServer

/// `POST /login`: 201 and a new account for an unknown email, 200 for a known one.
enum LoginRoutes {
    private struct Body: Decodable { let provider: String; let email: String }
    private struct Login: Encodable { let userId: Int; let nickname: String; let accessToken: String }

    static func register(on server: TestHTTPServer, users: UserStore) {
        server.route("POST", "/login") { request in
            guard let body = Wire.body(Body.self, of: request) else {
                return Wire.statusFailure(400, "provider and email are required")
            }
            if let user = users.user(email: body.email) {
                return Wire.status(Login(userId: user.id, nickname: user.name, accessToken: "token-\(user.id)"),
                                   message: "welcome back")
            }
            let nickname = "\(body.provider)-" + (body.email.split(separator: "@").first.map(String.init) ?? "user")
            guard let user = users.add(email: body.email, name: nickname, password: nil) else {
                return Wire.statusFailure(409, "that email was registered meanwhile")
            }
            return Wire.status(Login(userId: user.id, nickname: user.name, accessToken: "token-\(user.id)"),
                               status: 201, message: "account created")
        }
    }
}
