import Foundation

/// Swift names for the document's names: types in UpperCamelCase, members in lowerCamelCase,
/// reserved words in backticks, anything else made into a valid identifier.
enum Naming {
    /// Swift keywords that need backticks as member names.
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "some", "any", "async", "consume", "copy", "discard", "each",
        "borrowing", "consuming", "package", "Protocol", "Type"
    ]

    /// Type names that would shadow what the generated code uses.
    static let reservedTypes: Set<String> = [
        "Any", "Array", "Bool", "Codable", "CodingKeys", "Data", "Date", "Decimal", "Decodable", "Decoder",
        "Dictionary", "Double", "Empty", "Encodable", "Encoder", "Error", "Float", "HTTPHeaders", "HTTPMethod",
        "Int", "JSONValue", "NetworkResult", "Optional", "Protocol", "RequestParams", "Result", "Router",
        "Self", "Sendable", "Service", "Set", "String", "Type", "URL", "Void",
        // What the generated code names from Courier, Foundation and Dispatch.
        "AuthorizationType", "CaseIterable", "Character", "CodingKey", "CourierJSONDecoder", "DataDecoder",
        "DataRequest", "DecodingError", "DispatchQueue", "EnvelopeFormat", "Equatable", "ISO8601DateFormatter",
        "JSONEncoder", "MultipartFormData", "NoEnvelope", "URLEncodingOptions", "UUID", "Session", "Hashable",
        "Hasher", "RawRepresentable", "TaskLocal", "CharacterSet"
    ]

    /// Members of `Router` and `Service` (and what the generated services declare): an operation
    /// with one of these names gets a suffix, so its case and methods do not collide with them.
    static let reservedOperations: Set<String> = [
        "init", "path", "method", "parameters", "headers", "defaultHeaders", "timeout", "sampleData",
        "sampleStatusCode", "sampleHeaders", "authorization", "baseURL", "asURLRequest", "makeURLRequest",
        "resolvedURL", "request", "requestValue", "session", "decoder", "plugins", "makeRequest", "judgeStatus",
        "standardRequest", "standardJudgeStatus", "envelope", "shared", "serviceRequest", "judge", "judgeReply",
        "decodeBody"
    ]

    /// The words of `name`: split at non-alphanumerics and at lower→upper case changes. Letters
    /// lose their accents first (`Rückgaben` → `Ruckgaben`); other non-ASCII characters split.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name.folding(options: .diacriticInsensitive, locale: nil) {
            guard character.isLetter || character.isNumber, character.isASCII else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, previous.isLowercase || previous.isNumber, character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `UpperCamelCase` type name; `fallback` when nothing usable is left.
    static func typeName(_ name: String, fallback: String = "Value") -> String {
        var result = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if result.isEmpty { result = fallback }
        if result.first!.isNumber { result = "_" + result }
        if reservedTypes.contains(result) { result += "Model" }
        return result
    }

    /// `lowerCamelCase` member name, unescaped; `fallback` when nothing usable is left.
    static func memberName(_ name: String, fallback: String = "value") -> String {
        let parts = words(name)
        guard let first = parts.first else { return fallback }
        // Keep an all-caps first word (`ID`, `URL`) readable: `id`, `url`.
        let head = first == first.uppercased() ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        var result = head + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if result.first!.isNumber { result = "_" + result }
        // These cannot be parameters (`self` would shadow the instance) or members even in backticks.
        if ["self", "super", "init", "deinit", "subscript", "Type", "Protocol"].contains(result) {
            result += "Value"
        }
        return result
    }

    /// `name` as written in declarations and expressions: in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        reserved.contains(name) ? "`\(name)`" : name
    }

    /// `base`, or `base2`, `base3`… the first not in `used`; records the choice.
    static func unique(_ base: String, in used: inout Set<String>) -> String {
        var candidate = base
        var number = 2
        while used.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// ``docLine(_:)`` ending with a full stop.
    static func sentence(_ text: String) -> String {
        let line = docLine(text)
        guard let last = line.last else { return line }
        return ".!?".contains(last) ? line : line + "."
    }

    /// A one-line documentation text: whitespace collapsed, at most 200 characters.
    static func docLine(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return collapsed.count > 200 ? String(collapsed.prefix(197)) + "..." : collapsed
    }
}
