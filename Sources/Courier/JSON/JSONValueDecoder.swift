import Foundation

/// The `Decoder` handed to `init(from:)`: a tape index and a path record. It is its own single
/// value container. Two words plus a reference, so passing it as `any Decoder` allocates nothing.
struct JSONValueDecoder: Decoder, SingleValueDecodingContainer {
    let state: JSONDecodingState
    let value: UInt32
    let node: UInt32

    var codingPath: [any CodingKey] { state.codingPath(node: node, value: value) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try JSONKeyedContainer<Key>(state: state, object: value, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONUnkeyedContainer(state: state, array: value, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { state.entry(value).kind == .null }

    @inline(__always)
    private func read<T: JSONScalar>() throws -> T {
        do {
            return try T.read(state, value)
        } catch {
            throw error.error(at: codingPath)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read() }
    func decode(_ type: String.Type) throws -> String { try read() }
    func decode(_ type: Double.Type) throws -> Double { try read() }
    func decode(_ type: Float.Type) throws -> Float { try read() }
    func decode(_ type: Int.Type) throws -> Int { try read() }
    func decode(_ type: Int8.Type) throws -> Int8 { try read() }
    func decode(_ type: Int16.Type) throws -> Int16 { try read() }
    func decode(_ type: Int32.Type) throws -> Int32 { try read() }
    func decode(_ type: Int64.Type) throws -> Int64 { try read() }
    func decode(_ type: Int128.Type) throws -> Int128 { try read() }
    func decode(_ type: UInt.Type) throws -> UInt { try read() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try read() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.unwrap(T.self, value: value, parent: node, parentValue: value, key: nil)
    }
}
