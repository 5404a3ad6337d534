import Foundation

/// Encodes an `Encodable` value as `application/x-www-form-urlencoded` text, for query
/// strings and form bodies, writing the bytes Alamofire's `URLEncodedFormEncoder` writes.
///
/// The value must encode as a keyed container (a struct or class with properties, or a
/// dictionary):
/// ```swift
/// struct Search: Encodable { let query: String; let page: Int; let tags: [String] }
/// try URLFormEncoder().encode(Search(query: "swift nio", page: 2, tags: ["a", "b"]))
/// // "page=2&query=swift%20nio&tags%5B%5D=a&tags%5B%5D=b"
/// ```
/// As in Alamofire: numbers are written by `String(_:)` (`1.0`, `2.5`, `1e+20`); `nil`
/// optional properties follow `nilEncoding`; the written `key=value` pairs
/// of every object are sorted as text unless `sortsKeys` is `false` (so `a1=…` precedes
/// `a=…`); `keyEncoding` is applied to each whole key path (`homeAddress[streetName]`).
/// Unlike Alamofire, array elements keep their order, a `URL` is written as its absolute
/// string, and NaN, infinity and trees nested deeper than 100 levels throw
/// ``CourierError/parameterEncodingFailed``. docs/migration.md lists every
/// difference.
public struct URLFormEncoder: Sendable {
    /// How property names become keys. Applied to each written key path as a whole
    /// (`homeAddress[streetName]`), after nesting, as Alamofire applies it.
    public enum KeyEncoding: Sendable {
        /// Property names are used as they are. The default.
        case useDefaultKeys
        /// `userID` → `user_id`, `myURLKey` → `my_url_key`: the word splitting of Foundation's
        /// `JSONEncoder` and Alamofire (`URL` → `u_rl`, since the first character never starts a word).
        case convertToSnakeCase
        /// As ``convertToSnakeCase`` with `-`: `userID` → `user-id`.
        case convertToKebabCase
        /// The first character uppercased: `userID` → `UserID`.
        case capitalized
        /// Every character uppercased: `userID` → `USERID`.
        case uppercased
        /// Every character lowercased: `userID` → `userid`.
        case lowercased
        /// Any mapping of your own.
        case custom(@Sendable (String) -> String)

        /// `key` written this way.
        func encode(_ key: String) -> String {
            switch self {
            case .useDefaultKeys: return key
            case .convertToSnakeCase: return URLFormEncoder.splitWords(key, separator: "_")
            case .convertToKebabCase: return URLFormEncoder.splitWords(key, separator: "-")
            case .capitalized: return key.prefix(1).uppercased() + key.dropFirst()
            case .uppercased: return key.uppercased()
            case .lowercased: return key.lowercased()
            case .custom(let transform): return transform(key)
            }
        }
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable {
        /// The date encodes itself: seconds since 2001-01-01, for example `721692800.0`. The default.
        case deferredToDate
        /// Seconds since 1970-01-01 UTC, for example `1700000000.0` or `1700000000.5`.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 UTC, not rounded, for example `1700000000000.0` or
        /// `1700000000500.25`.
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

    package let keyEncoding: KeyEncoding
    package let dateEncoding: DateEncoding
    package let dataEncoding: DataEncoding
    package let options: URLEncodingOptions
    package let sortsKeys: Bool

    /// Creates an encoder; every argument has the Alamofire-compatible default.
    /// - Parameters:
    ///   - keyEncoding: how property names become keys. Default: ``KeyEncoding/useDefaultKeys``.
    ///   - dateEncoding: how dates are written. Default: ``DateEncoding/deferredToDate``.
    ///   - dataEncoding: how data is written. Default: ``DataEncoding/base64``.
    ///   - options: the array, boolean, space, `nil` and key path rules shared with dictionary
    ///     parameters. Default: brackets, `1`/`0`, `%20`, `nil` keys dropped.
    ///   - sortsKeys: whether the written `key=value` pairs of every object are sorted as text
    ///     (`true`, the default, Alamofire's `alphabetizeKeyValuePairs`) or kept in encoding order.
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
        try FormValueEncoder(box: root, codingPath: [], settings: self).encodeValue(value)
        guard case .object(let pairs) = try root.node() else {
            throw CourierError.parameterEncodingFailed(
                keyPath: "", reason: "\(T.self) does not encode as keyed values, so it has no form keys")
        }
        let rules = FormSerializer.EncodableRules(keyEncoding: keyEncoding, sortsSegments: sortsKeys)
        return FormSerializer(options: options, encodableRules: rules).serialize(pairs)
    }

    /// Encodes `value` as UTF-8 `key=value&...` bytes, ready for a request body.
    package func encodeAsData<T: Encodable>(_ value: T) throws -> Data {
        Data(try encode(value).utf8)
    }

    /// `key` split into lowercased words joined by `separator`, as Foundation's `JSONEncoder`
    /// and Alamofire split it: a word starts at every uppercase letter after the first
    /// character, and a run of capitals followed by a lowercase letter gives its last capital
    /// to the next word (`myURLKey` → `my_url_key`). Nothing else is treated specially, so
    /// `already_Snake` → `already__snake` and `_Foo` → `__foo`.
    static func splitWords(_ key: String, separator: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        var wordStarts = [0]
        var searchFrom = 1
        while let upper = (searchFrom..<scalars.count).first(where: { isUppercase(scalars[$0]) }) {
            wordStarts.append(upper)
            guard
                let lower = (upper..<scalars.count).first(where: {
                    scalars[$0].properties.generalCategory == .lowercaseLetter
                })
            else { break }
            if lower > upper + 1 { wordStarts.append(lower - 1) }
            searchFrom = lower + 1
        }
        let wordEnds = wordStarts.dropFirst() + [scalars.count]
        return zip(wordStarts, wordEnds).map { start, end in
            String(String.UnicodeScalarView(scalars[start..<end])).lowercased()
        }.joined(separator: separator)
    }

    /// `key` in snake case (``KeyEncoding/convertToSnakeCase``).
    static func snakeCased(_ key: String) -> String {
        splitWords(key, separator: "_")
    }
}
