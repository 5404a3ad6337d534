import Foundation

/// A parsed OpenAPI document (or any part of it): the one tree both the JSON and the YAML readers
/// produce. Objects keep their keys in the document's order; the generator sorts what it emits.
indirect enum DocumentValue: Sendable, Equatable {
    /// `null`, `~` or an empty YAML scalar.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// A sequence.
    case array([DocumentValue])
    /// A mapping, in document order.
    case object([(key: String, value: DocumentValue)])

    /// Equality of the trees (objects compare their members in order).
    static func == (lhs: DocumentValue, rhs: DocumentValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object; `nil` for other values or a missing key.
    subscript(key: String) -> DocumentValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value the tokens of a JSON pointer lead to, each a member's name or an array's index;
    /// nil when one of them leads nowhere.
    func value(at tokens: [String]) -> DocumentValue? {
        var value = self
        for token in tokens {
            if let next = value[token] {
                value = next
            } else if let index = Int(token), value.elements.indices.contains(index) {
                value = value.elements[index]
            } else {
                return nil
            }
        }
        return value
    }

    /// The members of an object (empty for other values).
    var members: [(key: String, value: DocumentValue)] {
        if case .object(let members) = self { return members }
        return []
    }

    /// The elements of an array (empty for other values).
    var elements: [DocumentValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is one.
    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// Whether this is an object.
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// Compact JSON with sorted keys: the deterministic form used for sample data.
    func jsonText() -> String {
        var out = ""
        writeJSON(into: &out)
        return out
    }

    private func writeJSON(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .integer(let value): out += String(value)
        case .number(let value):
            if value.isFinite {
                out += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            } else {
                out += "null"
            }
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.writeJSON(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            var seen = Set<String>()
            var first = true
            for member in members.sorted(by: { $0.key < $1.key }) where seen.insert(member.key).inserted {
                if !first { out += "," }
                first = false
                Self.writeString(member.key, into: &out)
                out += ":"
                member.value.writeJSON(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// JSON pointers (RFC 6901) as the generator's error messages spell them: `#/paths/~1pets/get`.
enum JSONPointer {
    /// `pointer` extended by one reference token, escaping `~` and `/`.
    static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The tokens of a local pointer (`#/components/schemas/Pet`), unescaped; `nil` if not local.
    static func tokens(_ reference: String) -> [String]? {
        guard reference == "#" || reference.hasPrefix("#/") else { return nil }
        return reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
            let token = String($0).removingPercentEncoding ?? String($0)
            return token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }.filter { !$0.isEmpty || reference != "#" }
    }
}

extension DocumentValue {
    /// This object with `value` added as the member `name` of the object the `path` of members
    /// leads to (made when missing), after that object's other members.
    func adding(_ name: String, _ value: DocumentValue, under path: [String]) -> DocumentValue {
        guard let first = path.first else { return replacing(name, with: value) }
        let inner = self[first] ?? .object([])
        return replacing(first, with: inner.adding(name, value, under: Array(path.dropFirst())))
    }

    /// This object with the member `key` set to `value` (added at the end when missing).
    func replacing(_ key: String, with value: DocumentValue) -> DocumentValue {
        var members = self.members
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }
}
