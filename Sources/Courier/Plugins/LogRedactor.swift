import Foundation

/// Hides secrets in what the ``NetworkLogger`` prints: secret headers (the session's
/// ``SecurityPolicy``), the values of named keys in JSON bodies, form bodies and URL queries,
/// and passwords in URLs; and, wherever they appear, the values of the secret headers the request
/// sent (a server echoing `["Authorization", "Bearer …"]` in a body).
struct LogRedactor: Sendable {
    static let marker = SecurityPolicy.redactedMarker
    /// Shorter values are not searched for in text (they would hide unrelated words).
    static let shortestSearchedSecret = 4

    let security: SecurityPolicy
    /// Key names, already normalized by ``normalize(_:)`` (see ``normalized(_:)``).
    let keys: Set<String>
    /// Values of the secret headers this request sent, longest first (see ``sentSecrets(in:security:)``).
    let sentSecrets: [String]

    init(security: SecurityPolicy, normalizedKeys: Set<String>, sentHeaders: [String: String] = [:]) {
        self.security = security
        keys = normalizedKeys
        sentSecrets = Self.sentSecrets(in: sentHeaders, security: security)
    }

    /// The strings to hide wherever they appear: each secret header's value, and, for a value of
    /// the form `Scheme credentials` (`Bearer abc`), the credentials alone too.
    static func sentSecrets(in fields: [String: String], security: SecurityPolicy) -> [String] {
        var secrets: Set<String> = []
        for (name, value) in fields where security.isSecret(header: name) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            secrets.insert(trimmed)
            if let space = trimmed.firstIndex(of: " ") {
                secrets.insert(String(trimmed[space...]).trimmingCharacters(in: .whitespaces))
            }
        }
        return secrets.filter { $0.count >= shortestSearchedSecret }.sorted { $0.count > $1.count }
    }

    /// `message` with every occurrence of a sent secret replaced by the marker.
    func scrub(_ message: String) -> String {
        var result = message
        for secret in sentSecrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.marker)
        }
        return result
    }

    /// `keys` normalized, for ``init(security:normalizedKeys:)``.
    static func normalized(_ keys: Set<String>) -> Set<String> {
        Set(keys.map(normalize))
    }

    /// `accessToken`, `access_token` and `Access-Token` are the same key.
    static func normalize(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// A named key, or the name of a secret header (a body echoing `"authorization": ...`).
    func isSecret(key: String) -> Bool {
        keys.contains(Self.normalize(key)) || security.isSecret(header: key)
    }

    /// A header value as it may be printed.
    func header(name: String, value: String) -> String {
        if security.isSecret(header: name) { return Self.marker }
        switch name.lowercased() {
        case "location", "content-location", "referer":
            return URL(string: value).map { url($0) } ?? text(value)
        default:
            return text(value)
        }
    }

    /// A URL with its password and the values of secret query keys hidden.
    func url(_ url: URL?) -> String {
        guard let url else { return "(no URL)" }
        if url.query == nil, url.password == nil { return url.absoluteString }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return text(url.absoluteString)
        }
        if components.password != nil { components.password = "redacted" }
        var printed = components.string ?? url.absoluteString
        if let query = components.percentEncodedQuery, !query.isEmpty,
            let range = printed.range(of: "?" + query)
        {
            printed.replaceSubrange(range, with: "?" + form(query))
        }
        return printed
    }

    /// `a=1&token=x` with the values of secret keys hidden, also inside values that are
    /// themselves URLs or forms (`redirect=%2Fcb%3Ftoken%3Dx`).
    func form(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return String(pair) }
            let name = String(parts[0])
            if isSecret(key: name.removingPercentEncoding ?? name) { return name + "=" + Self.marker }
            let value = String(parts[1])
            guard let decoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                decoded != value
            else { return String(pair) }
            let redacted = self.text(decoded)
            guard redacted != decoded else { return String(pair) }
            return name + "="
                + (redacted.addingPercentEncoding(withAllowedCharacters: Self.valueAllowed) ?? Self.marker)
        }.joined(separator: "&")
    }

    /// Characters left as they are in a re-encoded query value (`<` and `>` too, for readability).
    private static let valueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?"))
        .union(CharacterSet(charactersIn: "<>"))

    /// A parsed JSON value with the values of secret keys hidden, at any depth.
    func json(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var redacted: [String: Any] = [:]
            for (key, member) in object {
                redacted[key] = isSecret(key: key) ? Self.marker : json(member)
            }
            return redacted
        }
        if let array = value as? [Any] { return array.map(json) }
        return value
    }

    /// Free text (a body that is not valid JSON, a header value): the values after
    /// `"key": ` and `key=` are hidden for secret keys.
    func text(_ text: String) -> String {
        var result = text
        for (pattern, replacement) in Self.patterns {
            let matches = pattern.matches(in: result, range: NSRange(result.startIndex..., in: result))
            for match in matches.reversed() {
                guard let keyRange = Range(match.range(at: 1), in: result),
                    let valueRange = Range(match.range(at: 2), in: result),
                    isSecret(key: String(result[keyRange]))
                else { continue }
                result.replaceSubrange(valueRange, with: replacement)
            }
        }
        return result
    }

    /// `"key": value` (a string, possibly cut short, or a bare token) and `key=value`.
    private static let patterns: [(NSRegularExpression, String)] = {
        let quoted = #""([A-Za-z0-9_\-]+)"\s*:\s*("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)"#
        let assigned = #"(?<![A-Za-z0-9_\-])([A-Za-z0-9_\-]+)=([^&\s;,]*)"#
        return [(quoted, "\"\(marker)\""), (assigned, marker)].compactMap { pattern, replacement in
            (try? NSRegularExpression(pattern: pattern)).map { ($0, replacement) }
        }
    }()
}
