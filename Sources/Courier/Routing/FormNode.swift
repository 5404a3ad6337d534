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
    /// Key/value pairs, in the order the serializer should start from.
    case object([(String, FormNode)])
}

/// Writes a top-level ``FormNode`` object as `application/x-www-form-urlencoded` text.
///
/// Two rule sets exist because Alamofire has two: dictionaries follow `URLEncoding` (members
/// kept in the order given, which the caller sorted by raw key; array indexes count every
/// element), `Encodable` values follow `URLEncodedFormEncoder` (each object's written
/// `key=value` segments sorted as text, the key encoding applied to each whole key path,
/// indexes counting only elements that wrote something). Arrays keep their order in both.
struct FormSerializer {
    /// The rules of Alamofire's `URLEncodedFormEncoder`.
    struct EncodableRules {
        /// Applied to the whole key path of each written pair, `parent[child]`.
        var keyEncoding: URLFormEncoder.KeyEncoding
        /// Whether each object's segments are sorted as text.
        var sortsSegments: Bool
    }

    let options: URLEncodingOptions
    /// `nil` for dictionary parameters.
    let encodableRules: EncodableRules?

    /// Serializes the pairs of a top-level object.
    func serialize(_ pairs: [(String, FormNode)]) -> String {
        var output: [UInt8] = []
        writeMembers(pairs, parent: nil, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes an object's members; `parent` is the object's own key path (`nil` at the top).
    private func writeMembers(_ pairs: [(String, FormNode)], parent: String?, into output: inout [UInt8]) {
        func key(_ member: String) -> String {
            parent.map { options.keyPathEncoding.join($0, member) } ?? member
        }
        guard encodableRules?.sortsSegments == true else {
            for (member, node) in pairs { write(node, key: key(member), into: &output) }
            return
        }
        var segments: [[UInt8]] = []
        segments.reserveCapacity(pairs.count)
        for (member, node) in pairs {
            var segment: [UInt8] = []
            write(node, key: key(member), into: &segment)
            if !segment.isEmpty { segments.append(segment) }
        }
        segments.sort { $0.lexicographicallyPrecedes($1) }
        for segment in segments { Self.appendSeparated(segment, to: &output) }
    }

    /// Writes `node` under the (unescaped) key path `key`.
    private func write(_ node: FormNode, key: String, into output: inout [UInt8]) {
        switch node {
        case .text(let text):
            appendPair(key: key, value: text, to: &output)
        case .bool(let value):
            switch options.boolEncoding {
            case .numeric: appendPair(key: key, value: value ? "1" : "0", to: &output)
            case .literal: appendPair(key: key, value: value ? "true" : "false", to: &output)
            }
        case .null:
            if let text = options.nilText { appendPair(key: key, value: text, to: &output) }
        case .array(let elements):
            var index = 0
            for element in elements {
                let before = output.count
                write(element, key: options.arrayKey(key, index: index), into: &output)
                if encodableRules == nil || output.count > before { index += 1 }
            }
        case .object(let pairs):
            writeMembers(pairs, parent: key, into: &output)
        }
    }

    private func appendPair(key: String, value: String, to output: inout [UInt8]) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        let encodedKey = encodableRules.map { $0.keyEncoding.encode(key) } ?? key
        PercentEscaping.appendQueryEscaped(encodedKey, options: options, to: &output)
        output.append(UInt8(ascii: "="))
        PercentEscaping.appendQueryEscaped(value, options: options, to: &output)
    }

    private static func appendSeparated(_ segment: [UInt8], to output: inout [UInt8]) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        output.append(contentsOf: segment)
    }
}
