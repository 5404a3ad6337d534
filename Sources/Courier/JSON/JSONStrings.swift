/// Turns string entries into Swift `String`s with Foundation's checks: escapes must be valid,
/// `\u` surrogates must pair, raw control characters are refused, and the text must be UTF-8.
enum JSONStrings {
    /// The text of a string of `count` bytes at `p` (without quotes); `scratch` returns a
    /// buffer of at least `count + 8` bytes for unescaping. (The scanner unescapes strings with
    /// valid escapes itself, see ``JSONScanner/scanEscapedString(opening:stop:highBits:)``; an
    /// escaped string that reaches this point has an invalid one, which unescaping reports.)
    @inline(__always)
    static func decode(
        _ p: UnsafePointer<UInt8>, _ count: Int, flags: UInt32,
        scratch: () throws(JSONSyntaxError) -> UnsafeMutablePointer<UInt8>
    ) throws(JSONSyntaxError) -> String {
        if flags & JSONEntry.Flags.escaped == 0 {
            return try text(UnsafeBufferPointer(start: p, count: count), flags: flags)
        }
        return try unescape(p, count, into: try scratch())
    }

    /// Text that needs no unescaping: validated as UTF-8 unless the scanner saw only ASCII bytes
    /// (what escapes produce is valid by construction).
    @inline(__always)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, flags: UInt32) throws(JSONSyntaxError) -> String {
        if flags & JSONEntry.Flags.nonASCII == 0 { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw JSONSyntaxError("A string is not valid UTF-8")
        }
        return text
    }

    /// Unescapes into `out`, which holds at least `count + 8` bytes: text is copied a word at a
    /// time (bytes past the end of a run are overwritten by what follows), and a word may be
    /// read past the string's end (the input is padded; bytes from there on are ignored).
    @inline(never)
    static func unescape(
        _ p: UnsafePointer<UInt8>, _ count: Int, into out: UnsafeMutablePointer<UInt8>
    ) throws(JSONSyntaxError) -> String {
        var i = 0
        var written = 0
        while i < count {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            var stops = JSONScanner.stopBytes(in: word)
            let remaining = count - i
            if remaining < 8 { stops |= 0x80 << UInt64(remaining &* 8) }
            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
            if stops == 0 {
                i += 8
                written += 8
                continue
            }
            let run = stops.trailingZeroBitCount >> 3
            i += run
            written += run
            guard i < count else { break }
            let c = p[i]
            guard c == UInt8(ascii: "\\") else {
                throw JSONSyntaxError("Unescaped control character 0x\(String(c, radix: 16)) in a string")
            }
            let escaped = p[i + 1]
            var single: UInt8 = 0
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): single = escaped
            case UInt8(ascii: "b"): single = 0x08
            case UInt8(ascii: "f"): single = 0x0C
            case UInt8(ascii: "n"): single = 0x0A
            case UInt8(ascii: "r"): single = 0x0D
            case UInt8(ascii: "t"): single = 0x09
            case UInt8(ascii: "u"):
                let (scalar, length) = try unicodeEscape(p + i, count - i)
                written += encodeUTF8(scalar, into: out + written)
                i += length
                continue
            default:
                throw JSONSyntaxError("Invalid escape sequence '\\\(Character(Unicode.Scalar(escaped)))' in a string")
            }
            out[written] = single
            written += 1
            i += 2
        }
        guard let text = String(validating: UnsafeBufferPointer(start: out, count: written), as: UTF8.self) else {
            throw JSONSyntaxError("A string is not valid UTF-8")
        }
        return text
    }

    /// Reads `\uXXXX`, or a surrogate pair `\uD8xx\uDCxx`, at `p`; returns the scalar and the
    /// number of bytes read.
    @inline(__always)
    static func unicodeEscape(
        _ p: UnsafePointer<UInt8>, _ available: Int
    ) throws(JSONSyntaxError) -> (UInt32, Int) {
        guard available >= 6, let unit = hex4(p + 2) else { throw JSONSyntaxError("Invalid \\u escape in a string") }
        if unit >= 0xD800 && unit <= 0xDBFF {
            guard available >= 12, p[6] == UInt8(ascii: "\\"), p[7] == UInt8(ascii: "u") else {
                throw JSONSyntaxError("A high surrogate \\u escape is not followed by a low surrogate")
            }
            guard let low = hex4(p + 8) else { throw JSONSyntaxError("Invalid \\u escape in a string") }
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw JSONSyntaxError("A high surrogate \\u escape is not followed by a low surrogate")
            }
            return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
        }
        guard unit < 0xDC00 || unit > 0xDFFF else {
            throw JSONSyntaxError("A low surrogate \\u escape without a high surrogate")
        }
        return (unit, 6)
    }

    @inline(__always)
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = p[k]
            let digit = c &- UInt8(ascii: "0")
            if digit < 10 {
                value = value << 4 | UInt32(digit)
                continue
            }
            let letter = (c | 0x20) &- UInt8(ascii: "a")
            guard letter < 6 else { return nil }
            value = value << 4 | UInt32(letter &+ 10)
        }
        return value
    }

    @inline(__always)
    static func encodeUTF8(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
