import Foundation

/// An unkeyed container over one array of the tape: a cursor on the next element. Three
/// words, so returning it as `any UnkeyedDecodingContainer` allocates nothing.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    let state: JSONDecodingState
    let array: UInt32
    let node: UInt32
    /// The tape index of the next element.
    private var cursor: UInt32
    private var index: UInt32 = 0

    init(state: JSONDecodingState, array: UInt32, node: UInt32) throws {
        let entry = state.entry(array)
        guard entry.kind == .array else {
            throw state.mismatchOrNull([Any].self, entry).error(at: state.codingPath(node: node, value: array))
        }
        self.state = state
        self.array = array
        self.node = node
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { state.codingPath(node: node, value: array) }
    var count: Int? { Int(state.entry(array).length) }
    var isAtEnd: Bool { index >= state.entry(array).length }
    var currentIndex: Int { Int(index) }

    /// The next element, or a `valueNotFound` error for `type` when there is none.
    @inline(__always)
    private func next(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> UInt32 {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [JSONKey(index: currentIndex)], debugDescription: message))
        }
        return cursor
    }

    @inline(__always)
    private mutating func advance() {
        if cursor < state.entry(array).next { cursor = state.entry(cursor).next }
        index += 1
    }

    @inline(__always)
    private mutating func read<T: JSONScalar>() throws -> T {
        let value = try next(T.self)
        do {
            let result = try T.read(state, value)
            advance()
            return result
        } catch {
            throw error.error(at: codingPath + [JSONKey(index: currentIndex)])
        }
    }

    /// As Foundation: nil at the end or for null, and the index moves on either way.
    @inline(__always)
    private mutating func readIfPresent<T: JSONScalar>() throws -> T? {
        guard !isAtEnd, state.entry(cursor).kind != .null else {
            advance()
            return nil
        }
        do {
            let result = try T.read(state, cursor)
            advance()
            return result
        } catch {
            throw error.error(at: codingPath + [JSONKey(index: currentIndex)])
        }
    }

    mutating func decodeNil() throws -> Bool {
        let value = try next(Never.self)
        guard state.entry(value).kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read() }
    mutating func decode(_ type: String.Type) throws -> String { try read() }
    mutating func decode(_ type: Double.Type) throws -> Double { try read() }
    mutating func decode(_ type: Float.Type) throws -> Float { try read() }
    mutating func decode(_ type: Int.Type) throws -> Int { try read() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read() }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try read() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try read() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next(T.self)
        let result = try state.unwrap(T.self, value: value, parent: node, parentValue: array, key: .index(currentIndex))
        advance()
        return result
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try readIfPresent() }
    mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? { try readIfPresent() }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard !isAtEnd, state.entry(cursor).kind != .null else {
            advance()
            return nil
        }
        let result = try state.unwrap(
            T.self, value: cursor, parent: node, parentValue: array, key: .index(currentIndex))
        advance()
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let value = try next(KeyedDecodingContainer<NestedKey>.self)
        let child = try state.pushPath(parent: node, parentValue: array, value: value, key: .index(currentIndex))
        let container = try JSONKeyedContainer<NestedKey>(state: state, object: value, node: child)
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try next((any UnkeyedDecodingContainer).self)
        let child = try state.pushPath(parent: node, parentValue: array, value: value, key: .index(currentIndex))
        let container = try JSONUnkeyedContainer(state: state, array: value, node: child)
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let child = try state.pushPath(parent: node, parentValue: array, value: value, key: .index(currentIndex))
        advance()
        return JSONValueDecoder(state: state, value: value, node: child)
    }
}
