import Foundation

/// Matching an object's keys against a `CodingKey`, under the key decoding strategies, without
/// creating `String`s for plain ASCII keys.
///
/// Semantics follow Foundation's `JSONDecoder`: the first member with a matching key wins;
/// keys compare as Swift `String`s (so canonically equivalent spellings match, which is why
/// anything that is not plain ASCII is compared as a `String`).
enum JSONKeyMatching {
    /// Whether every byte is below 0x80.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        let base = bytes.baseAddress
        while i + 8 <= count {
            if UnsafeRawPointer(base! + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if base![i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    // MARK: Snake case

    /// Foundation's `convertFromSnakeCase` for any key: keeps leading and trailing underscores,
    /// lowercases the first word, capitalizes the others and drops the underscores between
    /// them; a key with a single word is left as it is.
    static func fromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let words = key[first...last].split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<first])
        result += words[0].lowercased()
        for word in words.dropFirst() { result += word.capitalized }
        result += key[key.index(after: last)...]
        return result
    }

    /// Whether the snake-case conversion of `raw` equals `query`, both ASCII, without building
    /// the converted key; nil when `raw` holds characters other than letters, digits and
    /// underscores (the caller then converts through ``fromSnakeCase(_:)``).
    static func snakeCaseMatches(raw: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>) -> Bool? {
        let n = raw.count
        var lead = 0
        while lead < n && raw[lead] == UInt8(ascii: "_") { lead += 1 }
        if lead == n { return equal(raw, query) }
        var end = n
        while end > lead && raw[end - 1] == UInt8(ascii: "_") { end -= 1 }
        var words = 0
        var inWord = false
        for i in lead..<end {
            let c = raw[i]
            if c == UInt8(ascii: "_") {
                inWord = false
            } else {
                guard isLetter(c) || isDigit(c) else { return nil }
                if !inWord {
                    words += 1
                    inWord = true
                }
            }
        }
        if words <= 1 { return equal(raw, query) }
        var q = 0
        @inline(__always) func emit(_ byte: UInt8) -> Bool {
            guard q < query.count, query[q] == byte else { return false }
            q += 1
            return true
        }
        for _ in 0..<lead where !emit(UInt8(ascii: "_")) { return false }
        var word = 0
        var positionInWord = 0
        var previousIsDigit = false
        for i in lead..<end {
            let c = raw[i]
            if c == UInt8(ascii: "_") {
                if positionInWord > 0 {
                    word += 1
                    positionInWord = 0
                }
                continue
            }
            var out = c
            if isLetter(c) {
                // The first word is lowercased; in the others, `capitalized` uppercases a letter
                // that starts the word or follows a digit, and lowercases the rest.
                let upper = word > 0 && (positionInWord == 0 || previousIsDigit)
                out = upper ? c & ~0x20 : c | 0x20
            }
            previousIsDigit = isDigit(c)
            guard emit(out) else { return false }
            positionInWord += 1
        }
        for _ in end..<n where !emit(UInt8(ascii: "_")) { return false }
        return q == query.count
    }

    @inline(__always) private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- UInt8(ascii: "a") < 26 }
    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}
