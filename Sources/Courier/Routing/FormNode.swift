/// The intermediate tree that both dictionary parameters and `Encodable` values are
/// turned into before being written as `key=value` pairs.
indirect enum FormNode {
    /// A value already rendered as text (numbers, strings, dates...).
    case text(String)
    /// A boolean, rendered according to ``URLEncodingOptions/BoolEncoding``.
    case bool(Bool)
    /// `nil` or `NSNull`, rendered according to ``URLEncodingOptions/NilEncoding``.
    case null
    /// An ordered list of elements.
    case array([FormNode])
    /// Key/value pairs, kept in the order given (callers sort them).
    case object([(String, FormNode)])
}

/// Writes a top-level ``FormNode`` object as `application/x-www-form-urlencoded` text.
enum FormSerializer {
    /// Serializes the pairs of a top-level object; keys must already be in the wanted order.
    static func serialize(_ pairs: [(String, FormNode)], options: URLEncodingOptions) -> String {
        var components: [(String, String)] = []
        for (key, node) in pairs {
            append(key: key, node: node, options: options, into: &components)
        }
        return components
            .map { "\(PercentEscaping.escapeQuery($0.0, options: options))=\(PercentEscaping.escapeQuery($0.1, options: options))" }
            .joined(separator: "&")
    }

    private static func append(
        key: String, node: FormNode, options: URLEncodingOptions, into components: inout [(String, String)]
    ) {
        switch node {
        case .text(let text):
            components.append((key, text))
        case .bool(let value):
            switch options.boolEncoding {
            case .numeric: components.append((key, value ? "1" : "0"))
            case .literal: components.append((key, value ? "true" : "false"))
            }
        case .null:
            if options.nilEncoding == .emptyValue {
                components.append((key, ""))
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let elementKey: String
                switch options.arrayEncoding {
                case .brackets: elementKey = "\(key)[]"
                case .noBrackets: elementKey = key
                case .indexInBrackets: elementKey = "\(key)[\(index)]"
                }
                append(key: elementKey, node: element, options: options, into: &components)
            }
        case .object(let pairs):
            for (nestedKey, nested) in pairs {
                append(key: "\(key)[\(nestedKey)]", node: nested, options: options, into: &components)
            }
        }
    }
}
