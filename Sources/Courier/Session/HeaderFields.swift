import Foundation

/// A response's header fields in arrival order, kept as the bytes that arrived, in one compact
/// value: where each field's name and value are, then the bytes. Strings are made only for what
/// is read (a lookup by name makes one; ``pairs`` makes them all), so a response whose headers
/// nobody reads costs no strings.
///
/// The engine builds the fields line by line in a ``HeaderFieldsBuilder`` and freezes them into
/// this value when the head is complete; after that they are only read.
struct HeaderFields: HeaderFieldReading, Sendable {
    /// The bytes of one field's place in ``storage``: four 32-bit offsets into the bytes that
    /// follow the places (name start and end, value start and end).
    static let placeSize = 16

    /// `count` places, then the bytes of the names and values; nil when there are no fields.
    private let storage: ResponseMemory.Bytes?
    /// The number of fields.
    let count: Int

    /// No fields.
    init() {
        storage = nil
        count = 0
    }

    /// Fields with these names and values, in order (stubs, tests, heads made from headers).
    init(_ pairs: [(String, String)]) {
        self = HeaderFieldsBuilder(pairs).frozen(in: nil)
    }

    /// Fields laid out by ``HeaderFieldsBuilder/frozen(in:)``.
    init(storage: ResponseMemory.Bytes?, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// Calls `body` with the name and the value of field number `index`.
    func withField<Result>(
        at index: Int, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result {
        precondition(index >= 0 && index < count, "header field index out of range")
        guard let storage else { preconditionFailure("header fields without storage") }
        return storage.withUnsafeBytes { raw in
            let place = index * Self.placeSize
            let bytes = count * Self.placeSize
            func offset(_ at: Int) -> Int {
                bytes + Int(raw.loadUnaligned(fromByteOffset: place + at, as: Int32.self))
            }
            return body(
                UnsafeRawBufferPointer(rebasing: raw[offset(0)..<offset(4)]),
                UnsafeRawBufferPointer(rebasing: raw[offset(8)..<offset(12)]))
        }
    }
}

/// Reading header fields, by position or by name (ASCII names, compared without regard to case):
/// what ``HeaderFields`` and ``HeaderFieldsBuilder`` share.
protocol HeaderFieldReading {
    /// The number of fields.
    var count: Int { get }
    /// Calls `body` with the name and the value of field number `index`.
    func withField<Result>(
        at index: Int, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Result
    ) -> Result
}

extension HeaderFieldReading {
    var isEmpty: Bool { count == 0 }

    /// The name of field number `index`.
    func name(at index: Int) -> String {
        withField(at: index) { name, _ in String(decoding: name, as: UTF8.self) }
    }

    /// The value of field number `index`.
    func value(at index: Int) -> String {
        withField(at: index) { _, value in String(decoding: value, as: UTF8.self) }
    }

    /// Whether field number `index` is named `name` (ASCII, without regard to case).
    func hasName(_ name: String, at index: Int) -> Bool {
        var name = name
        return name.withUTF8 { wanted in
            withField(at: index) { have, _ in
                guard wanted.count == have.count else { return false }
                for offset in 0..<have.count {
                    let byte = wanted[offset]
                    if have[offset] != byte, HeaderFieldBytes.lower(have[offset]) != HeaderFieldBytes.lower(byte) {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// Whether field number `index` is named `lowercase` (ASCII, without regard to case); no
    /// string is made.
    func nameEquals(at index: Int, lowercase: StaticString) -> Bool {
        withField(at: index) { name, _ in HeaderFieldBytes.equalsIgnoringCase(name, lowercase) }
    }

    /// Calls `body` with the bytes of field number `index`'s value.
    func withValueBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withField(at: index) { _, value in body(value) }
    }

    /// The first value of the fields named `name` that satisfies `predicate`.
    func first(named name: String, where predicate: (String) -> Bool = { _ in true }) -> String? {
        for index in 0..<count where hasName(name, at: index) {
            let value = value(at: index)
            if predicate(value) { return value }
        }
        return nil
    }

    /// The last value of the fields named `name`.
    func last(named name: String) -> String? {
        for index in (0..<count).reversed() where hasName(name, at: index) {
            return value(at: index)
        }
        return nil
    }

    /// Every field as a name and a value, in order.
    var pairs: [(String, String)] {
        (0..<count).map { index in
            withField(at: index) { name, value in
                (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
            }
        }
    }
}

/// Byte comparisons of header field names.
enum HeaderFieldBytes {
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

    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
