import Foundation

/// The directives of a message's `Cache-Control` field lines (RFC 9111 §5.2), request or response.
///
/// A directive is `name` or `name=value`, names compared without case, values a token or a quoted
/// string. A directive whose argument is malformed (`max-age=abc`, `max-age= 60`, `max-age =60`)
/// is ignored. When a directive appears more than once, the first occurrence counts (§4.2.1).
/// Delta-seconds beyond 2^31 are read as 2^31 (§1.2.2).
struct CacheControl: Equatable, Sendable {
    /// `max-age`: in a response, the freshness lifetime; in a request, the oldest acceptable age.
    var maxAge: Int?
    /// `no-cache` (response: reuse only after validation; request: validate before reuse).
    var noCache = false
    /// `no-store`: neither the request nor its response may be stored.
    var noStore = false
    /// `private`: fine for a private cache such as this one.
    var isPrivate = false
    /// `public`: storable even when it would not be otherwise.
    var isPublic = false
    /// `must-revalidate`: once stale, never reused without validation, whatever the request allows.
    var mustRevalidate = false
    /// `max-stale` in a request: stale responses accepted up to this many seconds past their
    /// lifetime; `Int.max` for `max-stale` without a value.
    var maxStale: Int?
    /// `min-fresh` in a request: the response must stay fresh at least this many seconds more.
    var minFresh: Int?
    /// `only-if-cached` in a request: never contact the origin.
    var onlyIfCached = false

    /// The largest delta-seconds value a cache must handle (RFC 9111 §1.2.2).
    static let maxDeltaSeconds = 2_147_483_648

    /// Reads every `Cache-Control` line of a message; `values` in field order.
    init(fieldValues values: [String]) {
        var seen = Set<String>()
        for value in values {
            for (name, argument) in Self.directives(in: value) where seen.insert(name).inserted {
                apply(name: name, argument: argument)
            }
        }
    }

    /// No directive at all.
    init() {}

    private mutating func apply(name: String, argument: String?) {
        switch name {
        case "max-age": maxAge = argument.flatMap(Self.deltaSeconds)
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "max-stale": maxStale = argument.map { Self.deltaSeconds($0) ?? 0 } ?? Int.max
        case "min-fresh": minFresh = argument.flatMap(Self.deltaSeconds)
        case "only-if-cached": onlyIfCached = true
        default: break
        }
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits only, leading zeros allowed, capped at 2^31.
    /// A quoted value is read as its content (senders should not quote, recipients may accept it).
    static func deltaSeconds(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" {
            digits = digits.dropFirst().dropLast()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var value = 0
        for byte in digits.utf8 {
            value = value * 10 + Int(byte - 48)
            if value >= maxDeltaSeconds { return maxDeltaSeconds }
        }
        return value
    }

    /// Splits one field value into `(lowercased name, argument)` pairs, commas inside quoted
    /// strings kept; a directive whose name is not a token is dropped.
    static func directives(in value: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        for part in splitList(value) {
            let name: Substring
            var argument: String?
            if let equals = part.firstIndex(of: "=") {
                name = part[..<equals]
                argument = String(part[part.index(after: equals)...])
            } else {
                name = part[...]
            }
            guard !name.isEmpty, name.utf8.allSatisfy(HTTPToken.isTokenByte) else { continue }
            if let raw = argument, raw.isEmpty || raw.first == " " || raw.first == "\t" { argument = nil }
            result.append((name.lowercased(), argument))
        }
        return result
    }

    /// Splits a comma-separated field value, commas inside quoted strings kept, each element trimmed
    /// of spaces and tabs; empty elements dropped.
    static func splitList(_ value: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                elements.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        elements.append(current)
        return elements.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
