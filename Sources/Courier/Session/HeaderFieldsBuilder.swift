import Foundation

/// A response head's fields as the engine receives them, one line at a time: every name and value
/// in one growing buffer, with where each starts and ends. Strings are made only for what is read,
/// and none while the head arrives. Once the head is complete, ``frozen(in:)`` makes the compact
/// ``HeaderFields`` a ``ResponseHead`` keeps. The builder stays on the engine thread: its byte
/// storage goes back to the transfer's easy handle when the transfer gives the handle up
/// (``takeStorage()``), and the next transfer on that handle parses into it (``adopt(_:)``).
struct HeaderFieldsBuilder: HeaderFieldReading, Sendable {
    /// Where one field's name and value are in ``bytes``: the value follows the name (after the
    /// colon and blanks of the line they came from, when they were appended as one line).
    private struct Span: Sendable {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    /// The spans in order: the first 16 in place, the rest in an array. A usual head (nginx
    /// sends 7 fields, httpbin 8) then needs no allocation of its own for them, where an array
    /// needed one.
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

    /// Hands over the byte storage, emptied with its capacity kept, for another head; the fields
    /// are empty afterwards.
    mutating func takeStorage() -> [UInt8] {
        var storage: [UInt8] = []
        swap(&storage, &bytes)
        storage.removeAll(keepingCapacity: true)
        spans.removeAll()
        return storage
    }

    /// Uses `storage` (empty, from ``takeStorage()``) for the bytes when they have no storage yet.
    mutating func adopt(_ storage: consuming [UInt8]) {
        guard bytes.capacity == 0, storage.isEmpty else { return }
        bytes = storage
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

    /// Calls `body` with the name and the value of field number `index`.
    func withField<Result>(
        at index: Int, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let span = spans[index]
        return bytes.withUnsafeBytes { buffer in
            body(
                UnsafeRawBufferPointer(rebasing: buffer[Int(span.nameStart)..<Int(span.nameEnd)]),
                UnsafeRawBufferPointer(rebasing: buffer[Int(span.valueStart)..<Int(span.valueEnd)]))
        }
    }

    /// The fields as a ``HeaderFields``: one allocation holding the places of the fields and their
    /// bytes, from `memory` when its size has a class there (``ResponseMemory``), so that the
    /// thread that lets go of the head gives the memory back instead of freeing it into the
    /// engine thread's arena.
    func frozen(in memory: ResponseMemory?) -> HeaderFields {
        let count = spans.count
        guard count > 0 else { return HeaderFields() }
        let placesSize = count * HeaderFields.placeSize
        func fill(_ out: UnsafeMutableRawBufferPointer) {
            for index in 0..<count {
                let span = spans[index]
                let offset = index * HeaderFields.placeSize
                out.storeBytes(of: span.nameStart, toByteOffset: offset, as: Int32.self)
                out.storeBytes(of: span.nameEnd, toByteOffset: offset + 4, as: Int32.self)
                out.storeBytes(of: span.valueStart, toByteOffset: offset + 8, as: Int32.self)
                out.storeBytes(of: span.valueEnd, toByteOffset: offset + 12, as: Int32.self)
            }
            bytes.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = out.baseAddress else { return }
                (to + placesSize).copyMemory(from: from, byteCount: source.count)
            }
        }
        let storage = ResponseMemory.bytes(count: placesSize + bytes.count, in: memory, initializingWith: fill)
        return HeaderFields(storage: storage, count: count)
    }
}
