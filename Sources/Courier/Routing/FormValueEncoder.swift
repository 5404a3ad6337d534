import Foundation

/// A mutable node that form encoding containers write into.
final class FormNodeBox {
    enum Content {
        case unset
        case value(FormNode)
        case array([FormNodeBox])
        case object([(String, FormNodeBox)])
    }

    var content: Content = .unset

    /// The finished tree; an untouched box is an empty object.
    func node(sortingKeys: Bool) -> FormNode {
        switch content {
        case .unset: return .object([])
        case .value(let node): return node
        case .array(let boxes): return .array(boxes.map { $0.node(sortingKeys: sortingKeys) })
        case .object(let pairs):
            let ordered = sortingKeys ? pairs.sorted { $0.0 < $1.0 } : pairs
            return .object(ordered.map { ($0.0, $0.1.node(sortingKeys: sortingKeys)) })
        }
    }

    /// The child box for `key`, created (or reset) in this object box.
    func child(forKey key: String) -> FormNodeBox {
        var pairs: [(String, FormNodeBox)] = []
        if case .object(let existing) = content { pairs = existing }
        let box = FormNodeBox()
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = box
        } else {
            pairs.append((key, box))
        }
        content = .object(pairs)
        return box
    }

    /// A new child box appended to this array box.
    func appendChild() -> FormNodeBox {
        var boxes: [FormNodeBox] = []
        if case .array(let existing) = content { boxes = existing }
        let box = FormNodeBox()
        boxes.append(box)
        content = .array(boxes)
        return box
    }

    /// Makes this box an object, keeping existing members.
    func becomeObject() {
        if case .object = content { return }
        content = .object([])
    }

    /// Makes this box an array, keeping existing elements.
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }
}

/// A coding key for array positions and `super`.
struct FormIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    static let superKey = FormIndexKey(stringValue: "super") ?? FormIndexKey(index: 0)
}

/// The `Encoder` behind ``URLFormEncoder``: writes one value into one ``FormNodeBox``.
struct FormValueEncoder: Encoder {
    let box: FormNodeBox
    let codingPath: [any CodingKey]
    let settings: URLFormEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `user.tags[2]`, for errors.
    var keyPathString: String {
        codingPath.reduce("") { path, key in
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                return ParameterValue.path(path, index: index)
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

    /// An encoder for a child box one level down.
    func child(_ box: FormNodeBox, key: any CodingKey) -> FormValueEncoder {
        FormValueEncoder(box: box, codingPath: codingPath + [key], settings: settings)
    }

    /// Writes `value` into ``box``, handling the types with a form-specific representation.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let string as String: box.content = .value(.text(string))
        case let bool as Bool: box.content = .value(.bool(bool))
        case let double as Double: box.content = .value(.text(try ParameterValue.format(double, keyPath: keyPathString)))
        case let float as Float: box.content = .value(.text(try ParameterValue.format(float, keyPath: keyPathString)))
        case let integer as any BinaryInteger: box.content = .value(.text("\(integer)"))
        case let decimal as Decimal:
            guard !decimal.isNaN else { throw ParameterValue.nonFinite(keyPath: keyPathString) }
            box.content = .value(.text(decimal.description))
        case let url as URL: box.content = .value(.text(url.absoluteString))
        case let date as Date: try encodeDate(date)
        case let data as Data: try encodeData(data)
        default: try value.encode(to: self)
        }
    }

    private func encodeDate(_ date: Date) throws {
        switch settings.dateEncoding {
        case .deferredToDate:
            try date.encode(to: self)
        case .secondsSince1970:
            box.content = .value(.text(try ParameterValue.format(date.timeIntervalSince1970, keyPath: keyPathString)))
        case .millisecondsSince1970:
            let millis = (date.timeIntervalSince1970 * 1000).rounded()
            box.content = .value(.text(try ParameterValue.format(millis, keyPath: keyPathString)))
        case .iso8601:
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            box.content = .value(.text(formatter.string(from: date)))
        case .formatted(let formatter):
            box.content = .value(.text(formatter.string(from: date)))
        case .custom(let transform):
            box.content = .value(.text(try transform(date)))
        }
    }

    private func encodeData(_ data: Data) throws {
        switch settings.dataEncoding {
        case .base64: box.content = .value(.text(data.base64EncodedString()))
        case .deferredToData: try data.encode(to: self)
        case .custom(let transform): box.content = .value(.text(try transform(data)))
        }
    }
}

/// Keyed container writing members into an object box.
struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func childEncoder(for key: Key) -> FormValueEncoder {
        encoder.child(encoder.box.child(forKey: encoder.settings.encodedKey(key.stringValue)), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws {
        childEncoder(for: key).box.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try childEncoder(for: key).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        childEncoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        childEncoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.child(encoder.box.child(forKey: "super"), key: FormIndexKey.superKey)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        childEncoder(for: key)
    }
}

/// Unkeyed container appending elements to an array box.
struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        if case .array(let boxes) = encoder.box.content { return boxes.count }
        return 0
    }

    private func nextEncoder() -> FormValueEncoder {
        let key = FormIndexKey(index: count)
        return encoder.child(encoder.box.appendChild(), key: key)
    }

    mutating func encodeNil() throws {
        nextEncoder().box.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try nextEncoder().encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nextEncoder()
    }
}

/// Single-value container writing directly into the encoder's box.
struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {
        encoder.box.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value)
    }
}
