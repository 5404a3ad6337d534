import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ordered collection of HTTP headers with case-insensitive names.
///
/// Each name appears at most once: adding a header whose name is already present
/// (in any letter case) replaces its value in place, keeping its position.
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["Cache-Control"] = "no-cache"
/// headers.add(.authorization(bearerToken: token))
/// headers["accept"]            // "application/json"
/// ```
/// Values are validated when a request is built; a CR, LF or NUL anywhere throws
/// ``CourierError/invalidHeader``.
public struct HTTPHeaders: Equatable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral, CustomStringConvertible
{
    private var storage: [HTTPHeader] = []
    /// Whether these are ``routerDefault`` or a copy of it that nothing changed since: a flag,
    /// read without touching the headers' storage, which every router request of a session
    /// shares (a look at the storage counted a reference on it, and each count passed its cache
    /// line between the callers' threads).
    private(set) var isRouterDefault = false

    /// Creates an empty set of headers.
    public init() {}

    /// Creates headers from a list; a later header replaces an earlier one of the same name.
    public init(_ headers: [HTTPHeader]) {
        headers.forEach { update($0) }
    }

    /// Creates headers from a dictionary, sorted by name so the order is deterministic.
    public init(_ dictionary: [String: String]) {
        dictionary.sorted { $0.key < $1.key }.forEach { update(name: $0.key, value: $0.value) }
    }

    /// Creates headers from `["Name": "value", ...]`, keeping the written order.
    public init(dictionaryLiteral elements: (String, String)...) {
        elements.forEach { update(name: $0.0, value: $0.1) }
    }

    /// Creates headers from `[.contentType("..."), HTTPHeader(name: "...", value: "...")]`, keeping
    /// the written order.
    public init(arrayLiteral elements: HTTPHeader...) {
        self.init(elements)
    }

    /// Sets `name` to `value`: replaces an existing header of that name (any case), else appends.
    package mutating func update(name: String, value: String) {
        update(HTTPHeader(name: name, value: value))
    }

    /// Sets `header`: replaces an existing header of that name (any case), else appends.
    package mutating func update(_ header: HTTPHeader) {
        isRouterDefault = false
        if let index = index(ofName: header.name) {
            storage[index] = header
        } else {
            storage.append(header)
        }
    }

    /// Same as ``update(name:value:)``: headers never hold two fields of the same name.
    package mutating func add(name: String, value: String) {
        update(name: name, value: value)
    }

    /// Sets `header`, such as `.authorization(bearerToken: token)`: replaces an existing header
    /// of that name (any case), keeping its position, else appends. Headers never hold two
    /// fields of the same name; `headers[name] = value` does the same with a name and a value.
    public mutating func add(_ header: HTTPHeader) {
        update(header)
    }

    /// Removes the header named `name` (any case), if present.
    package mutating func remove(name: String) {
        isRouterDefault = false
        if let index = index(ofName: name) {
            storage.remove(at: index)
        }
    }

    /// Returns a copy with every header of `other` applied on top of these.
    package func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        other.forEach { result.update($0) }
        return result
    }

    /// The value for `name` (any case), or `nil`.
    package func value(for name: String) -> String? {
        index(ofName: name).map { storage[$0].value }
    }

    /// Reads or writes the value for `name` (any case): assigning a value sets (or replaces) the
    /// header, assigning `nil` removes it.
    public subscript(_ name: String) -> String? {
        get { value(for: name) }
        set {
            if let newValue {
                update(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// The headers as a dictionary keyed by the spelling each was given with.
    package var dictionary: [String: String] {
        Dictionary(storage.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Throws ``CourierError/invalidHeader`` for the first invalid header.
    package func validate() throws {
        try storage.forEach { try $0.validate() }
    }

    /// One `"Name: value"` line per header, secret values shown as `<redacted>` (see
    /// ``HTTPHeader/description``).
    public var description: String {
        storage.map(\.description).joined(separator: "\n")
    }

    /// The position of the first header.
    public var startIndex: Int { storage.startIndex }
    /// The position after the last header.
    public var endIndex: Int { storage.endIndex }
    /// The header at `position`.
    public subscript(position: Int) -> HTTPHeader { storage[position] }

    /// Two header sets are equal when they hold the same names (any case) and values,
    /// in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy {
                $0.name.caseInsensitiveEquals($1.name) && $0.value == $1.value
            }
    }

    /// Hashes names case-insensitively, consistent with ``==(_:_:)`` (for keys that hold headers).
    func hash(into hasher: inout Hasher) {
        for header in storage {
            hasher.combine(header.name.lowercased())
            hasher.combine(header.value)
        }
    }

    /// The same names, spelled the same, with the same values in the same order (what a cached
    /// libcurl header list was built from).
    func isIdentical(to other: HTTPHeaders) -> Bool {
        if sharesStorage(with: other) { return true }
        return storage.count == other.storage.count
            && zip(storage, other.storage).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Whether both are the same stored headers: copies of one value that neither changed since
    /// (so they are identical without comparing a byte). False for empty headers.
    func sharesStorage(with other: HTTPHeaders) -> Bool {
        guard !storage.isEmpty else { return false }
        return storage.withUnsafeBufferPointer { $0.baseAddress }
            == other.storage.withUnsafeBufferPointer { $0.baseAddress }
    }

    private func index(ofName name: String) -> Int? {
        // Field names are ASCII tokens: compared without lowercasing copies, and only when the
        // lengths agree. Read in place: `firstIndex` copied each header out (four reference
        // counts each, about 300 instructions per header on every look-up).
        let length = name.utf8.count
        return storage.withUnsafeBufferPointer { headers in
            for index in headers.indices
            where headers[index].name.utf8.count == length && headers[index].name.caseInsensitiveEquals(name) {
                return index
            }
            return nil
        }
    }
}

extension HTTPHeaders {
    /// The headers every ``Router`` request starts from unless it overrides
    /// ``Router/defaultHeaders``: `Accept: application/json`.
    package static let routerDefault: HTTPHeaders = {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        headers.isRouterDefault = true
        return headers
    }()
}

extension URLRequest {
    /// The request's headers as ``HTTPHeaders`` (sorted by name, since `URLRequest` keeps no order).
    package var courierHeaders: HTTPHeaders {
        HTTPHeaders(allHTTPHeaderFields ?? [:])
    }

    /// Validates `headers` and sets each on the request, replacing existing values of the same name.
    package mutating func setHeaders(_ headers: HTTPHeaders) throws {
        try headers.validate()
        guard !headers.isEmpty else { return }
        // One assignment of the whole dictionary costs a tenth of a `setValue` per header in
        // FoundationNetworking on Linux, so merge here (names compared without regard to case).
        var fields = allHTTPHeaderFields ?? [:]
        for header in headers {
            if let existing = fields.keys.first(where: { $0.caseInsensitiveEquals(header.name) }) {
                fields[existing] = nil
            }
            fields[header.name] = header.value
        }
        allHTTPHeaderFields = fields
    }
}
