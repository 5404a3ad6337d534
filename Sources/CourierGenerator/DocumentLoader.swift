import CYaml
import Foundation

/// Reads an OpenAPI document, JSON or YAML, into one ``DocumentValue`` tree, object members in
/// document order, so the same document reads the same in either format.
enum DocumentLoader {
    /// The most values a document may expand to (YAML aliases can multiply a small file).
    static let maximumValues = 2_000_000
    /// The deepest nesting accepted.
    static let maximumDepth = 256

    /// Parses `data`: JSON when its first non-blank character is `{` or `[`, YAML otherwise.
    static func load(_ data: Data) throws(GeneratorError) -> DocumentValue {
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try loadJSON(data) }
        return try loadYAML(data)
    }

    /// Parses a JSON document.
    static func loadJSON(_ data: Data) throws(GeneratorError) -> DocumentValue {
        try JSONReader.read([UInt8](data))
    }

    /// Parses a YAML document with libyaml (the first document of the stream).
    static func loadYAML(_ data: Data) throws(GeneratorError) -> DocumentValue {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw GeneratorError("#", "libyaml could not start") }
        defer { yaml_parser_delete(&parser) }
        let bytes = [UInt8](data)
        var document = yaml_document_t()
        let loaded = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document)
        }
        guard loaded == 1 else {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
            let mark = parser.problem_mark
            throw GeneratorError("#", "not valid YAML: \(problem) at line \(mark.line + 1), column \(mark.column + 1)")
        }
        defer { yaml_document_delete(&document) }
        return try withUnsafeMutablePointer(to: &document) { pointer throws(GeneratorError) -> DocumentValue in
            guard let root = yaml_document_get_root_node(pointer) else {
                throw GeneratorError("#", "the document is empty")
            }
            let tree = YAMLTree(document: pointer)
            // Measured first, without expanding aliases: a bomb or a cycle is refused at once.
            var sizes: [UnsafeMutablePointer<yaml_node_t>: (count: Int, height: Int)] = [:]
            var open: Set<UnsafeMutablePointer<yaml_node_t>> = []
            _ = try tree.measure(root, pointer: "#", depth: 0, sizes: &sizes, open: &open)
            return try tree.value(root, pointer: "#", depth: 0)
        }
    }
}

/// Walks libyaml's node graph (aliases are shared nodes) into the tree; ``measure`` checks the
/// size and depth the aliases expand to, and finds cycles, before anything is built.
private struct YAMLTree {
    typealias Node = UnsafeMutablePointer<yaml_node_t>

    /// The members of the mappings read so far, merges worked out: a mapping merged from many
    /// places (`<<: [*a, *a]` at every level) is read once, not once per path to it.
    private final class Members {
        var ofMapping: [Node: [(String, Node)]] = [:]
    }

    let document: UnsafeMutablePointer<yaml_document_t>
    private let members = Members()

    /// The number of values `node` expands to and its height, each node measured once.
    func measure(
        _ node: UnsafeMutablePointer<yaml_node_t>, pointer: String, depth: Int,
        sizes: inout [UnsafeMutablePointer<yaml_node_t>: (count: Int, height: Int)],
        open: inout Set<UnsafeMutablePointer<yaml_node_t>>
    ) throws(GeneratorError) -> (count: Int, height: Int) {
        let limit = DocumentLoader.maximumDepth
        if let known = sizes[node] {
            guard depth + known.height <= limit else { throw Self.tooDeep(pointer) }
            return known
        }
        guard open.insert(node).inserted else {
            throw GeneratorError(pointer, "a recursive alias: the node contains itself")
        }
        defer { open.remove(node) }
        guard depth < limit else { throw Self.tooDeep(pointer) }
        var count = 1
        var height = 1
        for (token, child) in try children(of: node, pointer: pointer) {
            let size = try measure(
                child, pointer: JSONPointer.appending(pointer, token), depth: depth + 1, sizes: &sizes, open: &open)
            count += size.count
            height = max(height, size.height + 1)
            guard count <= DocumentLoader.maximumValues else {
                throw GeneratorError(
                    pointer, "the YAML expands to more than \(DocumentLoader.maximumValues) values (through aliases)")
            }
        }
        sizes[node] = (count, height)
        return (count, height)
    }

    private static func tooDeep(_ pointer: String) -> GeneratorError {
        GeneratorError(pointer, "nested deeper than \(DocumentLoader.maximumDepth) levels")
    }

    /// The children of a sequence (by index) or a mapping (by key); none for a scalar.
    private func children(of node: Node, pointer: String) throws(GeneratorError) -> [(String, Node)] {
        switch node.pointee.type {
        case YAML_SEQUENCE_NODE:
            return try items(of: node, pointer: pointer).enumerated().map { (String($0.offset), $0.element) }
        case YAML_MAPPING_NODE:
            var merging: Set<Node> = [node]
            return try pairs(of: node, pointer: pointer, merging: &merging)
        default:
            return []
        }
    }

    private func items(of sequence: Node, pointer: String) throws(GeneratorError) -> [Node] {
        var result: [Node] = []
        var item = sequence.pointee.data.sequence.items.start
        while let current = item, current != sequence.pointee.data.sequence.items.top {
            result.append(try self.node(current.pointee, pointer: pointer))
            item = current + 1
        }
        return result
    }

    /// A mapping's members in order. A merge key (a plain `<<`, YAML 1.1's merge, which documents
    /// use to share members) stands for the members of the mapping it names, or of each mapping of
    /// the sequence it names, in their place: all but the keys the mapping sets itself (wherever it
    /// sets them) and keys an earlier merged mapping gave. `merging` holds the mappings being
    /// merged, so that a mapping that merges itself is refused instead of followed forever.
    private func pairs(
        of mapping: Node, pointer: String, merging: inout Set<Node>
    ) throws(GeneratorError) -> [(String, Node)] {
        if let known = members.ofMapping[mapping] { return known }
        var own: [(key: String, value: Node, merges: Bool)] = []
        var pair = mapping.pointee.data.mapping.pairs.start
        while let current = pair, current != mapping.pointee.data.mapping.pairs.top {
            let keyNode = try self.node(current.pointee.key, pointer: pointer)
            guard keyNode.pointee.type == YAML_SCALAR_NODE else {
                throw GeneratorError(pointer, "a mapping key is not a scalar")
            }
            let key = Self.text(keyNode)
            // A quoted "<<" is an ordinary key.
            let merges = key == "<<" && keyNode.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
            own.append((key, try self.node(current.pointee.value, pointer: pointer), merges))
            pair = current + 1
        }
        let ownKeys = Set(own.lazy.filter { !$0.merges }.map(\.key))
        var merged: Set<String> = []
        var result: [(String, Node)] = []
        for member in own {
            guard member.merges else {
                result.append((member.key, member.value))
                continue
            }
            for source in try mergedMappings(member.value, pointer: JSONPointer.appending(pointer, "<<")) {
                guard merging.insert(source).inserted else {
                    throw GeneratorError(pointer, "a recursive merge (<<): the mapping merges itself")
                }
                for (key, value) in try pairs(of: source, pointer: pointer, merging: &merging)
                where !ownKeys.contains(key) && merged.insert(key).inserted {
                    result.append((key, value))
                }
                merging.remove(source)
            }
        }
        members.ofMapping[mapping] = result
        return result
    }

    /// The mappings a merge key names: one mapping, or a sequence of mappings.
    private func mergedMappings(_ value: Node, pointer: String) throws(GeneratorError) -> [Node] {
        let sources = value.pointee.type == YAML_SEQUENCE_NODE ? try items(of: value, pointer: pointer) : [value]
        guard sources.allSatisfy({ $0.pointee.type == YAML_MAPPING_NODE }) else {
            throw GeneratorError(pointer, "a merge key (<<) takes a mapping or a sequence of mappings")
        }
        return sources
    }

    /// The tree of `node` (already measured).
    func value(
        _ node: UnsafeMutablePointer<yaml_node_t>, pointer: String, depth: Int
    ) throws(GeneratorError)
        -> DocumentValue
    {
        guard depth < DocumentLoader.maximumDepth else { throw Self.tooDeep(pointer) }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let text = Self.text(node)
            return node.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? Self.resolvePlain(text) : .string(text)
        case YAML_SEQUENCE_NODE:
            var elements: [DocumentValue] = []
            for (token, child) in try children(of: node, pointer: pointer) {
                elements.append(try value(child, pointer: JSONPointer.appending(pointer, token), depth: depth + 1))
            }
            return .array(elements)
        case YAML_MAPPING_NODE:
            var members: [(key: String, value: DocumentValue)] = []
            var positions: [String: Int] = [:]
            for (key, child) in try children(of: node, pointer: pointer) {
                let member = try value(child, pointer: JSONPointer.appending(pointer, key), depth: depth + 1)
                if let position = positions[key] {
                    members[position].value = member  // a repeated key keeps its place, the last value wins
                } else {
                    positions[key] = members.count
                    members.append((key: key, value: member))
                }
            }
            return .object(members)
        default:
            return .null
        }
    }

    private static func text(_ node: UnsafeMutablePointer<yaml_node_t>) -> String {
        let scalar = node.pointee.data.scalar
        guard let bytes = scalar.value else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: scalar.length), as: UTF8.self)
    }

    private func node(_ index: Int32, pointer: String) throws(GeneratorError) -> UnsafeMutablePointer<yaml_node_t> {
        guard let node = yaml_document_get_node(document, index) else {
            throw GeneratorError(pointer, "libyaml returned a dangling node")
        }
        return node
    }

    /// The YAML 1.2 core schema for plain scalars: null, booleans, integers, floats, else a string.
    static func resolvePlain(_ text: String) -> DocumentValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitCharacter), let value = Int(text) { return .integer(value) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .integer(value) }
        if isFloat(digits), let value = Double(text) { return .number(value) }
        return .string(text)
    }

    /// `[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least one digit before the exponent.
    private static func isFloat(_ text: Substring) -> Bool {
        var sawDigit = false
        var index = text.startIndex
        while index < text.endIndex, text[index].isASCIIDigitCharacter {
            sawDigit = true; index = text.index(after: index)
        }
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            while index < text.endIndex, text[index].isASCIIDigitCharacter {
                sawDigit = true
                index = text.index(after: index)
            }
        }
        guard sawDigit else { return false }
        if index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "-" || text[index] == "+" { index = text.index(after: index) }
            let exponentStart = index
            while index < text.endIndex, text[index].isASCIIDigitCharacter { index = text.index(after: index) }
            if exponentStart == index { return false }
        }
        return index == text.endIndex
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
