import Foundation

extension Session {
    /// The cookies in the session's jar, expired ones excluded; empty when cookies are off
    /// (``Configuration/cookies``), with a transport of your own, or after ``shutdown()``.
    /// ```swift
    /// let loggedIn = await session.cookies().contains { $0.name == "session_id" }
    /// ```
    public func cookies() async -> [Cookie] {
        let lines = await jar(.list)
        let now = Date()
        return lines.compactMap(Cookie.init(netscapeLine:)).filter { ($0.expires ?? .distantFuture) > now }
    }

    /// Adds `cookie` to the jar, replacing one with the same name, domain and path; a cookie whose
    /// ``Cookie/expires`` has passed removes that one instead. Requests made after the call carry
    /// it where RFC 6265 allows. Does nothing when cookies are off.
    /// - Throws: ``CourierError/invalidRequest`` when a field cannot be stored (an empty name, a
    ///   name with `=`, `;` or a space, a value with `;`, a control character, a domain that is
    ///   empty or starts with a dot, a path that does not start with `/`).
    public func setCookie(_ cookie: Cookie) async throws {
        let line = try cookie.netscapeLine.get()
        _ = await jar(.add([line]))
    }

    /// Removes every cookie from the jar (and from its file at the next write).
    public func removeAllCookies() async {
        _ = await jar(.removeAll)
    }

    /// Writes the jar to its file now, for ``CookieStorage/persistent(file:)``; otherwise does
    /// nothing. The jar is also written when the session shuts down or is released.
    public func flushCookies() async {
        _ = await jar(.flush)
    }

    private func jar(_ operation: CurlCookieJar.Operation) async -> [String] {
        guard let engine = ownedEngine, engine.hasCookieJar else { return [] }
        return await withCheckedContinuation { continuation in
            engine.requestCookieJar(operation) { continuation.resume(returning: $0) }
        }
    }
}
