import Foundation

/// Decoding a nested value of any `Decodable` type: the types Foundation's `JSONDecoder`
/// treats specially (`Date`, `Data`, `URL`, `Decimal`, `[String: V]`), fast paths for common
/// scalars, and otherwise the type's own `init(from:)` with a nested decoder.
extension JSONDecodingState {
    /// Decodes `T` from the value at `value`, reached from the node `parent` (whose value is
    /// `parentValue`) through `key`; a nil `key` means the value is that node's own value.
    func unwrap<T: Decodable>(
        _ type: T.Type, value: UInt32, parent: UInt32, parentValue: UInt32,
        key: consuming JSONPathKey?
    ) throws -> T {
        // `key` is consuming so that it moves into the path record without being copied (a
        // copy of a key goes through its existential's value witnesses).
        do {
            if T.self == String.self { return unsafeBitCast(try readString(value), to: T.self) }
            if T.self == Int.self { return unsafeBitCast(try readInteger(value, as: Int.self), to: T.self) }
            if T.self == Double.self { return unsafeBitCast(try readDouble(value), to: T.self) }
            if T.self == Bool.self { return unsafeBitCast(try readBool(value), to: T.self) }
            if T.self == Date.self {
                return unsafeBitCast(
                    try date(value, parent: parent, parentValue: parentValue, key: copy key), to: T.self)
            }
            if T.self == Data.self {
                return unsafeBitCast(
                    try data(value, parent: parent, parentValue: parentValue, key: copy key), to: T.self)
            }
            if T.self == URL.self { return unsafeBitCast(try url(value), to: T.self) }
            if T.self == Decimal.self { return unsafeBitCast(try readDecimal(value), to: T.self) }
            if T.self == JSONValue.self { return unsafeBitCast(try jsonValue(value), to: T.self) }
        } catch let failure as JSONReadFailure {
            throw failure.error(at: codingPath(node: parent, value: parentValue, appending: key))
        }
        if T.self == [String].self {
            return unsafeBitCast(
                try scalarArray(String.self, value, parent: parent, parentValue: parentValue, key: key), to: T.self)
        }
        if T.self == [Int].self {
            return unsafeBitCast(
                try scalarArray(Int.self, value, parent: parent, parentValue: parentValue, key: key), to: T.self)
        }
        if T.self == [Double].self {
            return unsafeBitCast(
                try scalarArray(Double.self, value, parent: parent, parentValue: parentValue, key: key), to: T.self)
        }
        switch work.pointee.kind(of: T.self) {
        case .plain:
            return try withDecoder(value: value, parent: parent, parentValue: parentValue, key: key) { decoder in
                try T(from: decoder)
            }
        case .array(let array):
            // `array` is `T` itself (the cache is keyed by `T`), so it returns its result as a `T`
            // rather than boxed in an existential to be cast back.
            return try withNode(value: value, parent: parent, parentValue: parentValue, key: key) { node in
                try array.decodeJSONArray(self, value: value, node: node, as: T.self)
            }
        case .stringDictionary(let dictionary):
            return try withNode(value: value, parent: parent, parentValue: parentValue, key: key) { node in
                try dictionary.decodeJSONObject(self, value: value, node: node, as: T.self)
            }
        }
    }

    /// An array of scalars, as `Array.init(from:)` would read it, without a path record.
    private func scalarArray<E: JSONScalar>(
        _ type: E.Type, _ value: UInt32, parent: UInt32, parentValue: UInt32,
        key: JSONPathKey?
    ) throws -> [E] {
        let array = entry(value)
        guard array.kind == .array else {
            throw mismatchOrNull([Any].self, array).error(
                at: codingPath(node: parent, value: parentValue, appending: key))
        }
        var result: [E] = []
        result.reserveCapacity(Int(array.length))
        var element = value + 1
        while element < array.next {
            do {
                result.append(try E.read(self, element))
            } catch {
                var path = codingPath(node: parent, value: parentValue, appending: key)
                path.append(JSONKey(index: result.count))
                throw error.error(at: path)
            }
            element = entry(element).next
        }
        return result
    }

    /// Runs `body` with a path node for the value, dropping the node and everything recorded
    /// under it afterwards.
    @inline(__always)
    func withNode<R>(
        value: UInt32, parent: UInt32, parentValue: UInt32, key: consuming JSONPathKey?,
        _ body: (UInt32) throws -> R
    ) throws -> R {
        if key == nil { return try body(parent) }
        let mark = work.pointee.pathCount
        let node = try pushPath(parent: parent, parentValue: parentValue, value: value, key: key)
        defer { work.pointee.truncatePaths(to: mark) }
        return try body(node)
    }

    /// Runs `body` with a decoder for the value, as a type's `init(from:)` or a custom strategy
    /// receives it.
    @inline(__always)
    private func withDecoder<R>(
        value: UInt32, parent: UInt32, parentValue: UInt32, key: consuming JSONPathKey?,
        _ body: (JSONValueDecoder) throws -> R
    ) throws -> R {
        try withNode(value: value, parent: parent, parentValue: parentValue, key: key) { node in
            try body(JSONValueDecoder(state: self, value: value, node: node))
        }
    }

    private func date(_ value: UInt32, parent: UInt32, parentValue: UInt32, key: consuming JSONPathKey?) throws -> Date
    {
        if entry(value).kind == .null { throw JSONReadFailure.null(Date.self) }
        switch dateStrategy {
        case .deferredToDate:
            return try withDecoder(value: value, parent: parent, parentValue: parentValue, key: key) { decoder in
                try Date(from: decoder)
            }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try readDouble(value))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try readDouble(value) / 1000)
        case .iso8601:
            let text = try readString(value)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                // Foundation reports this at the path of the decoder doing the reading.
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath(node: parent, value: parentValue),
                        debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        case .custom(let closure):
            return try withDecoder(value: value, parent: parent, parentValue: parentValue, key: key) { decoder in
                try closure(decoder)
            }
        }
    }

    private func data(_ value: UInt32, parent: UInt32, parentValue: UInt32, key: consuming JSONPathKey?) throws -> Data
    {
        if entry(value).kind == .null { throw JSONReadFailure.null(Data.self) }
        switch dataStrategy {
        case .deferredToData:
            return try withDecoder(value: value, parent: parent, parentValue: parentValue, key: key) { decoder in
                try Data(from: decoder)
            }
        case .base64:
            guard let data = Data(base64Encoded: try readString(value)) else {
                throw JSONReadFailure.corrupted("Encountered Data is not valid Base64.")
            }
            return data
        case .custom(let closure):
            return try withDecoder(value: value, parent: parent, parentValue: parentValue, key: key) { decoder in
                try closure(decoder)
            }
        }
    }

    private func url(_ value: UInt32) throws(JSONReadFailure) -> URL {
        if entry(value).kind == .null { throw .null(URL.self) }
        guard let url = URL(string: try readString(value)) else { throw .corrupted("Invalid URL string.") }
        return url
    }
}

/// Arrays are decoded element by element as `Array.init(from:)` does, without its generic
/// unkeyed container traffic. Its metatypes are `Sendable` (``SendableMetatype``), so that
/// ``JSONTypeKind`` can hold them in the process-wide type cache.
protocol JSONDecodableArray: SendableMetatype {
    /// Decodes the array at `value`; `R` is `Self` (passed as the caller's type so that the
    /// result needs no existential box).
    static func decodeJSONArray<R>(_ state: JSONDecodingState, value: UInt32, node: UInt32, as: R.Type) throws -> R
}

extension Array: JSONDecodableArray where Element: Decodable {
    static func decodeJSONArray<R>(_ state: JSONDecodingState, value: UInt32, node: UInt32, as: R.Type) throws -> R {
        let array = state.entry(value)
        guard array.kind == .array else {
            throw state.mismatchOrNull([Any].self, array).error(at: state.codingPath(node: node, value: value))
        }
        if array.length == 0 { return unsafeBitCast(Self(), to: R.self) }
        let result = try Self(unsafeUninitializedCapacity: Int(array.length)) { buffer, initialized in
            var element = value + 1
            while element < array.next {
                (buffer.baseAddress! + initialized).initialize(
                    to: try state.unwrap(
                        Element.self, value: element, parent: node, parentValue: value, key: .index(initialized)))
                initialized += 1
                element = state.entry(element).next
            }
        }
        return unsafeBitCast(result, to: R.self)
    }
}

/// `[String: V]` is decoded member by member, in document order, rather than through
/// `allKeys` and a lookup per key. With a key strategy other than the default its keys are
/// taken as written, as Foundation does.
protocol JSONStringKeyedDictionary: SendableMetatype {
    /// Decodes the object at `value`; `R` is `Self`, as for ``JSONDecodableArray``.
    static func decodeJSONObject<R>(_ state: JSONDecodingState, value: UInt32, node: UInt32, as: R.Type) throws -> R
}

extension Dictionary: JSONStringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeJSONObject<R>(_ state: JSONDecodingState, value: UInt32, node: UInt32, as: R.Type) throws -> R {
        unsafeBitCast(try decodeMembers(state, value: value, node: node), to: R.self)
    }

    private static func decodeMembers(_ state: JSONDecodingState, value: UInt32, node: UInt32) throws -> Self {
        let object = state.entry(value)
        guard object.kind == .object else {
            throw state.mismatchOrNull([String: Any].self, object).error(at: state.codingPath(node: node, value: value))
        }
        var result = [String: Value](minimumCapacity: Int(object.length))
        var member = value + 1
        while member < object.next {
            let valueIndex = member + 1
            let next = state.entry(valueIndex).next
            let name = try state.string(member)
            if state.usesDefaultKeys {
                // As `Dictionary.init(from:)` over Foundation's container: the first of duplicate
                // keys wins and the others are never decoded.
                if result[name] == nil {
                    result[name] = try state.unwrap(
                        Value.self, value: valueIndex, parent: node, parentValue: value,
                        key: .key(JSONKey(dictionaryKey: name)))
                }
            } else {
                // As Foundation's own loop: every value is decoded, the first one is kept.
                let decoded = try state.unwrap(
                    Value.self, value: valueIndex, parent: node, parentValue: value,
                    key: .key(JSONKey(stringValue: name)))
                if result[name] == nil { result[name] = decoded }
            }
            member = next
        }
        return result
    }
}
