import Foundation

/// Encodes an `Encodable` value as `application/x-www-form-urlencoded` text, for query
/// strings and form bodies.
///
/// The value must encode as a keyed container (a struct or class with properties, or a
/// dictionary). Nested values follow the same rules as ``Parameters``:
/// ```swift
/// struct Search: Encodable { let query: String; let page: Int; let tags: [String] }
/// try URLFormEncoder().encode(Search(query: "swift nio", page: 2, tags: ["a", "b"]))
/// // "page=2&query=swift%20nio&tags%5B%5D=a&tags%5B%5D=b"
/// ```
/// Keys are sorted at every level unless ``sortsKeys`` is `false`. Non-finite numbers
/// throw ``CourierError/parameterEncodingFailed(keyPath:reason:)``.
public struct URLFormEncoder: Sendable {
    /// How property names become keys.
    public enum KeyEncoding: Sendable {
        /// Property names are used as they are. The default.
        case useDefaultKeys
        /// `userID` → `user_id`, `myURLKey` → `my_url_key`.
        case convertToSnakeCase
        /// Any mapping of your own.
        case custom(@Sendable (String) -> String)
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// The date encodes itself (seconds since 2001-01-01 as a number). The default.
        case deferredToDate
        /// Seconds since 1970-01-01 UTC, for example `1700000000` or `1700000000.5`.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 UTC, for example `1700000000000`.
        case millisecondsSince1970
        /// ISO 8601 in UTC, for example `2023-11-14T22:13:20Z`.
        case iso8601
        /// Text produced by the given formatter.
        case formatted(DateFormatter)
        /// Text produced by a closure of your own.
        case custom(@Sendable (Date) throws -> String)
    }

    /// How `Data` values are written.
    public enum DataEncoding: Sendable {
        /// Base64 text (standard alphabet, with padding). The default.
        case base64
        /// The data encodes itself, as an array of byte values.
        case deferredToData
        /// Text produced by a closure of your own.
        case custom(@Sendable (Data) throws -> String)
    }

    /// How property names become keys; default ``KeyEncoding/useDefaultKeys``.
    public var keyEncoding: KeyEncoding
    /// How dates are written; default ``DateEncoding/deferredToDate``.
    public var dateEncoding: DateEncoding
    /// How data is written; default ``DataEncoding/base64``.
    public var dataEncoding: DataEncoding
    /// Array, boolean, space and `nil` rules shared with dictionary parameters.
    public var options: URLEncodingOptions
    /// Whether keys are sorted at every level (`true`, the default) or kept in encoding order.
    public var sortsKeys: Bool

    /// Creates an encoder; every argument has the Alamofire-compatible default.
    public init(
        keyEncoding: KeyEncoding = .useDefaultKeys,
        dateEncoding: DateEncoding = .deferredToDate,
        dataEncoding: DataEncoding = .base64,
        options: URLEncodingOptions = .default,
        sortsKeys: Bool = true
    ) {
        self.keyEncoding = keyEncoding
        self.dateEncoding = dateEncoding
        self.dataEncoding = dataEncoding
        self.options = options
        self.sortsKeys = sortsKeys
    }

    /// Encodes `value` as `key=value&...` text.
    public func encode<T: Encodable>(_ value: T) throws -> String {
        let root = FormNodeBox()
        let encoder = FormValueEncoder(box: root, codingPath: [], settings: self)
        try encoder.encodeValue(value)
        guard case .object(let pairs) = root.node(sortingKeys: sortsKeys) else {
            throw CourierError.parameterEncodingFailed(
                keyPath: "", reason: "\(T.self) does not encode as keyed values, so it has no form keys")
        }
        return FormSerializer.serialize(pairs, options: options)
    }

    /// Encodes `value` as UTF-8 `key=value&...` bytes, ready for a request body.
    public func encodeAsData<T: Encodable>(_ value: T) throws -> Data {
        Data(try encode(value).utf8)
    }

    /// Applies ``keyEncoding`` to a property name.
    func encodedKey(_ key: String) -> String {
        switch keyEncoding {
        case .useDefaultKeys: return key
        case .convertToSnakeCase: return Self.snakeCased(key)
        case .custom(let transform): return transform(key)
        }
    }

    /// `userID` → `user_id`; a run of capitals is one word, ending before a capital
    /// that starts a lowercase word (`myURLKey` → `my_url_key`).
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            guard character.isUppercase else {
                result.append(character)
                continue
            }
            if index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord = previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && (next?.isLowercase ?? false))
                if startsWord { result.append("_") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
