// libFuzzer target: CourierJSONDecoder against Foundation's JSONDecoder. Whatever the input and
// the strategies (chosen by the first byte), both must end the same way: equal values, or errors
// of the same kind at the same coding path. A difference traps, and libFuzzer keeps the input.
import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let (courier, foundation) = decoders(for: data[0])
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    compare(FuzzValue.self, body, courier, foundation)
    compare(Structure.self, body, courier, foundation)
    compare(Record.self, body, courier, foundation)
    compare([Record].self, body, courier, foundation)
    compare(Probe.self, body, courier, foundation)
    compareFreeForm(body, courier, foundation)
    return 0
}

/// `JSONValue`, which Courier reads straight from its tape and `JSONDecoder` through
/// `init(from:)`: the same value, or both fail. Only the outcome is compared, not the error: the
/// generic path reports the last kind it tried.
private func compareFreeForm(_ body: Data, _ courier: CourierJSONDecoder, _ foundation: JSONDecoder) {
    let expected = (try? foundation.decode(JSONValue.self, from: body)).map(fingerprint)
    let actual = (try? courier.decode(JSONValue.self, from: body)).map(fingerprint)
    if expected != actual {
        fatalError(
            "CourierJSONDecoder differs from JSONDecoder for JSONValue:\n  JSONDecoder: \(expected ?? "error")\n  Courier:     \(actual ?? "error")\n  input: \(String(decoding: body, as: UTF8.self).debugDescription)"
        )
    }
}

/// An exact, order-independent text for a `JSONValue`: numbers by case and bit pattern.
private func fingerprint(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return "\(bool)"
    case .integer(let integer): return "i\(integer)"
    case .number(let number): return "d\(number.bitPattern)"
    case .string(let string): return string.debugDescription
    case .array(let elements): return "[" + elements.map(fingerprint).joined(separator: ",") + "]"
    case .object(let members):
        return "{"
            + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(fingerprint($0.value))" }
            .joined(separator: ",") + "}"
    }
}

/// Both decoders with the same strategies, picked by the bits of `selector`.
private func decoders(for selector: UInt8) -> (CourierJSONDecoder, JSONDecoder) {
    var courier = CourierJSONDecoder()
    let foundation = JSONDecoder()
    func set<T>(
        _ path: WritableKeyPath<CourierJSONDecoder, T>, _ foundationPath: ReferenceWritableKeyPath<JSONDecoder, T>,
        _ value: T
    ) {
        courier[keyPath: path] = value
        foundation[keyPath: foundationPath] = value
    }
    if selector & 1 != 0 { set(\.keyDecodingStrategy, \.keyDecodingStrategy, .convertFromSnakeCase) }
    switch (selector >> 1) & 3 {
    case 1: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .secondsSince1970)
    case 2: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .iso8601)
    case 3: set(\.dateDecodingStrategy, \.dateDecodingStrategy, .millisecondsSince1970)
    default: break
    }
    if selector & 8 != 0 { set(\.dataDecodingStrategy, \.dataDecodingStrategy, .deferredToData) }
    if selector & 16 != 0 {
        set(
            \.nonConformingFloatDecodingStrategy, \.nonConformingFloatDecodingStrategy,
            .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
    }
    return (courier, foundation)
}

private func compare<T: Decodable & Fingerprinted>(
    _ type: T.Type, _ body: Data, _ courier: CourierJSONDecoder,
    _ foundation: JSONDecoder
) {
    let expected = outcome { try foundation.decode(T.self, from: body) }
    let actual = outcome { try courier.decode(T.self, from: body) }
    if expected != actual {
        fatalError(
            "CourierJSONDecoder differs from JSONDecoder for \(T.self):\n  JSONDecoder: \(expected)\n  Courier:     \(actual)\n  input: \(String(decoding: body, as: UTF8.self).debugDescription)"
        )
    }
}

private func outcome<T: Fingerprinted>(_ body: () throws -> T) -> String {
    do {
        return "value " + (try body()).fingerprint
    } catch {
        return "error " + describe(error)
    }
}

private func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "not a DecodingError" }
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }.joined(separator: ",")
    }
    switch error {
    case .typeMismatch(let type, let context): return "typeMismatch \(type) [\(path(context.codingPath))]"
    case .valueNotFound(let type, let context): return "valueNotFound \(type) [\(path(context.codingPath))]"
    case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) [\(path(context.codingPath))]"
    case .dataCorrupted(let context): return "dataCorrupted [\(path(context.codingPath))]"
    @unknown default: return "unknown"
    }
}

/// An exact, order-independent text for a decoded value.
private protocol Fingerprinted {
    var fingerprint: String { get }
}

extension Array: Fingerprinted where Element: Fingerprinted {
    fileprivate var fingerprint: String { "[" + map(\.fingerprint).joined(separator: ",") + "]" }
}

private func exact(_ value: Any?) -> String {
    switch value {
    case nil: return "nil"
    case let double as Double: return "d\(double.bitPattern)"
    case let float as Float: return "f\(float.bitPattern)"
    case let date as Date: return "t\(date.timeIntervalSinceReferenceDate.bitPattern)"
    case let dictionary as [String: Lenient]: return dictionary.sorted { $0.key < $1.key }.description
    case let some?: return String(reflecting: some)
    }
}

/// Any JSON value, trying each kind in turn. It never throws (an unreadable value is a case of
/// its own), so a `[String: FuzzValue]` fails the same way whatever order the members are
/// decoded in (Foundation decodes dictionaries in hash order).
private indirect enum FuzzValue: Decodable, Fingerprinted {
    case null, bool(Bool), integer(Int64), double(Double), string(String), array([FuzzValue]), object(
        [String: FuzzValue])
    case unreadable

    init(from decoder: any Decoder) {
        guard let container = try? decoder.singleValueContainer() else {
            self = .unreadable
            return
        }
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([FuzzValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: FuzzValue].self) {
            self = .object(value)
        } else {
            self = .unreadable
        }
    }

    var fingerprint: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .integer(let value): return "i\(value)"
        case .double(let value): return exact(value)
        case .string(let value): return value.debugDescription
        case .array(let values): return values.fingerprint
        case .object(let members):
            return "{"
                + members.map { "\($0.key.debugDescription):\($0.value.fingerprint)" }.sorted().joined(separator: ",")
                + "}"
        case .unreadable: return "unreadable"
        }
    }
}

/// Only the structure is checked.
private struct Structure: Decodable, Fingerprinted {
    init(from decoder: any Decoder) throws {}
    var fingerprint: String { "structure" }
}

/// An `Int` that never fails: `[String: Lenient]` then fails the same way whatever order its
/// members are decoded in (Foundation decodes a dictionary in hash order, so with two bad
/// members it may report either).
private struct Lenient: Decodable, CustomStringConvertible {
    let value: Int?
    init(from decoder: any Decoder) {
        value = try? decoder.singleValueContainer().decode(Int.self)
    }
    var description: String { value.map(String.init) ?? "nil" }
}

/// A typical model: optional fields of every special type, nested records.
private struct Record: Decodable, Fingerprinted {
    let id: Int?
    let userName: String?
    let score: Double?
    let ratio: Float?
    let small: Int8?
    let big: UInt64?
    let flags: [Bool]?
    let createdAt: Date?
    let blob: Data?
    let link: URL?
    let amount: Decimal?
    let tags: [String: Lenient]?
    let children: [Record]?

    var fingerprint: String {
        let fields: [Any?] = [id, userName, score, ratio, small, big, flags, createdAt, blob, link, amount, tags]
        return "(" + fields.map(exact).joined(separator: ",") + "," + (children?.fingerprint ?? "nil") + ")"
    }
}

/// Records what the container calls return or throw, so both decoders' containers are compared
/// call by call (keys sorted, nested containers, decodeIfPresent, super decoders, running off
/// the end of an unkeyed container).
private struct Probe: Decodable, Fingerprinted {
    var log: [String] = []
    var fingerprint: String { log.joined(separator: "; ") }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        func record(_ label: String, _ body: () throws -> Any?) {
            do {
                log.append(label + "=" + exact(try body()))
            } catch {
                log.append(label + "!" + describe(error))
            }
        }
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            let keys = keyed.allKeys.map(\.stringValue).sorted()
            log.append("keys \(keys)")
            for name in keys.prefix(4) + ["missing", "super"] {
                let key = Key(stringValue: name)
                record("nil \(name)") { try keyed.decodeNil(forKey: key) }
                record("int \(name)") { try keyed.decode(Int.self, forKey: key) }
                record("string? \(name)") { try keyed.decodeIfPresent(String.self, forKey: key) }
                record("double \(name)") { try keyed.decode(Double.self, forKey: key) }
                record("[int] \(name)") { try keyed.decode([Int].self, forKey: key) }
                record("nested \(name)") { try keyed.nestedContainer(keyedBy: Key.self, forKey: key).allKeys.count }
                record("super \(name)") { try keyed.superDecoder(forKey: key).codingPath.count }
            }
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            log.append("count \(unkeyed.count ?? -1)")
            for step in 0..<6 {
                switch step % 3 {
                case 0: record("int@\(unkeyed.currentIndex)") { try unkeyed.decode(Int.self) }
                case 1: record("string?@\(unkeyed.currentIndex)") { try unkeyed.decodeIfPresent(String.self) }
                default: record("nil@\(unkeyed.currentIndex)") { try unkeyed.decodeNil() }
                }
            }
            record("end \(unkeyed.isAtEnd)") { try unkeyed.superDecoder().codingPath.count }
        } else {
            let single = try decoder.singleValueContainer()
            record("bool") { try single.decode(Bool.self) }
            record("uint8") { try single.decode(UInt8.self) }
            record("float") { try single.decode(Float.self) }
            record("string") { try single.decode(String.self) }
        }
    }
}
