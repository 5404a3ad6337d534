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
    private func read<T>(_ reader: (UInt32) throws(JSONReadFailure) -> T) throws -> T {
        do {
            return try reader(value)
        } catch {
            throw error.error(at: codingPath)
        }
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try read { index throws(JSONReadFailure) in try state.readInteger(index, as: T.self) }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read(state.readBool) }
    func decode(_ type: String.Type) throws -> String { try read(state.readString) }
    func decode(_ type: Double.Type) throws -> Double { try read(state.readDouble) }
    func decode(_ type: Float.Type) throws -> Float { try read(state.readFloat) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    func decode(_ type: Int128.Type) throws -> Int128 { try integer(Int128.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(UInt128.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.unwrap(T.self, value: value, parent: node, parentValue: value, key: nil)
    }
}
