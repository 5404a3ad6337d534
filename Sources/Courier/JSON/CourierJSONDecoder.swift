import Foundation

/// Decodes `Decodable` values from JSON several times faster than Foundation's `JSONDecoder` on
/// Linux, with the same results and the same errors. It is the decoder Courier uses for
/// responses unless you choose another (see ``DataDecoder``).
///
/// ```swift
/// var decoder = CourierJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let user = try decoder.decode(User.self, from: data)
/// ```
///
/// The strategies are Foundation's own types and mean what they mean there. Differences from
/// `JSONDecoder`: JSON5 and `assumesTopLevelDictionary` are not offered, and documents must be
/// smaller than 4 GiB. Like `JSONDecoder` it accepts UTF-8, UTF-16 and UTF-32 input (detected
/// from the first bytes, a byte order mark is skipped), a trailing comma before `]` or `}`,
/// nesting up to 512 levels (deeper documents are rejected with an error, never a crash), and
/// duplicate keys (the first one wins). Values the caller never asks for are checked only for
/// structure, as Foundation does.
///
/// Errors are `DecodingError`s with the kinds and coding paths `JSONDecoder` reports. As there,
/// malformed JSON, and numbers that do not fit the requested type, are reported as
/// `dataCorrupted` at the top level ("The given data was not valid JSON."); the underlying
/// error then says what was wrong and where. A document the decoder cannot get the memory for
/// fails the same way ("Not enough memory to decode the document."), it never crashes.
public struct CourierJSONDecoder: Sendable {
    /// How JSON keys are matched to coding keys. Default: `.useDefaultKeys`.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How `Date` values are read. Default: `.deferredToDate` (seconds since 2001 as a number).
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How `Data` values are read. Default: `.base64`.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// Whether strings stand for infinity and NaN. Default: `.throw`.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with the given strategies; `CourierJSONDecoder()` has Foundation's defaults.
    public init(
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate,
        dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64,
        nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
        self.dataDecodingStrategy = dataDecodingStrategy
        self.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        self.userInfo = userInfo
    }

    /// Decodes a value of `type` from the JSON document in `data`.
    /// - Throws: `DecodingError`, or any error a type's `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let state: JSONDecodingState
        do {
            state = try JSONDecodingState(data: data, decoder: self)
        } catch {
            throw Self.notJSON(error)
        }
        do {
            return try state.decodeRoot(T.self)
        } catch let error as JSONSyntaxError {
            throw Self.notJSON(error)
        }
    }

    /// The error for a document that is not JSON, or (rarely) that could not be decoded for lack
    /// of memory; both at the top level, the underlying error saying what happened.
    static func notJSON(_ error: JSONSyntaxError) -> DecodingError {
        .dataCorrupted(
            DecodingError.Context(
                codingPath: [],
                debugDescription: error.isOutOfMemory
                    ? "Not enough memory to decode the document." : "The given data was not valid JSON.",
                underlyingError: error))
    }
}
