// libFuzzer target: Parameters → JSON (JSONParameterSerializer, behind `.body` parameters).
// Checks that only typed errors come out, that the output is valid JSON for Foundation's
// decoder, and that it decodes back to the same tree (strings byte for byte, so every escape
// is right).
@testable import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParameters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var options: JSONEncoder.OutputFormatting = []
    if input.bool() { options.insert(.sortedKeys) }
    if input.bool() { options.insert(.prettyPrinted) }
    if input.bool() { options.insert(.withoutEscapingSlashes) }
    let parameters = input.parameters(depth: 4)
    guard
        let json = typedResult(
            { try JSONParameterSerializer.serialize(parameters, options: options) },
            expected: { if $0 == .parameterEncodingFailed { true } else { false } })
    else { return 0 }
    let text = String(decoding: json, as: UTF8.self)
    let decoded: ParameterJSON
    do {
        decoded = try JSONDecoder().decode(ParameterJSON.self, from: json)
    } catch {
        fatalError("invalid JSON \(text): \(error)")
    }
    if let expected = ParameterJSON(parameters: parameters) {
        require(decoded == expected, "\(text) decodes to \(decoded), expected \(expected)")
    }
    return 0
}

/// A JSON document as Foundation's decoder reads it.
indirect enum ParameterJSON: Decodable, Equatable {
    case null, bool(Bool), int(Int64), double(Double), string(String), array([ParameterJSON]), object(
        [String: ParameterJSON])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: ParameterJSON] = [:]
            for key in container.allKeys {
                object[key.stringValue] = try container.decode(ParameterJSON.self, forKey: key)
            }
            self = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var array: [ParameterJSON] = []
            while !container.isAtEnd { array.append(try container.decode(ParameterJSON.self)) }
            self = .array(array)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let int = try? single.decode(Int64.self) {
                self = .int(int)
            } else if let double = try? single.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    /// The expected document for generated parameters; nil when they hold floating-point
    /// values or values no encoder accepts.
    init?(parameters value: Any) {
        if Mirror(reflecting: value).displayStyle == .optional || value is NSNull { self = .null; return }
        switch value {
        case let string as String: self = .string(string)
        case let int as Int: self = .int(Int64(int))
        case let byte as UInt8: self = .int(Int64(byte))
        case let bool as Bool: self = .bool(bool)
        case let array as [any Sendable]:
            var elements: [ParameterJSON] = []
            for element in array {
                guard let converted = ParameterJSON(parameters: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let object as [String: any Sendable]:
            var members: [String: ParameterJSON] = [:]
            for (key, member) in object {
                guard let converted = ParameterJSON(parameters: member) else { return nil }
                members[key] = converted
            }
            self = .object(members)
        default:
            return nil
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
