/// Percent-escaping rules for query strings, form bodies and path segments.
enum PercentEscaping {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `string` escaped for a query or form component to `output`: every byte except
    /// `A-Z a-z 0-9 - . _ ~ / ?` becomes `%XX` (UTF-8, uppercase hex); with
    /// ``URLEncodingOptions/SpaceEncoding/plusReplaced`` a space becomes `+`.
    static func appendQueryEscaped(_ string: String, options: URLEncodingOptions, to output: inout [UInt8]) {
        let plus = options.spaceEncoding == .plusReplaced
        for byte in string.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") {
                output.append(byte)
            } else if plus && byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                appendEscaped(byte, to: &output)
            }
        }
    }

    /// Escapes `string` so it is exactly one path segment: every byte except
    /// `A-Z a-z 0-9 - . _ ~` becomes `%XX`, and the dot-segments `.` and `..` become
    /// `%2E` and `%2E%2E`.
    static func escapePathSegment(_ string: String) -> String {
        if string == "." || string == ".." {
            return String(repeating: "%2E", count: string.count)
        }
        return escape(string) { isUnreserved($0) ? $0 : nil }
    }

    /// Escapes bytes that may never appear raw in a URL path (spaces, non-ASCII,
    /// `"<>\^`{|}`...) while keeping `/`, valid `%XX` escapes, sub-delimiters, `:` and `@`.
    static func escapeLoosePath(_ string: String) -> String {
        escapeLoose(string, keeping: "/!$&'()*+,;=:@")
    }

    /// Escapes bytes not allowed in a query (as for ``escapeLoosePath(_:)`` plus `?`).
    static func escapeLooseQuery(_ string: String) -> String {
        escapeLoose(string, keeping: "/?!$&'()*+,;=:@")
    }

    /// Keeps unreserved bytes, `kept` bytes and valid `%XX` escapes; escapes everything else,
    /// including a `%` that does not start a valid escape (`100%` → `100%25`).
    private static func escapeLoose(_ string: String, keeping kept: String) -> String {
        let bytes = Array(string.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let validEscape =
                byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
            if isUnreserved(byte) || kept.utf8.contains(byte) || validEscape {
                output.append(byte)
            } else {
                appendEscaped(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    /// `A-Z a-z 0-9 - . _ ~` (RFC 3986 unreserved).
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Copies each byte for which `keep` returns a byte, and `%XX`-escapes the others.
    static func escape(_ string: String, keep: (UInt8) -> UInt8?) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if let kept = keep(byte) {
                output.append(kept)
            } else {
                appendEscaped(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
