/// A JSON reader that keeps object members in document order (Foundation's decoders hand them
/// over as a dictionary), so properties and parameters come out in the order the document gives.
/// Nesting is limited like YAML's; a duplicate key keeps its first place and its last value.
struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The document's value, or an error naming the byte offset.
    static func read(_ bytes: [UInt8]) throws(GeneratorError) -> DocumentValue {
        var reader = JSONReader(bytes)
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.failure("unexpected text after the document") }
        return value
    }

    private func failure(_ what: String) -> GeneratorError {
        GeneratorError("#", "not valid JSON: \(what) at byte \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws(GeneratorError) -> DocumentValue {
        guard depth < DocumentLoader.maximumDepth else {
            throw failure("nested deeper than \(DocumentLoader.maximumDepth) levels")
        }
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ text: String, _ value: DocumentValue) throws(GeneratorError) -> DocumentValue {
        let expected = Array(text.utf8)
        guard bytes[index...].starts(with: expected) else { throw failure("unexpected character") }
        index += expected.count
        return value
    }

    private mutating func object(depth: Int) throws(GeneratorError) -> DocumentValue {
        index += 1
        var members: [(key: String, value: DocumentValue)] = []
        var positions: [String: Int] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            let member = try value(depth: depth + 1)
            if let position = positions[key] {
                members[position].value = member
            } else {
                positions[key] = members.count
                members.append((key: key, value: member))
            }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(GeneratorError) -> DocumentValue {
        index += 1
        var elements: [DocumentValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(GeneratorError) -> DocumentValue {
        let start = index
        var integral = true
        while index < bytes.count, let byte = Optional(bytes[index]),
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "+-.eE".utf8.contains(byte)
        {
            if ".eE".utf8.contains(byte) { integral = false }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .integer(value) }
        guard !text.isEmpty, text.first != "+", let value = Double(text), value.isFinite else {
            index = start
            throw failure(text.isEmpty ? "unexpected character" : "not a number: \(text)")
        }
        return .number(value)
    }

    private mutating func string() throws(GeneratorError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ reader: JSONReader, to end: Int) {
            scalars.append(contentsOf: String(decoding: reader.bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(self, to: index)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flush(self, to: index)
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), bytes[index...].starts(with: Array("\\u".utf8)) {
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: throw failure("unknown escape")
            }
            run = index
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(GeneratorError) -> UInt32 {
        guard index + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("a bad \\u escape") }
        index += 4
        return code
    }
}
