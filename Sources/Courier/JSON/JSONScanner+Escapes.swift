/// Strings with escapes (or raw control characters), read by the scanner in the same pass that
/// finds their end: the text is unescaped into the scanner's `unescaped` buffer as it goes, so
/// decoding such a string later only has to make a `String` of the result.
///
/// Where the string ends, and which documents are rejected, is exactly as for any other string
/// (see ``JSONScanner``). A string whose escapes are invalid (an unknown escape, bad hex digits,
/// an unpaired surrogate, a control character) is not an error here, as in Foundation: it is
/// recorded as it was written, and decoding it reports the problem.
extension JSONScanner {
    /// Scans the rest of the string whose opening quote is at `opening`, from its first escape
    /// or control character at `stop`; `highBits` holds the bytes before `stop`. Returns the
    /// position after the closing quote.
    @inline(never)
    mutating func scanEscapedString(opening: Int, stop: Int, highBits: UInt64) throws(JSONSyntaxError) -> Int {
        let start = opening &+ 1
        let out = unescaped + unescapedCount
        // The plain bytes before the first escape.
        out.update(from: input.base + start, count: stop &- start)
        var written = stop &- start
        var valid = true
        var high = highBits
        var p = stop
        while true {
            let word = UnsafeRawPointer(input.base + p).loadUnaligned(as: UInt64.self)
            let stops = JSONScanner.stopBytes(in: word)
            // Copied a word at a time; bytes past the run are overwritten by what follows. The
            // output never runs ahead of the input, so this stays inside the buffer.
            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
            if stops == 0 {
                high |= word
                p &+= 8
                written &+= 8
                continue
            }
            let run = stops.trailingZeroBitCount >> 3
            high |= word & ((1 << UInt64(run << 3)) &- 1)
            p &+= run
            written &+= run
            let c = byte(p)
            if c == UInt8(ascii: "\"") { break }
            guard p < input.count else { throw JSONSyntaxError("Unterminated string", at: opening, in: input) }
            guard c == UInt8(ascii: "\\") else {
                // A control character: an error only if this string is ever decoded.
                valid = false
                p &+= 1
                continue
            }
            guard p &+ 1 < input.count else { throw JSONSyntaxError("Unterminated string", at: opening, in: input) }
            let escaped = byte(p &+ 1)
            if escaped == UInt8(ascii: "u") {
                // Like Foundation: four more bytes must exist and none may be a quote.
                guard p &+ 6 <= input.count else {
                    throw JSONSyntaxError("Unterminated string", at: opening, in: input)
                }
                let hex = UnsafeRawPointer(input.base + (p &+ 2)).loadUnaligned(as: UInt32.self) ^ 0x2222_2222
                guard (hex &- 0x0101_0101) & ~hex & 0x8080_8080 == 0 else {
                    throw JSONSyntaxError("Invalid \\u escape", at: p, in: input)
                }
                if valid, let unit = JSONStrings.hex4(input.base + (p &+ 2)) {
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        // A high surrogate: taken with the low one that must follow. Anything
                        // else is left for decoding to report (the next escape is then scanned
                        // on its own, with the checks above).
                        if p &+ 12 <= input.count, byte(p &+ 6) == UInt8(ascii: "\\"),
                            byte(p &+ 7) == UInt8(ascii: "u"),
                            let low = JSONStrings.hex4(input.base + (p &+ 8)), low >= 0xDC00 && low <= 0xDFFF
                        {
                            let scalar = 0x10000 &+ ((unit &- 0xD800) << 10) &+ (low &- 0xDC00)
                            written &+= JSONStrings.encodeUTF8(scalar, into: out + written)
                            p &+= 12
                            continue
                        }
                        valid = false
                    } else if unit >= 0xDC00 && unit <= 0xDFFF {
                        valid = false
                    } else {
                        written &+= JSONStrings.encodeUTF8(unit, into: out + written)
                    }
                } else {
                    valid = false
                }
                p &+= 6
                continue
            }
            if valid {
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out[written] = escaped
                case UInt8(ascii: "b"): out[written] = 0x08
                case UInt8(ascii: "f"): out[written] = 0x0C
                case UInt8(ascii: "n"): out[written] = 0x0A
                case UInt8(ascii: "r"): out[written] = 0x0D
                case UInt8(ascii: "t"): out[written] = 0x09
                default: valid = false
                }
                written &+= 1
            }
            p &+= 2
        }
        var flags = UInt32(JSONKind.string.rawValue) | JSONEntry.Flags.escaped
        // Only raw bytes count: what `\u` escapes produce is valid UTF-8 by construction.
        if high & 0x8080_8080_8080_8080 != 0 { flags |= JSONEntry.Flags.nonASCII }
        let index = UInt32(truncatingIfNeeded: tape.count)
        if valid {
            try tape.append(
                JSONEntry(
                    bits: flags | JSONEntry.Flags.unescaped, start: UInt32(truncatingIfNeeded: unescapedCount),
                    length: UInt32(truncatingIfNeeded: written), next: index &+ 1))
            unescapedCount &+= written
        } else {
            try tape.append(
                JSONEntry(
                    bits: flags, start: UInt32(truncatingIfNeeded: start),
                    length: UInt32(truncatingIfNeeded: p &- start),
                    next: index &+ 1))
        }
        return p &+ 1
    }
}
