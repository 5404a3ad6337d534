/// Reads a response head one line at a time, as libcurl's header callback delivers it, and keeps
/// only what is well-formed HTTP (RFC 9110 §5, RFC 9112 §5 and §6.3):
///
/// - an obs-fold continuation line (starting with SP or HTAB) is unfolded into the previous
///   field's value, joined by one SP; with no field before it, the head is rejected;
/// - a field name must be a token: whitespace or other separators in it (also before the colon)
///   reject the head, so no field name ever contains whitespace;
/// - a bare CR or a NUL inside a value is replaced by SP;
/// - `Content-Length` values must be digits and all agree (repeats of the same value pass);
/// - the head, interim responses included, may be at most ``SecurityPolicy/maxResponseHeadSize``.
///
/// A rejection sets ``violation`` and ``consume(_:)`` returns false, which aborts the transfer; the
/// engine reports it as ``CourierError/protocolViolation``. Pure: no libcurl, no I/O.
struct ResponseHeadParser {
    /// The status code of the latest status line, 0 before one arrived.
    private(set) var statusCode = 0
    /// The HTTP major version of the latest status line (1 or 2), 0 before one arrived.
    private(set) var majorVersion = 0
    /// The HTTP minor version of the latest status line ("HTTP/1.1": 1), 0 without one.
    private var minorVersion = 0
    /// The fields of the current response (and its trailers), names and values as cleaned, kept
    /// as bytes: no strings are made while the head arrives.
    private(set) var fields = HeaderFieldsBuilder()
    /// The agreed `Content-Length` of the current response.
    private(set) var declaredLength: Int?
    /// Whether the blank line ending a final (non-1xx) response head has been seen.
    private(set) var isComplete = false
    /// Every head byte received so far, line ends and interim responses included.
    private(set) var byteCount = 0
    /// Why the head was rejected, if it was: a value, so that no string is made while a line is
    /// taken (``violation`` words it).
    private(set) var rejection: Rejection?

    /// The HTTP version of the latest status line, as libcurl reports it for that response; nil
    /// before one arrived, or for a version Courier does not name.
    var httpVersion: HTTPVersion? {
        switch (majorVersion, minorVersion) {
        case (1, 0): return .http1_0
        case (1, 1): return .http1_1
        case (2, _): return .http2
        case (3, _): return .http3
        default: return nil
        }
    }

    /// Why the head was rejected, in words; nil while it is accepted.
    var violation: String? { rejection?.message }

    /// What was wrong with a rejected head.
    enum Rejection: Equatable, Error {
        /// More than ``SecurityPolicy/maxResponseHeadSize`` bytes.
        case tooLarge
        /// An obs-fold line with no field before it.
        case foldWithoutField
        /// A line that is neither a status line nor a field (the start of it, for the message).
        case noColon(excerpt: [UInt8])
        /// A field name that is not a token (the start of it).
        case invalidName(excerpt: [UInt8])
        /// A `Content-Length` value that is not a list of equal digit strings (the value).
        case invalidLength(value: [UInt8])
        /// Two `Content-Length` values that disagree.
        case conflictingLengths(Int, Int)

        /// The message ``CourierError/protocolViolation`` carries.
        var message: String {
            switch self {
            case .tooLarge:
                return "the response head is larger than \(SecurityPolicy.maxResponseHeadSize) bytes"
            case .foldWithoutField:
                return "a folded header line has no field before it"
            case .noColon(let excerpt):
                return "a header line has no colon: '\(Self.words(excerpt))'"
            case .invalidName(let excerpt):
                return "invalid header field name '\(Self.words(excerpt))'"
            case .invalidLength(let value):
                return "invalid Content-Length '\(String(decoding: value, as: UTF8.self))'"
            case .conflictingLengths(let first, let second):
                return "conflicting Content-Length values \(first) and \(second)"
            }
        }

        /// At most 40 bytes, control bytes shown as "?", and "…" when there were more.
        private static func words(_ excerpt: [UInt8]) -> String {
            let text = String(decoding: excerpt.prefix(40).map { $0 < 0x20 || $0 == 0x7F ? 0x3F : $0 }, as: UTF8.self)
            return excerpt.count > 40 ? text + "…" : text
        }

        /// The first 41 bytes of `bytes`: enough for ``words(_:)`` to tell that there were more.
        static func excerpt(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            Array(bytes.prefix(41))
        }
    }

    /// A parser before any line.
    init() {}

    /// Starts over for a new exchange (a redirect hop), keeping the fields' storage.
    mutating func reset() {
        let storage = fields.takeStorage()
        self = ResponseHeadParser()
        fields.adopt(storage)
    }

    /// Hands over the fields' byte storage (emptied, capacity kept); the fields are empty
    /// afterwards. The engine keeps it with the transfer's easy handle for the next transfer.
    mutating func takeFieldStorage() -> [UInt8] {
        fields.takeStorage()
    }

    /// Uses `storage` (from ``takeFieldStorage()``) for the fields when they have none yet.
    mutating func adoptFieldStorage(_ storage: consuming [UInt8]) {
        fields.adopt(storage)
    }

    /// What one line did to the head.
    enum LineOutcome {
        case rejected
        case accepted
        /// Accepted, and it completed the head (the blank line after a final response's fields).
        case completedHead
    }

    /// ``consume(_:)``, also telling whether this line completed the head: the engine learns
    /// everything about a header line in one access to its parser.
    mutating func take(_ line: UnsafeRawBufferPointer) -> LineOutcome {
        let wasComplete = isComplete
        guard consume(line) else { return .rejected }
        return !wasComplete && isComplete ? .completedHead : .accepted
    }

    /// Takes one line, line end included; returns false when the head must be rejected.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Bool {
        guard rejection == nil else { return false }
        byteCount += line.count
        if byteCount > SecurityPolicy.maxResponseHeadSize {
            return reject(.tooLarge)
        }
        var end = line.count
        if end > 0, line[end - 1] == 0x0A { end -= 1 }
        if end > 0, line[end - 1] == 0x0D { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if text.isEmpty {
            if statusCode >= 200 { isComplete = true }
            return true
        }
        if Self.isStatusLine(text) {
            startResponse(text)
            return true
        }
        if Self.isBlank(text[0]) {
            return unfold(text)
        }
        return addField(text)
    }

    // MARK: Lines

    /// "HTTP/…": a new response (the first, the one after a 1xx, or the one after a proxy's
    /// CONNECT answer): what came before is forgotten. No field name can start this way.
    private mutating func startResponse(_ line: UnsafeRawBufferPointer) {
        fields.removeAll()
        declaredLength = nil
        isComplete = false
        majorVersion = line.count > 5 ? Int(line[5]) - 0x30 : 0
        minorVersion = line.count > 7 && line[6] == 0x2E ? Int(line[7]) - 0x30 : 0
        statusCode = Self.statusCode(in: line) ?? statusCode
    }

    /// An obs-fold line: its text joins the previous field's value with one SP.
    private mutating func unfold(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !fields.isEmpty else {
            return reject(.foldWithoutField)
        }
        let last = fields.count - 1
        let (start, end) = Self.trimmed(line, from: 0)
        if start < end {
            fields.extendLastValue(with: UnsafeRawBufferPointer(rebasing: line[start..<end]))
        }
        if !isComplete, fields.nameEquals(at: last, lowercase: "content-length") {
            return agree(on: fields.withValueBytes(at: last, Self.contentLength))
        }
        return true
    }

    /// A field line, read in one pass: the name up to the first colon (token bytes only), then the
    /// value without the blanks around it, copied into ``fields`` with one append.
    private mutating func addField(_ line: UnsafeRawBufferPointer) -> Bool {
        let count = line.count
        // The name: token bytes up to the colon (a colon is not a token byte).
        let colon = Self.tokenPrefixLength(line)
        guard colon > 0, colon < count, line[colon] == 0x3A else {
            guard let realColon = line.firstIndex(of: 0x3A) else {
                return reject(.noColon(excerpt: Rejection.excerpt(line)))
            }
            return reject(
                .invalidName(excerpt: Rejection.excerpt(UnsafeRawBufferPointer(rebasing: line[0..<realColon]))))
        }
        let (start, end) = Self.trimmed(line, from: colon + 1)
        // A CR or NUL inside the value is cleaned when the field is stored.
        let cleaning = HeaderFieldsBuilder.containsCROrNUL(UnsafeRawBufferPointer(rebasing: line[start..<end]))
        fields.append(line: line, nameEnd: colon, valueStart: start, valueEnd: end, cleaning: cleaning)
        if !isComplete, colon == 14, Self.isContentLength(line) {
            if !cleaning, let length = Self.plainDigits(UnsafeRawBufferPointer(rebasing: line[start..<end])) {
                return agree(on: length)
            }
            return agree(on: fields.withValueBytes(at: fields.count - 1, Self.contentLength))
        }
        return true
    }

    /// One plain `Content-Length` number: it must agree with any earlier one.
    private mutating func agree(on length: Int) -> Bool {
        if let declaredLength, declaredLength != length {
            return reject(.conflictingLengths(declaredLength, length))
        }
        declaredLength = length
        return true
    }

    /// What a `Content-Length` value says, which must also agree with any earlier one.
    private mutating func agree(on value: Result<Int, Rejection>) -> Bool {
        switch value {
        case .success(let length): return agree(on: length)
        case .failure(let rejection): return reject(rejection)
        }
    }

    /// A `Content-Length` value is a list of one or more equal digit strings (RFC 9110 §8.6);
    /// their length, or why the value is wrong. Read as bytes, as the head is.
    private static func contentLength(_ value: UnsafeRawBufferPointer) -> Result<Int, Rejection> {
        var agreed: Int?
        var partStart = 0
        while true {
            var partEnd = partStart
            while partEnd < value.count, value[partEnd] != 0x2C { partEnd += 1 }
            var first = partStart
            var last = partEnd
            while first < last, isBlank(value[first]) { first += 1 }
            while last > first, isBlank(value[last - 1]) { last -= 1 }
            guard let length = plainDigits(UnsafeRawBufferPointer(rebasing: value[first..<last])) else {
                return .failure(.invalidLength(value: Array(value)))
            }
            if let agreed, agreed != length {
                return .failure(.conflictingLengths(agreed, length))
            }
            agreed = length
            guard partEnd < value.count else { return .success(length) }
            partStart = partEnd + 1
        }
    }

    /// The value of 1 to 19 ASCII digits, else nil (also when it does not fit an `Int`).
    private static func plainDigits(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var number = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflowed) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(Int(byte - 0x30))
            guard !overflowed, !overflowedAgain else { return nil }
            number = sum
        }
        return number
    }

    private mutating func reject(_ reason: Rejection) -> Bool {
        rejection = reason
        return false
    }

    // MARK: Bytes

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count > 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F
    }

    /// The three digits after the first space of a status line.
    static func statusCode(in line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: 0x20), space + 3 <= line.count else { return nil }
        var code = 0
        for index in space + 1..<space + 4 {
            let digit = Int(line[index]) - 0x30
            guard (0...9).contains(digit) else { return nil }
            code = code * 10 + digit
        }
        return code
    }

    /// How many bytes at the start of `line` are token bytes (``HTTPToken/isTokenByte(_:)``).
    /// Letters and `-`, which make up most field names, are taken eight at a time (each byte's
    /// test done in its own lane of a 64-bit word, with no carry between lanes); the rest, from
    /// the first other byte on, one at a time.
    @inline(__always)
    static func tokenPrefixLength(_ line: UnsafeRawBufferPointer) -> Int {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var length = 0
        let count = line.count
        while length + 8 <= count {
            let word = line.loadUnaligned(fromByteOffset: length, as: UInt64.self)
            // Lowercase, without the high bit (so that no lane borrows from the next).
            let lower = (word | 0x2020_2020_2020_2020) & lows
            let atLeastA = ((lower | highs) &- 0x6161_6161_6161_6161) & highs
            let atMostZ = ((0x7A7A_7A7A_7A7A_7A7A | highs) &- lower) & highs
            let dashes = word ^ 0x2D2D_2D2D_2D2D_2D2D
            let isDash = ~(((dashes & lows) &+ lows) | dashes) & highs
            let others = ~((atLeastA & atMostZ) | isDash) & highs | word & highs
            if others != 0 {
                length += others.trailingZeroBitCount >> 3
                break
            }
            length += 8
        }
        while length < count, HTTPToken.isTokenByte(line[length]) { length += 1 }
        return length
    }

    /// Whether the 14 bytes of a field name at the start of `line` spell `Content-Length` in any
    /// ASCII case: two overlapping 8-byte words, made lowercase (OR 0x20 turns no other byte of
    /// a token into a letter of these words: the name was checked to be a token). Asked of every
    /// field line whose name is 14 bytes long.
    static func isContentLength(_ line: UnsafeRawBufferPointer) -> Bool {
        guard line.count >= 14 else { return false }
        let lowercase: UInt64 = 0x2020_2020_2020_2020
        // "content-" and "t-length" as little-endian words.
        let first = line.loadUnaligned(fromByteOffset: 0, as: UInt64.self) | lowercase
        let last = line.loadUnaligned(fromByteOffset: 6, as: UInt64.self) | lowercase
        return first == UInt64(littleEndian: 0x2D74_6E65_746E_6F63)
            && last == UInt64(littleEndian: 0x6874_676E_656C_2D74)
    }

    /// The range of `line` from `start` without leading and trailing SP, HTAB (and CR or NUL,
    /// which would become SP).
    @inline(__always)
    private static func trimmed(_ line: UnsafeRawBufferPointer, from start: Int) -> (Int, Int) {
        func isTrimmed(_ byte: UInt8) -> Bool { isBlank(byte) || byte == 0x0D || byte == 0 }
        var first = start
        while first < line.count, isTrimmed(line[first]) { first += 1 }
        var last = line.count
        while last > first, isTrimmed(line[last - 1]) { last -= 1 }
        return (first, last)
    }

}
