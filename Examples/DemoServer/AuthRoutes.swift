import CourierTestServer

/// `POST /auth/signup` and `POST /auth/signin`, answering `{status, success, message, data}`.
enum AuthRoutes {
    private struct SignUpBody: Decodable { let email: String; let name: String; let pw: String }
    private struct SignInBody: Decodable { let email: String; let pw: String }
    private struct SignUpData: Encodable { let userId: Int; let name: String }
    private struct SignInData: Encodable { let userId: Int; let name: String; let accessToken: String }

    static func register(on server: TestHTTPServer, users: UserStore) {
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
            return Wire.status(SignInData(userId: user.id, name: user.name, accessToken: "token-\(user.id)"),
                               message: "signed in")
        }
    }
}
