/// A response's header fields in arrival order, kept as the bytes that arrived: every name and
/// value in one buffer, with where each starts and ends. Strings are made only for what is read
/// (a lookup by name makes one; ``pairs`` makes them all), so a response whose headers nobody
/// reads costs no strings, and none are made on the engine thread while the head arrives.
struct HeaderFields: Sendable {
    /// Where one field's name and value are in ``bytes``: the value follows the name (after the
    /// colon and blanks of the line they came from, when they were appended as one line).
    private struct Span: Sendable {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    /// The spans in order: the first 16 in place, the rest in an array. A usual head (nginx
    /// sends 7 fields, httpbin 8) then needs one allocation, for its bytes, where two arrays
    /// needed two.
    private struct Spans: Sendable {
        private static let inlineCount = 16
        private var first = InlineArray<16, Span>(repeating: Span(nameStart: 0, nameEnd: 0, valueStart: 0, valueEnd: 0))
        private var rest: [Span] = []
        private(set) var count = 0

        var indices: Range<Int> { 0..<count }

        subscript(index: Int) -> Span {
            get { index < Self.inlineCount ? first[index] : rest[index - Self.inlineCount] }
            set {
                if index < Self.inlineCount {
                    first[index] = newValue
                } else {
                    rest[index - Self.inlineCount] = newValue
                }
            }
        }

        @inline(__always)
        mutating func append(_ span: Span) {
            if count < Self.inlineCount { first[count] = span } else { rest.append(span) }
            count += 1
        }

        mutating func removeAll() {
            rest.removeAll(keepingCapacity: true)
            count = 0
        }
    }

    private var bytes: [UInt8] = []
    private var spans = Spans()

    /// No fields.
    init() {}

    /// Fields with these names and values, in order (stubs, tests, heads made from headers).
    init(_ pairs: [(String, String)]) {
        for (name, value) in pairs {
            var name = name
            var value = value
            name.withUTF8 { nameBytes in
                value.withUTF8 { valueBytes in
                    append(name: UnsafeRawBufferPointer(nameBytes), value: UnsafeRawBufferPointer(valueBytes))
                }
            }
        }
    }

    var count: Int { spans.count }
    var isEmpty: Bool { spans.count == 0 }

    /// Adds a field; in the value, every CR and NUL becomes SP (RFC 9110 §5.5).
    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        reserveForAHead()
        let nameStart = Int32(bytes.count)
        bytes.append(contentsOf: name.assumingMemoryBound(to: UInt8.self))
        let nameEnd = Int32(bytes.count)
        bytes.append(contentsOf: value.assumingMemoryBound(to: UInt8.self))
        spans.append(Span(nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: Int32(bytes.count)))
        if Self.containsCROrNUL(value) { cleanLastValue() }
    }

    /// Adds the field of a header line, from its start to `valueEnd`, in one copy: the name is
    /// `line[..<nameEnd]` and the value `line[valueStart..<valueEnd]` (what lies between, the
    /// colon and blanks, is kept but never read). `cleaning` says that the value holds a CR or a
    /// NUL, which become SP.
    ///
    /// The parser's head is at most ``SecurityPolicy/maxResponseHeadSize`` bytes, so every offset
    /// fits an `Int32` without checks.
    mutating func append(line: UnsafeRawBufferPointer, nameEnd: Int, valueStart: Int, valueEnd: Int, cleaning: Bool) {
        reserveForAHead()
        let start = bytes.count
        assert(start + line.count <= 2 * SecurityPolicy.maxResponseHeadSize)
        bytes.append(
            contentsOf: UnsafeRawBufferPointer(rebasing: line[0..<valueEnd]).assumingMemoryBound(to: UInt8.self))
        spans.append(
            Span(
                nameStart: Int32(truncatingIfNeeded: start), nameEnd: Int32(truncatingIfNeeded: start + nameEnd),
                valueStart: Int32(truncatingIfNeeded: start + valueStart),
                valueEnd: Int32(truncatingIfNeeded: start + valueEnd)))
        if cleaning { cleanLastValue() }
    }

    /// Room for a usual head at once, instead of regrowing line after line.
    private mutating func reserveForAHead() {
        if bytes.capacity == 0 {
            bytes.reserveCapacity(512)
        }
    }

    /// Adds `more` to the last field's value, after one SP unless the value is empty (an obs-fold
    /// line), with CR and NUL made SP. There must be a field.
    mutating func extendLastValue(with more: UnsafeRawBufferPointer) {
        guard let last = spans.indices.last else { return }
        if spans[last].valueEnd > spans[last].valueStart { bytes.append(0x20) }
        bytes.append(contentsOf: more.assumingMemoryBound(to: UInt8.self))
        spans[last].valueEnd = Int32(bytes.count)
        if Self.containsCROrNUL(more) { cleanLastValue() }
    }

    /// Whether `bytes` holds a CR or a NUL: eight bytes at a time (a zero byte in a word, or in
    /// the word XOR CRs, found with the usual carry trick); the last word overlaps the one before
    /// instead of a byte-by-byte tail. Fewer than 8 bytes are read one by one.
    @inline(__always)
    static func containsCROrNUL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 else {
            var offset = 0
            while offset < count {
                if bytes[offset] == 0x0D || bytes[offset] == 0 { return true }
                offset += 1
            }
            return false
        }
        var offset = 0
        while offset + 8 < count {
            if hasCROrNUL(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        return hasCROrNUL(bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether one of the eight bytes of `word` is a CR or a NUL.
    @inline(__always)
    private static func hasCROrNUL(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let crs = word ^ 0x0D0D_0D0D_0D0D_0D0D
        return ((word &- ones) & ~word | (crs &- ones) & ~crs) & highs != 0
    }

    /// Replaces every CR and NUL in the last field's value by SP.
    private mutating func cleanLastValue() {
        guard spans.count > 0 else { return }
        let last = spans[spans.count - 1]
        for index in Int(last.valueStart)..<Int(last.valueEnd) where bytes[index] == 0x0D || bytes[index] == 0 {
            bytes[index] = 0x20
        }
    }

    /// Forgets every field (a new response starts), keeping the storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll()
    }

    /// The name of field number `index`.
    func name(at index: Int) -> String {
        string(Int(spans[index].nameStart), Int(spans[index].nameEnd))
    }

    /// The value of field number `index`.
    func value(at index: Int) -> String {
        string(Int(spans[index].valueStart), Int(spans[index].valueEnd))
    }

    /// Whether field number `index` is named `name` (ASCII, without regard to case).
    func hasName(_ name: String, at index: Int) -> Bool {
        let span = spans[index]
        var name = name
        return name.withUTF8 { wanted in
            guard wanted.count == Int(span.nameEnd - span.nameStart) else { return false }
            var offset = Int(span.nameStart)
            for byte in wanted {
                let have = bytes[offset]
                if have != byte, Self.lower(have) != Self.lower(byte) { return false }
                offset += 1
            }
            return true
        }
    }

    /// Whether field number `index` is named `lowercase` (ASCII, without regard to case); no
    /// string is made.
    func nameEquals(at index: Int, lowercase: StaticString) -> Bool {
        let span = spans[index]
        return bytes.withUnsafeBytes { buffer in
            Self.equalsIgnoringCase(
                UnsafeRawBufferPointer(rebasing: buffer[Int(span.nameStart)..<Int(span.nameEnd)]), lowercase)
        }
    }

    /// Whether `bytes` spell `lowercase` without regard to ASCII case (a header line's name before
    /// it is stored, or a stored one).
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for index in 0..<bytes.count where lower(bytes[index]) != expected[index] {
            return false
        }
        return true
    }

    /// Calls `body` with the bytes of field number `index`'s value.
    func withValueBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let span = spans[index]
        return bytes.withUnsafeBytes { buffer in
            body(UnsafeRawBufferPointer(rebasing: buffer[Int(span.valueStart)..<Int(span.valueEnd)]))
        }
    }

    /// The first value of the fields named `name` that satisfies `predicate`.
    func first(named name: String, where predicate: (String) -> Bool = { _ in true }) -> String? {
        for index in spans.indices where hasName(name, at: index) {
            let value = value(at: index)
            if predicate(value) { return value }
        }
        return nil
    }

    /// The last value of the fields named `name`.
    func last(named name: String) -> String? {
        for index in spans.indices.reversed() where hasName(name, at: index) {
            return value(at: index)
        }
        return nil
    }

    /// Every field as a name and a value, in order.
    var pairs: [(String, String)] {
        spans.indices.map { (name(at: $0), value(at: $0)) }
    }

    private func string(_ start: Int, _ end: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
