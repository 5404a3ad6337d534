import Foundation

/// Hides secrets in what Courier prints (``NetworkLogger`` lines, ``DataRequest/cURLDescription()``,
/// a refused redirect's error, CourierTesting's request descriptions and fixtures), by the
/// session's ``SecurityPolicy``: secret headers, the values of secret keys in JSON bodies,
/// form bodies and URL queries, and passwords in URLs; and, wherever they appear, the values of
/// the secret headers the request sent (a server echoing `["Authorization", "Bearer …"]` in a body).
package struct Redactor: Sendable {
    static let marker = SecurityPolicy.redactedMarker
    /// Shorter values are not searched for in text (they would hide unrelated words).
    static let shortestSearchedSecret = 4

    let security: SecurityPolicy
    /// Secret keys of this request beyond the policy's, normalized (``SecurityPolicy/normalizedKey(_:)``):
    /// the query parameter carrying its credential.
    let requestKeys: Set<String>
    /// Values of the secret headers this request sent, and of the query credential in `sentURL`,
    /// longest first (see ``sentSecrets(in:security:)``).
    let sentSecrets: [String]

    /// A redactor for one request. `authorization` is its router's: the query parameter of
    /// ``AuthorizationType/query(name:)`` is a secret key for it, and its value in `sentURL` is
    /// hidden wherever it appears, as the secret headers' values in `sentHeaders` are.
    package init(
        security: SecurityPolicy, authorization: AuthorizationType = .none, sentHeaders: [String: String] = [:],
        sentURL: URL? = nil
    ) {
        self.security = security
        var secrets = Self.sentSecrets(in: sentHeaders, security: security)
        if case .query(let name) = authorization {
            requestKeys = [SecurityPolicy.normalizedKey(name)]
            let items = sentURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
            if let value = items.last(where: { $0.name == name })?.value, value.count >= Self.shortestSearchedSecret,
                !secrets.contains(value)
            {
                secrets.append(value)
                secrets.sort { $0.count > $1.count }
            }
        } else {
            requestKeys = []
        }
        sentSecrets = secrets
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

    /// A secret key of the policy or of this request, or the name of a secret header (a body
    /// echoing `"authorization": ...`).
    func isSecret(key: String) -> Bool {
        security.isSecret(key: key) || (!requestKeys.isEmpty && requestKeys.contains(SecurityPolicy.normalizedKey(key)))
    }

    /// A header value as it may be printed.
    package func header(name: String, value: String) -> String {
        if security.isSecret(header: name) { return Self.marker }
        switch name.lowercased() {
        case "location", "content-location", "referer":
            return URL(string: value).map { url($0) } ?? text(value)
        default:
            return text(value)
        }
    }

    /// A URL with its password and the values of secret query keys hidden.
    package func url(_ url: URL?) -> String {
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
    package func form(_ text: String) -> String {
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

    /// A text body with the values of secret keys hidden: a form body
    /// (`application/x-www-form-urlencoded`) pair by pair; JSON as written when it holds no secret
    /// key, else written again (compact, keys sorted) with each secret value, whatever its shape,
    /// replaced; a multipart body summarised (its parts are not read); anything else as text
    /// (`"key": value`, `key=value`).
    package func body(_ text: String, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("multipart/") { return "<a multipart body of \(text.utf8.count) bytes>" }
        if type.hasPrefix("application/x-www-form-urlencoded") { return form(text) }
        if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) {
            guard holdsSecret(object) else { return text }
            if let data = try? JSONSerialization.data(
                withJSONObject: json(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]),
                let written = String(data: data, encoding: .utf8)
            {
                return written
            }
        }
        return self.text(text)
    }

    /// Whether a parsed JSON value has a secret key at any depth.
    private func holdsSecret(_ value: Any) -> Bool {
        if let object = value as? [String: Any] {
            return object.contains { isSecret(key: $0.key) || holdsSecret($0.value) }
        }
        if let array = value as? [Any] { return array.contains(where: holdsSecret) }
        return false
    }

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
    package func text(_ text: String) -> String {
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
