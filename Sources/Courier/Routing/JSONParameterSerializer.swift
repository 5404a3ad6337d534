import Foundation

/// Courier's own JSON writer for ``Parameters`` trees.
///
/// Unlike `JSONSerialization` it never traps: every value is checked and anything that is
/// not JSON throws ``CourierError/parameterEncodingFailed`` naming the key
/// path, for example `user.birthday` with reason `Date is not a JSON value`; so does a tree
/// nested deeper than ``ParameterValue/maximumDepth`` (its depth is checked before recursing).
/// It reads two of `JSONEncoder.OutputFormatting`'s options, `.sortedKeys` and `.prettyPrinted`;
/// it never escapes `/`, so `.withoutEscapingSlashes` changes nothing.
enum JSONParameterSerializer {
    /// Serializes `parameters` as a JSON object in UTF-8.
    static func serialize(
        _ parameters: Parameters, options: JSONEncoder.OutputFormatting = [.sortedKeys]
    ) throws -> Data {
        var writer = Writer(options: options)
        try writer.writeObject(parameters, keyPath: "", depth: 0)
        return Data(writer.bytes)
    }

    private struct Writer {
        let options: JSONEncoder.OutputFormatting
        var bytes: [UInt8] = []

        init(options: JSONEncoder.OutputFormatting) {
            self.options = options
        }

        /// Writes `value`, found at `keyPath` which has `depth` components.
        mutating func write(_ value: Any, keyPath: String, depth: Int) throws {
            switch try ParameterValue.classify(value, keyPath: keyPath, depth: depth, valueKind: "a JSON value") {
            case .null: append("null")
            case .bool(let bool): append(bool ? "true" : "false")
            case .number(let text): append(text)
            case .string(let string): writeString(string)
            case .array(let elements): try writeArray(elements, keyPath: keyPath, depth: depth)
            case .object(let dictionary): try writeObject(dictionary, keyPath: keyPath, depth: depth)
            }
        }

        mutating func writeObject(_ dictionary: [String: Any], keyPath: String, depth: Int) throws {
            let members = options.contains(.sortedKeys) ? dictionary.sorted { $0.key < $1.key } : Array(dictionary)
            guard !members.isEmpty else { return append("{}") }
            append("{")
            for (offset, member) in members.enumerated() {
                if offset > 0 { append(",") }
                newline(depth: depth + 1)
                writeString(member.key)
                append(options.contains(.prettyPrinted) ? ": " : ":")
                try write(member.value, keyPath: ParameterValue.path(keyPath, key: member.key), depth: depth + 1)
            }
            newline(depth: depth)
            append("}")
        }

        mutating func writeArray(_ elements: [Any], keyPath: String, depth: Int) throws {
            guard !elements.isEmpty else { return append("[]") }
            append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { append(",") }
                newline(depth: depth + 1)
                try write(element, keyPath: ParameterValue.path(keyPath, index: index), depth: depth + 1)
            }
            newline(depth: depth)
            append("]")
        }

        mutating func writeString(_ string: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case 0x00..<0x20: append(String(format: "\\u%04x", Int(byte)))
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }

        mutating func newline(depth: Int) {
            guard options.contains(.prettyPrinted) else { return }
            append("\n")
            append(String(repeating: "  ", count: depth))
        }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }
    }
}
