/// Turns a ``Parameters`` dictionary into a ``FormNode`` tree with every level's keys sorted,
/// and writes it with Alamofire's `URLEncoding` rules.
enum ParameterFormConverter {
    /// Encodes `parameters` as `key=value&...` text under `options`; throws
    /// ``CourierError/parameterEncodingFailed`` for unsupported values and
    /// for trees nested deeper than ``ParameterValue/maximumDepth``.
    static func encode(_ parameters: Parameters, options: URLEncodingOptions) throws -> String {
        let pairs = try sortedPairs(parameters, parentPath: "", depth: 0)
        return FormSerializer(options: options, encodableRules: nil).serialize(pairs)
    }

    /// The members of the object at `parentPath` (`depth` components), sorted by key.
    private static func sortedPairs(
        _ dictionary: [String: Any], parentPath: String, depth: Int
    ) throws -> [(String, FormNode)] {
        try dictionary.sorted { $0.key < $1.key }.map { key, value in
            (key, try node(for: value, keyPath: ParameterValue.path(parentPath, key: key), depth: depth + 1))
        }
    }

    private static func node(for value: Any, keyPath: String, depth: Int) throws -> FormNode {
        switch try ParameterValue.classify(value, keyPath: keyPath, depth: depth, valueKind: "a URL-encodable value") {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .string(let string): return .text(string)
        case .number(let text): return .text(text)
        case .array(let elements):
            return .array(
                try elements.enumerated().map {
                    try node(for: $0.element, keyPath: ParameterValue.path(keyPath, index: $0.offset), depth: depth + 1)
                })
        case .object(let dictionary):
            return .object(try sortedPairs(dictionary, parentPath: keyPath, depth: depth))
        }
    }
}
