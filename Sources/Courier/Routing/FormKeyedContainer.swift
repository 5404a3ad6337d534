/// Keyed container writing members into an object box.
///
/// Every `encodeIfPresent` overload is implemented so that a `nil` optional property reaches
/// the nil encoding (`key=`, `key=null` or nothing) instead of being skipped, as Alamofire's
/// encoder does; the standard library's defaults would skip it.
struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func childEncoder(for key: Key) -> FormValueEncoder {
        encoder.child(encoder.box.child(forKey: key.stringValue), key: key)
    }

    private func encodePresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        let child = childEncoder(for: key)
        if let value {
            try child.encodeValue(value)
        } else {
            try child.encodeNull()
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        try childEncoder(for: key).encodeNull()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try childEncoder(for: key).encodeValue(value)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodePresent(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodePresent(value, forKey: key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws { try encodePresent(value, forKey: key) }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws { try encodePresent(value, forKey: key) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodePresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        childEncoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        childEncoder(for: key).unkeyedContainer()
    }

    /// The same object: a superclass's properties sit next to the subclass's, as Alamofire writes them.
    mutating func superEncoder() -> any Encoder {
        encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        childEncoder(for: key)
    }
}
