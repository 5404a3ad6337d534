/// One pass over the document's bytes, producing the tape. Iterative (an explicit stack of open
/// containers), so hostile nesting cannot overflow the call stack.
///
/// It accepts exactly what Foundation's `JSONDecoder` scanner accepts, so that both decoders
/// agree on which documents are readable:
/// - structure is checked strictly, except that one trailing comma is allowed before `]` or `}`;
/// - at most 512 arrays and objects may be open at once;
/// - strings are checked for termination only (a `\u` must be followed by four bytes that are
///   not a quote); escapes, control characters and UTF-8 are checked when a string is decoded;
/// - numbers are runs of `0-9 . e E + -` starting with a digit or `-`, checked when decoded.
struct JSONScanner {
    /// The deepest nesting of arrays and objects accepted, as in Foundation.
    static let maximumDepth = 512

    let input: JSONInput
    var tape: JSONTapeBuffer
    /// Where strings with escapes are unescaped while scanning (see `scanEscapedString`): at
    /// least `input.count + 16` bytes.
    let unescaped: UnsafeMutablePointer<UInt8>
    /// Bytes of `unescaped` used so far.
    var unescapedCount = 0
    /// The tape index of the innermost open container, or -1. While a container is open, its
    /// entry's `next` holds the index of the container around it (`UInt32.max` for none), so
    /// the open containers form a stack without memory of their own.
    private var top = -1
    private var depth = 0

    /// Scans `input` into `tape` (empty on entry). Whether it succeeds or throws, `tape` holds
    /// the buffer afterwards (it may have grown), for its owner to keep or free.
    /// Strings with escapes are unescaped into `unescaped` (at least `input.count + 16` bytes).
    static func scan(
        _ input: JSONInput, into tape: inout JSONTapeBuffer, unescaped: UnsafeMutablePointer<UInt8>
    ) throws(JSONSyntaxError) {
        var scanner = JSONScanner(input: input, tape: tape, unescaped: unescaped)
        defer { tape = scanner.tape }
        try scanner.run()
    }

    private init(input: JSONInput, tape: JSONTapeBuffer, unescaped: UnsafeMutablePointer<UInt8>) {
        self.input = input
        self.tape = tape
        self.unescaped = unescaped
    }

    @inline(__always) func byte(_ offset: Int) -> UInt8 { input.base[offset] }

    @inline(__always)
    private func skipWhitespace(_ position: Int) -> Int {
        var position = position
        while true {
            let c = input.base[position]
            // Space, tab, line feed, carriage return; everything else (including the zero padding) stops.
            guard c <= 0x20, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return position }
            position &+= 1
        }
    }

    private func unexpected(_ offset: Int, _ context: String) -> JSONSyntaxError {
        .character(offset < input.count ? byte(offset) : 0, context, at: offset, in: input)
    }

    @inline(__always)
    private mutating func run() throws(JSONSyntaxError) {
        var position = skipWhitespace(0)
        guard position < input.count else { throw JSONSyntaxError("The document is empty") }
        parsing: while true {
            // A value starts at `position` (whitespace already skipped).
            let openBefore = depth
            position = try scanValue(at: position)
            // A non-empty container was opened: its first element starts at `position`.
            if depth > openBefore { continue parsing }
            // After a value: close containers and find where the next value starts.
            while true {
                if depth == 0 { break parsing }
                position = skipWhitespace(position)
                let top = self.top
                let c = byte(position)
                let isObject = tape.base[top].kind == .object
                let closer: UInt8 = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if c == UInt8(ascii: ",") {
                    position = skipWhitespace(position &+ 1)
                    if byte(position) == closer {
                        // A trailing comma, which Foundation accepts.
                        close(top, after: position)
                        position &+= 1
                        continue
                    }
                    if isObject { position = try scanKey(at: position, object: top) }
                    tape.base[top].length &+= 1
                    continue parsing
                } else if c == closer {
                    close(top, after: position)
                    position &+= 1
                    continue
                } else {
                    throw unexpected(position, isObject ? "in object" : "in array")
                }
            }
        }
        position = skipWhitespace(position)
        guard position >= input.count else { throw unexpected(position, "after the top-level value") }
    }

    @inline(__always)
    private mutating func close(_ container: Int, after position: Int) {
        let outer = tape.base[container].next
        tape.base[container].next = UInt32(truncatingIfNeeded: tape.count)
        top = outer == .max ? -1 : Int(outer)
        depth -= 1
    }

    /// Scans the value at `position`; for a non-empty container, opens it and returns the
    /// position of its first element (for an object, of its first member's value).
    @inline(__always)
    private mutating func scanValue(at position: Int) throws(JSONSyntaxError) -> Int {
        let c = byte(position)
        switch c {
        case UInt8(ascii: "\""):
            return try scanString(at: position, flags: 0)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            return try scanNumber(at: position)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try open(at: position, object: c == UInt8(ascii: "{"))
        case UInt8(ascii: "t"):
            try literal(at: position, 0x6575_7274, .true)  // "true", little-endian
            return position + 4
        case UInt8(ascii: "f"):
            guard byte(position + 4) == UInt8(ascii: "e") else { throw unexpected(position + 4, "in literal false") }
            try literal(at: position, 0x736C_6166, .false)  // "fals"
            return position + 5
        case UInt8(ascii: "n"):
            try literal(at: position, 0x6C6C_756E, .null)  // "null"
            return position + 4
        default:
            throw unexpected(position, "where a value was expected")
        }
    }

    @inline(__always)
    private mutating func literal(at position: Int, _ word: UInt32, _ kind: JSONKind) throws(JSONSyntaxError) {
        let found = UnsafeRawPointer(input.base + position).loadUnaligned(as: UInt32.self)
        guard found == UInt32(littleEndian: word), position + 4 <= input.count else {
            throw unexpected(position, "in a literal")
        }
        let index = UInt32(truncatingIfNeeded: tape.count)
        try tape.append(
            JSONEntry(
                bits: UInt32(kind.rawValue), start: UInt32(truncatingIfNeeded: position), length: 0, next: index &+ 1))
    }

    @inline(__always)
    private mutating func open(at position: Int, object: Bool) throws(JSONSyntaxError) -> Int {
        guard depth < JSONScanner.maximumDepth else {
            throw JSONSyntaxError(
                "Too many nested arrays or objects (more than \(JSONScanner.maximumDepth))", at: position, in: input)
        }
        let index = tape.count
        let kind: JSONKind = object ? .object : .array
        try tape.append(
            JSONEntry(
                bits: UInt32(kind.rawValue), start: UInt32(truncatingIfNeeded: position), length: 0,
                next: UInt32(truncatingIfNeeded: index &+ 1)))
        var inner = skipWhitespace(position &+ 1)
        let closer: UInt8 = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if byte(inner) == closer {
            return inner &+ 1
        }
        tape.base[index].next = top < 0 ? .max : UInt32(truncatingIfNeeded: top)
        top = index
        depth &+= 1
        if object { inner = try scanKey(at: inner, object: index) }
        tape.base[index].length = 1
        return inner
    }

    /// Scans `"key" :` and returns the position of the member's value.
    @inline(__always)
    private mutating func scanKey(at position: Int, object: Int) throws(JSONSyntaxError) -> Int {
        guard byte(position) == UInt8(ascii: "\"") else {
            throw unexpected(position, "where an object key was expected")
        }
        var after = try scanString(at: position, flags: 0)
        let key = tape.base[tape.count - 1]
        if !key.isPlainASCIIString { tape.base[object].bits |= JSONEntry.Flags.complexKeys }
        after = skipWhitespace(after)
        guard byte(after) == UInt8(ascii: ":") else { throw unexpected(after, "after an object key") }
        return skipWhitespace(after &+ 1)
    }

    /// Scans the string whose opening quote is at `position`; returns the position after its
    /// closing quote.
    @inline(__always)
    private mutating func scanString(at position: Int, flags: UInt32) throws(JSONSyntaxError) -> Int {
        let start = position &+ 1
        var flags = flags | UInt32(JSONKind.string.rawValue)
        var p = start
        var highBits: UInt64 = 0
        while true {
            let word = UnsafeRawPointer(input.base + p).loadUnaligned(as: UInt64.self)
            let stops = JSONScanner.stopBytes(in: word)
            if stops == 0 {
                highBits |= word
                p &+= 8
                // A long run of plain text: 16 bytes at a time until a block holds a stop byte,
                // which the word loop then locates.
                let (run, high) = JSONScanner.plainRun(input.base + p)
                p &+= run
                highBits |= high
                continue
            }
            let offset = stops.trailingZeroBitCount >> 3
            // Only the bytes before the stop count toward "non-ASCII".
            highBits |= word & ((1 << UInt64(offset << 3)) &- 1)
            p &+= offset
            let c = byte(p)
            if c == UInt8(ascii: "\"") {
                break
            }
            // An escape or a control character: the rest of the string is read by the unescaping
            // scanner.
            return try scanEscapedString(opening: position, stop: p, highBits: highBits)
        }
        if highBits & 0x8080_8080_8080_8080 != 0 { flags |= JSONEntry.Flags.nonASCII }
        let index = UInt32(truncatingIfNeeded: tape.count)
        try tape.append(
            JSONEntry(
                bits: flags, start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: p &- start),
                next: index &+ 1))
        return p &+ 1
    }

    /// The length of the run of blocks of 16 bytes at `p` that hold no quote, backslash or byte
    /// below 0x20, and the OR of their bytes' words (for the non-ASCII check). Stops at the zero
    /// padding after the document at the latest. Kept out of line: there the comparisons compile
    /// to vector instructions.
    @inline(never)
    static func plainRun(_ p: UnsafePointer<UInt8>) -> (Int, UInt64) {
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let backslash = SIMD16<UInt8>(repeating: 0x5C)
        let space = SIMD16<UInt8>(repeating: 0x20)
        var offset = 0
        var high = SIMD16<UInt8>()
        while true {
            let block = UnsafeRawPointer(p + offset).loadUnaligned(as: SIMD16<UInt8>.self)
            let stops = (block .== quote) .| (block .== backslash) .| (block .< space)
            let words = unsafeBitCast(stops, to: SIMD2<UInt64>.self)
            if words[0] | words[1] != 0 { break }
            high |= block
            offset &+= 16
        }
        let halves = unsafeBitCast(high, to: SIMD2<UInt64>.self)
        return (offset, halves[0] | halves[1])
    }

    /// A word with the high bit set in each byte that is a quote, a backslash or below 0x20.
    /// Bits above the first such byte may be spurious; only the lowest set bit is exact.
    @inline(__always)
    static func stopBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        let isControl = (word &- (ones &* 0x20)) & ~word
        return (isQuote | isBackslash | isControl) & highs
    }

    /// Scans the number at `position` (a digit or `-`); returns the position after it.
    @inline(__always)
    private mutating func scanNumber(at position: Int) throws(JSONSyntaxError) -> Int {
        var p = position &+ 1
        while byte(p) &- UInt8(ascii: "0") < 10 { p &+= 1 }
        var flags = UInt32(JSONKind.number.rawValue) | JSONEntry.Flags.plainInteger
        if JSONScanner.isNumberByte(byte(p)) {
            flags = UInt32(JSONKind.number.rawValue)
            while JSONScanner.isNumberByte(byte(p)) { p &+= 1 }
        }
        let index = UInt32(truncatingIfNeeded: tape.count)
        try tape.append(
            JSONEntry(
                bits: flags, start: UInt32(truncatingIfNeeded: position),
                length: UInt32(truncatingIfNeeded: p &- position), next: index &+ 1))
        return p
    }

    @inline(__always)
    static func isNumberByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
