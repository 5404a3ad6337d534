/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Order and duplicates are preserved exactly as received (for requests) or as
/// given (for responses). Lookups compare names ASCII case-insensitively.
///
/// ```swift
/// let headers: TestHTTPHeaders = ["Content-Type": "text/plain", "X-Trace": "1"]
/// headers.header("content-type") // "text/plain"
/// ```
public struct TestHTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field: a name as written and its value.
    public struct Field: Sendable, Hashable {
        /// The field name, with the capitalisation it was sent or given with.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// Creates a header field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from ordered `(name, value)` pairs.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a header list from fields.
    public init(fields: [Field]) {
        self.fields = fields
    }

    /// Creates a header list from a literal; order and duplicates are kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The fields as ordered `(name, value)` pairs.
    public var pairs: [(String, String)] {
        fields.map { ($0.name, $0.value) }
    }

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }

    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }

    /// The field at `position`.
    public subscript(position: Int) -> Field { fields[position] }

    /// All values of the fields named `name` (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// The value of the header `name` (case-insensitive); if it occurs several
    /// times, the values joined with `", "`. `nil` when absent.
    public func header(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    /// Whether a header named `name` (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesEqual($0.name, name) }
    }

    /// Whether some comma-separated element of the `name` header equals `token`
    /// (case-insensitive), e.g. `hasToken("Connection", "close")`.
    public func hasToken(_ name: String, _ token: String) -> Bool {
        values(name).contains { value in
            value.split(separator: ",").contains {
                Self.namesEqual($0.trimmingSpaces(), token)
            }
        }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with a single field (appended at the end).
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// The headers in `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison of two header names.
    static func namesEqual<A: StringProtocol, B: StringProtocol>(_ lhs: A, _ rhs: B) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    /// Lowercases an ASCII letter byte, leaving other bytes unchanged.
    static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and horizontal tabs.
    func trimmingSpaces() -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
