import Foundation

extension Session {
    /// Where a session keeps the cookies servers set (``Configuration/cookies``).
    ///
    /// The jar is libcurl's RFC 6265 cookie engine, shared by every request of the session: it
    /// stores each response's `Set-Cookie` (also on redirect hops), refuses cookies for a public
    /// suffix, and attaches to each request, redirect hops included, only the cookies whose
    /// domain, path and `Secure` flag match its URL. See docs/cookies-and-cache.md.
    public enum CookieStorage: Sendable, Hashable {
        /// No jar: responses' cookies are ignored and requests carry only a `Cookie` header you set.
        case off
        /// A jar in memory, emptied when the session ends (the default).
        case inMemory
        /// A jar in memory, loaded from `file` when the session starts (a missing file is an empty
        /// jar) and written back, in the Netscape cookie file format, by
        /// ``Session/flushCookies()`` and when the session shuts down or is released. Session
        /// cookies (those without an expiry) are written too.
        case persistent(file: URL)
    }

    /// A cookie in a session's jar, as libcurl's cookie engine keeps it.
    ///
    /// libcurl 7.88 does not keep `SameSite` or `Max-Age` as such (`Max-Age` becomes
    /// ``expires``), so neither appears here.
    public struct Cookie: Sendable, Hashable {
        /// The cookie's name.
        public var name: String
        /// The cookie's value, as the server sent it.
        public var value: String
        /// The host the cookie belongs to, without a leading dot.
        public var domain: String
        /// True when the cookie is also sent to subdomains of ``domain`` (it came with a `Domain`
        /// attribute); false for a host-only cookie.
        public var includesSubdomains: Bool
        /// The path the cookie is sent for, and below it.
        public var path: String
        /// When the cookie expires; nil for a session cookie.
        public var expires: Date?
        /// True when the cookie is only sent over `https`.
        public var isSecure: Bool
        /// True when the server marked the cookie `HttpOnly`. Kept and written back, but without
        /// effect in a client that runs no scripts.
        public var isHTTPOnly: Bool

        /// Creates a cookie; the defaults make a host-only session cookie for every path.
        public init(
            name: String, value: String, domain: String, includesSubdomains: Bool = false, path: String = "/",
            expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false
        ) {
            self.name = name
            self.value = value
            self.domain = domain
            self.includesSubdomains = includesSubdomains
            self.path = path
            self.expires = expires
            self.isSecure = isSecure
            self.isHTTPOnly = isHTTPOnly
        }
    }
}

extension Session.Cookie {
    private static let httpOnlyPrefix = "#HttpOnly_"

    /// Parses one line of libcurl's Netscape cookie format (`CURLINFO_COOKIELIST`); nil for a
    /// line that is not a cookie.
    init?(netscapeLine line: String) {
        var text = Substring(line)
        var httpOnly = false
        if text.hasPrefix(Self.httpOnlyPrefix) {
            httpOnly = true
            text = text.dropFirst(Self.httpOnlyPrefix.count)
        } else if text.hasPrefix("#") {
            return nil
        }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 6, let seconds = Int64(fields[4]) else { return nil }
        var domain = String(fields[0])
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty, !fields[5].isEmpty else { return nil }
        self.init(
            name: String(fields[5]), value: fields.count > 6 ? fields[6...].joined(separator: "\t") : "",
            domain: domain, includesSubdomains: fields[1] == "TRUE", path: String(fields[2]),
            expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
            isSecure: fields[3] == "TRUE", isHTTPOnly: httpOnly)
    }

    /// The cookie as a line of the Netscape cookie format, which `CURLOPT_COOKIELIST` takes; nil
    /// (with the reason) when a field cannot be written in that format.
    var netscapeLine: Result<String, CourierError> {
        let fields = [("name", name), ("value", value), ("domain", domain), ("path", path)]
        for (field, text) in fields where text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .failure(.invalidRequest(reason: "the cookie's \(field) contains a control character"))
        }
        if name.isEmpty || name.contains("=") || name.contains(";") || name.contains(" ") {
            return .failure(
                .invalidRequest(reason: "the cookie name '\(name)' is empty or contains '=', ';' or a space"))
        }
        if value.contains(";") { return .failure(.invalidRequest(reason: "the cookie's value contains ';'")) }
        if domain.isEmpty || domain.contains(" ") || domain.hasPrefix(".") {
            return .failure(
                .invalidRequest(reason: "the cookie domain '\(domain)' is empty, starts with a dot or contains a space")
            )
        }
        guard path.hasPrefix("/") else {
            return .failure(.invalidRequest(reason: "the cookie path '\(path)' does not start with '/'"))
        }
        // An expiry before 1970 would read as "session cookie" (0): one second after is expired too.
        let seconds = expires.map { max(1, Int64($0.timeIntervalSince1970.rounded(.down))) } ?? 0
        let line = [
            (isHTTPOnly ? Self.httpOnlyPrefix : "") + (includesSubdomains ? "." : "") + domain,
            includesSubdomains ? "TRUE" : "FALSE", path, isSecure ? "TRUE" : "FALSE", String(seconds), name, value
        ].joined(separator: "\t")
        return .success(line)
    }
}
