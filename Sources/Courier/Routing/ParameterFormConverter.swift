/// Turns a ``Parameters`` dictionary into a ``FormNode`` tree with every level's keys sorted.
enum ParameterFormConverter {
    /// Encodes `parameters` as `key=value&...` text under `options`; throws
    /// ``CourierError/parameterEncodingFailed(keyPath:reason:)`` for unsupported values.
    static func encode(_ parameters: Parameters, options: URLEncodingOptions) throws -> String {
        let pairs = try sortedPairs(parameters, parentPath: "")
        return FormSerializer.serialize(pairs, options: options)
    }

    private static func sortedPairs(_ dictionary: [String: Any], parentPath: String) throws -> [(String, FormNode)] {
        try dictionary.keys.sorted().map { key in
            let path = ParameterValue.path(parentPath, key: key)
            return (key, try node(for: dictionary[key] as Any, keyPath: path))
        }
    }

    private static func node(for value: Any, keyPath: String) throws -> FormNode {
        switch try ParameterValue.classify(value, keyPath: keyPath, valueKind: "a URL-encodable value") {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .text(string)
        case .number(let text): return .text(text)
        case .array(let elements):
            return .array(try elements.enumerated().map {
                try node(for: $0.element, keyPath: ParameterValue.path(keyPath, index: $0.offset))
            })
        case .object(let dictionary):
            return .object(try sortedPairs(dictionary, parentPath: keyPath))
        }
    }
}
