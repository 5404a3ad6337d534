import Foundation

/// A keyed container over one object of the tape. Errors carry the paths and kinds
/// Foundation's `JSONDecoder` reports. One reference and two indices: the standard library's
/// box copies it for every call, so it is kept that small.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: JSONDecodingState
    let object: UInt32
    let node: UInt32

    init(state: JSONDecodingState, object: UInt32, node: UInt32) throws {
        let entry = state.entry(object)
        guard entry.kind == .object else {
            throw state.mismatchOrNull([String: Any].self, entry).error(at: state.codingPath(node: node, value: object))
        }
        self.state = state
        self.object = object
        self.node = node
        if entry.has(JSONEntry.Flags.complexKeys) || !state.usesDefaultKeys {
            try state.prepareKeys(of: object, node: node)
        }
    }

    var codingPath: [any CodingKey] { state.codingPath(node: node, value: object) }

    var allKeys: [Key] { state.keyNames(in: object).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    @inline(__always)
    private func find(_ key: Key) -> UInt32? {
        state.member(named: key.stringValue, in: object)
    }

    private func keyNotFound(_ key: Key) -> DecodingError {
        .keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key '\(key.stringValue)'."))
    }

    private func path(_ key: Key) -> [any CodingKey] {
        state.codingPath(node: node, value: object, appending: .key(key))
    }

    @inline(__always)
    private func read<T: JSONScalar>(_ key: Key) throws -> T {
        guard let value = find(key) else { throw keyNotFound(key) }
        do {
            return try T.read(state, value)
        } catch {
            throw error.error(at: path(key))
        }
    }

    @inline(__always)
    private func readIfPresent<T: JSONScalar>(_ key: Key) throws -> T? {
        guard let value = find(key), state.entry(value).kind != .null else { return nil }
        do {
            return try T.read(state, value)
        } catch {
            throw error.error(at: path(key))
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = find(key) else { throw keyNotFound(key) }
        return state.entry(value).kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try read(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try read(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = find(key) else { throw keyNotFound(key) }
        return try state.unwrap(T.self, value: value, parent: node, parentValue: object, key: .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try readIfPresent(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = find(key), state.entry(value).kind != .null else { return nil }
        return try state.unwrap(T.self, value: value, parent: node, parentValue: object, key: .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard let value = find(key) else { throw keyNotFound(key) }
        let child = try state.pushPath(parent: node, parentValue: object, value: value, key: .key(key))
        return KeyedDecodingContainer(try JSONKeyedContainer<NestedKey>(state: state, object: value, node: child))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let value = find(key) else { throw keyNotFound(key) }
        let child = try state.pushPath(parent: node, parentValue: object, value: value, key: .key(key))
        return try JSONUnkeyedContainer(state: state, array: value, node: child)
    }

    func superDecoder() throws -> any Decoder { try decoder(for: JSONKey.superKey) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }

    /// A decoder for the member `key`, or for null when there is none (as in Foundation).
    private func decoder(for key: some CodingKey) throws -> JSONValueDecoder {
        let value = state.member(named: key.stringValue, in: object) ?? state.syntheticNull
        let child = try state.pushPath(parent: node, parentValue: object, value: value, key: .key(key))
        return JSONValueDecoder(state: state, value: value, node: child)
    }
}
