import Foundation

/// A coding key for array positions; its text (`Index 2`) is only built when asked for.
struct FormIndexKey: CodingKey {
    let index: Int
    var intValue: Int? { index }
    var stringValue: String { "Index \(index)" }

    init(index: Int) {
        self.index = index
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }
}

/// The `Encoder` behind ``URLFormEncoder``: writes one value into one ``FormNodeBox``.
///
/// Values are written as Alamofire's `URLEncodedFormEncoder` writes them: numbers in Swift's
/// `String(_:)` form (`1.0`, `1e+20`), `nil` (including `nil` optionals that synthesized
/// conformances skip with `encodeIfPresent`) as a null node for the nil encoding, a super
/// encoder writing into the same object.
struct FormValueEncoder: Encoder {
    let box: FormNodeBox
    let codingPath: [any CodingKey]
    let settings: URLFormEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `user.tags[2]`, for errors.
    var keyPathString: String {
        codingPath.reduce("") { path, key in
            if let indexKey = key as? FormIndexKey {
                return ParameterValue.path(path, index: indexKey.index)
            }
            return ParameterValue.path(path, key: key.stringValue)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.becomeObject()
        return KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.becomeArray()
        return FormUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(encoder: self)
    }

    /// An encoder for a child box one level down; a child past the depth limit remembers its
    /// key path so that ``FormNodeBox/node()`` can name it.
    func child(_ box: FormNodeBox, key: any CodingKey) -> FormValueEncoder {
        let child = FormValueEncoder(box: box, codingPath: codingPath + [key], settings: settings)
        if child.codingPath.count > ParameterValue.maximumDepth {
            box.overflowKeyPath = child.keyPathString
        }
        return child
    }

    /// Writes `nil` into ``box``.
    func encodeNull() throws {
        try checkDepth()
        box.set(.null)
    }

    /// Writes `value` into ``box``, handling the types with a form-specific representation.
    func encodeValue<T: Encodable>(_ value: T) throws {
        try checkDepth()
        switch value {
        case let string as String: box.set(.text(string))
        case let bool as Bool: box.set(.bool(bool))
        case let double as Double: box.set(.text(try text(double)))
        case let integer as any BinaryInteger: box.set(.text("\(integer)"))
        case let float as Float: box.set(.text(try text(float)))
        case let decimal as Decimal:
            guard !decimal.isNaN else { throw ParameterValue.nonFinite(keyPath: keyPathString) }
            box.set(.text(decimal.description))
        case let url as URL: box.set(.text(url.absoluteString))
        case let date as Date: try encodeDate(date)
        case let data as Data: try encodeData(data)
        default: try value.encode(to: self)
        }
    }

    private func checkDepth() throws {
        if codingPath.count > ParameterValue.maximumDepth {
            throw ParameterValue.tooDeep(keyPath: keyPathString)
        }
    }

    /// A finite number as `String(value)` writes it: `1.0`, `0.1`, `1e+20`.
    private func text<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws -> String {
        guard value.isFinite else { throw ParameterValue.nonFinite(keyPath: keyPathString) }
        return String(value)
    }

    private func encodeDate(_ date: Date) throws {
        switch settings.dateEncoding {
        case .deferredToDate:
            try date.encode(to: self)
        case .secondsSince1970:
            box.set(.text(try text(date.timeIntervalSince1970)))
        case .millisecondsSince1970:
            box.set(.text(try text(date.timeIntervalSince1970 * 1000)))
        case .iso8601:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            box.set(.text(formatter.string(from: date)))
        case .formatted(let formatter):
            box.set(.text(formatter.string(from: date)))
        case .custom(let transform):
            box.set(.text(try transform(date)))
        }
    }

    private func encodeData(_ data: Data) throws {
        switch settings.dataEncoding {
        case .base64: box.set(.text(data.base64EncodedString()))
        case .deferredToData: try data.encode(to: self)
        case .custom(let transform): box.set(.text(try transform(data)))
        }
    }
}

/// Single-value container writing directly into the encoder's box.
struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        try encoder.encodeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value)
    }
}

/// Unkeyed container appending elements to an array box.
struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.box.elementCount }

    private func nextEncoder() -> FormValueEncoder {
        let key = FormIndexKey(index: count)
        return encoder.child(encoder.box.appendChild(), key: key)
    }

    mutating func encodeNil() throws {
        try nextEncoder().encodeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try nextEncoder().encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nextEncoder()
    }
}
