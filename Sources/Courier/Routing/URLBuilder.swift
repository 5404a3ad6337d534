import Foundation
import CourierSync

/// Joins a base URL and a path into a validated request URL.
///
/// * Exactly one `/` separates base and path, whatever slashes each side has.
/// * A `?query` in the base or the path is kept; extra query text is appended after `&`.
/// * A `#fragment` in the path is kept at the end.
/// * Characters that may never appear raw in a path or query (spaces, non-ASCII, `"<>`...)
///   are percent-escaped; existing `%XX` escapes are left alone.
/// * The base must be an absolute `http` or `https` URL with a host.
enum URLBuilder {
    /// Builds the URL for `base` + `path`, with `extraQuery` (already escaped) appended.
    static func makeURL(base: String, path: String, extraQuery: String? = nil) throws -> URL {
        let key = Parts(base: base, path: path, extraQuery: extraQuery)
        if let known = recentlyBuilt.withLock({ $0.url(for: key) }) { return known }
        let url = try buildURL(base: base, path: path, extraQuery: extraQuery)
        recentlyBuilt.withLock { $0.remember(url, for: key) }
        return url
    }

    /// The URL built lately for `base` + `path` with no extra query, if any: then `base` is
    /// known to be valid, and a request whose parameters add no query needs nothing more (one
    /// lock where checking the base and looking the URL up took two).
    static func recentURL(base: String, path: String) -> URL? {
        let key = Parts(base: base, path: path, extraQuery: nil)
        return recentlyBuilt.withLock { $0.url(for: key) }
    }

    /// What a URL is built from.
    private struct Parts: Hashable {
        let base: String
        let path: String
        let extraQuery: String?
    }

    /// URLs built lately, by what they were built from: an endpoint called again (a poll, a list
    /// refreshed) skips the joining, escaping and parsing, which cost more than the rest of
    /// building a request. Building is a pure function of the parts, so a remembered URL is the
    /// one building again would give.
    private static let recentlyBuilt = Locked(RecentURLs())

    /// The URLs built lately: the last one, compared first (a string compared with itself is one
    /// comparison, where hashing three reads every byte), then up to 256 more by their parts,
    /// forgotten all at once when full.
    private struct RecentURLs {
        // Kept apart, not as an optional pair: comparing in place copies nothing.
        private var lastParts = Parts(base: "", path: "", extraQuery: nil)
        private var lastURL: URL?
        private var table: [Parts: URL] = [:]

        mutating func url(for parts: Parts) -> URL? {
            if let lastURL, lastParts == parts { return lastURL }
            guard let url = table[parts] else { return nil }
            lastParts = parts
            lastURL = url
            return url
        }

        mutating func remember(_ url: URL, for parts: Parts) {
            if table.count >= 256 { table.removeAll(keepingCapacity: true) }
            table[parts] = url
            lastParts = parts
            lastURL = url
        }
    }

    private static func buildURL(base: String, path: String, extraQuery: String?) throws -> URL {
        let (baseWithoutQuery, baseQuery) = split(try validatedBase(base), at: "?")
        let (pathWithoutFragment, fragment) = split(path, at: "#")
        let (pathPart, pathQuery) = split(pathWithoutFragment, at: "?")

        var result = baseWithoutQuery
        let trimmedPath = String(pathPart.utf8.drop { $0 == UInt8(ascii: "/") }) ?? pathPart
        if !pathPart.isEmpty {
            while result.hasSuffix("/") { result.removeLast() }
            result += "/" + PercentEscaping.escapeLoosePath(trimmedPath)
        }
        let queries = [baseQuery, pathQuery.map(PercentEscaping.escapeLooseQuery), extraQuery]
            .compactMap { $0 }
            .filter { !$0.isEmpty }
        if !queries.isEmpty {
            result += "?" + queries.joined(separator: "&")
        }
        if let fragment {
            result += "#" + PercentEscaping.escapeLooseQuery(fragment)
        }
        return try parsed(result)
    }

    /// `text` as a `URL`; throws ``CourierError/invalidURL`` when Foundation cannot parse it.
    private static func parsed(_ text: String) throws -> URL {
        guard let url = URL(string: text) else {
            throw CourierError.invalidURL(text)
        }
        return url
    }

    /// Appends already-escaped `query` to `url`'s query (after `&`), before any fragment.
    static func appending(query: String, to url: URL) throws -> URL {
        guard !query.isEmpty else { return url }
        let (withoutFragment, fragment) = split(url.absoluteString, at: "#")
        var result = withoutFragment
        if let questionMark = result.firstIndex(of: "?") {
            if result.index(after: questionMark) != result.endIndex { result += "&" }
        } else {
            result += "?"
        }
        result += query
        if let fragment { result += "#" + fragment }
        guard let newURL = URL(string: result) else {
            throw CourierError.invalidURL(result)
        }
        return newURL
    }

    /// Base URLs already found valid; a program has a handful, so checking each once saves a
    /// URL parse on every request.
    /// The last one is compared first, as in ``RecentURLs``.
    private static let knownValidBases = Locked<(last: String?, all: Set<String>)>((nil, []))
    private static let knownValidBasesLimit = 64

    /// Checks that `base` is an absolute http(s) URL with a host and no fragment.
    static func validatedBase(_ base: String) throws -> String {
        let known = knownValidBases.withLock { known -> Bool in
            if known.last == base { return true }
            guard known.all.contains(base) else { return false }
            known.last = base
            return true
        }
        if known { return base }
        let valid = try checkedBase(base)
        knownValidBases.withLock { known in
            if known.all.count < knownValidBasesLimit { known.all.insert(valid) }
            known.last = valid
        }
        return valid
    }

    private static func checkedBase(_ base: String) throws -> String {
        guard let components = URLComponents(string: base) else {
            throw CourierError.invalidURL("'\(base)' is not a valid URL")
        }
        guard let scheme = components.scheme else {
            throw CourierError.invalidURL(
                "'\(base)' is not an absolute URL (expected for example https://api.example.com)")
        }
        guard SecurityPolicy.allowsScheme(scheme) else {
            throw CourierError.unsupportedScheme(scheme)
        }
        guard let host = components.host, !host.isEmpty else {
            throw CourierError.invalidURL("'\(base)' has no host")
        }
        guard components.fragment == nil else {
            throw CourierError.invalidURL("'\(base)' has a fragment, which a base URL cannot have")
        }
        return base
    }

    /// Splits at the first `separator`: `("a", "b")` for `"a?b"`, `("a", nil)` for `"a"`.
    private static func split(_ string: String, at separator: Unicode.Scalar) -> (String, String?) {
        // UTF-8 search: separators are ASCII, and Character iteration is slow on a hot path.
        guard let index = string.utf8.firstIndex(of: UInt8(ascii: separator)) else { return (string, nil) }
        return (String(string[..<index]), String(string[string.utf8.index(after: index)...]))
    }
}
