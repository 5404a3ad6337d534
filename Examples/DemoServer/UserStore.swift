import CourierSync

/// The demo server's in-memory accounts, shared by the auth and login routes.
final class UserStore: Sendable {
    struct User: Sendable {
        let id: Int
        let email: String
        let name: String
        let password: String?
    }

    private struct State {
        var users: [String: User] = [:]
        var nextID = 1
    }

    private let state = Locked(State())

    /// The user with `email`, if any.
    func user(email: String) -> User? {
        state.withLock { $0.users[email.lowercased()] }
    }

    /// The user with `id`, if any.
    func user(id: Int) -> User? {
        state.withLock { $0.users.values.first { $0.id == id } }
    }

    /// Adds a user unless the email is taken; returns nil when it is.
    func add(email: String, name: String, password: String?) -> User? {
        state.withLock { state in
            let key = email.lowercased()
            guard state.users[key] == nil else { return nil }
            let user = User(id: state.nextID, email: key, name: name, password: password)
            state.nextID += 1
            state.users[key] = user
            return user
        }
    }
}
