import CourierSync

/// The demo server's sessions: access tokens (which the demo can expire at will) and the
/// single-use refresh tokens that renew them.
final class TokenStore: Sendable {
    struct Pair: Sendable {
        let accessToken: String
        let refreshToken: String
    }

    private struct State {
        var owners: [String: Int] = [:]  // valid access token → user id
        var refreshOwners: [String: Int] = [:]  // unused refresh token → user id
        var issued = 0
    }

    private let state = Locked(State())

    /// A new access and refresh token for `userId`.
    func issue(for userId: Int) -> Pair {
        state.withLock { state in
            state.issued += 1
            let pair = Pair(
                accessToken: "access-\(userId)-\(state.issued)", refreshToken: "refresh-\(userId)-\(state.issued)")
            state.owners[pair.accessToken] = userId
            state.refreshOwners[pair.refreshToken] = userId
            return pair
        }
    }

    /// The user an `Authorization: Bearer …` header belongs to, if the token is still valid.
    func user(authorization: String?) -> Int? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let token = String(authorization.dropFirst("Bearer ".count))
        return state.withLock { $0.owners[token] }
    }

    /// Exchanges a refresh token (once) for a new pair; nil if it is unknown or already used.
    func refresh(_ refreshToken: String) -> Pair? {
        guard let userId = state.withLock({ $0.refreshOwners.removeValue(forKey: refreshToken) }) else { return nil }
        return issue(for: userId)
    }

    /// Every access token stops working, as if their lifetime had passed; refresh tokens remain.
    func expireAccessTokens() {
        state.withLock { $0.owners.removeAll() }
    }
}
