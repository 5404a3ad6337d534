// libFuzzer target: Parameters → query/form text (ParameterFormConverter, the encoder behind
// RequestParams' `.query` and form bodies). Checks that only typed errors come out, that the
// text holds only unreserved bytes, valid escapes and delimiters, and that decoding it gives
// back exactly the pairs a simple reference flattening expects.
@testable import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormEncoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let arrays: [URLEncodingOptions.ArrayEncoding] = [.brackets, .noBrackets, .indexInBrackets]
    let options = URLEncodingOptions(
        arrayEncoding: arrays[input.int(in: 0...2)], boolEncoding: input.bool() ? .numeric : .literal,
        spaceEncoding: input.bool() ? .percentEscaped : .plusReplaced,
        nilEncoding: input.bool() ? .dropKey : .dropValue)
    let parameters = input.parameters(depth: 3)
    guard
        let encoded = typedResult(
            { try ParameterFormConverter.encode(parameters, options: options) },
            expected: { if $0 == .parameterEncodingFailed { true } else { false } })
    else { return 0 }
    let bytes = Array(encoded.utf8)
    for (index, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "%") {
            require(
                index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2]),
                "a '%' that starts no escape in \(encoded)")
        } else {
            require(
                PercentEscaping.isUnreserved(byte) || "/?=&".utf8.contains(byte)
                    || (byte == UInt8(ascii: "+") && options.spaceEncoding == .plusReplaced),
                "byte \(byte) left unescaped in \(encoded)")
        }
    }
    if let expected = FormReference.pairs(parameters, options: options) {
        let decoded = decode(encoded, plusIsSpace: options.spaceEncoding == .plusReplaced)
        require(
            decoded.map { "\($0.0)=\($0.1)" } == expected.map { "\($0.0)=\($0.1)" },
            "decoded \(decoded) but expected \(expected)")
    }
    return 0
}

private func isHex(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
}

/// Splits `key=value&...` and percent-decodes each side.
private func decode(_ text: String, plusIsSpace: Bool) -> [(String, String)] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: "&", omittingEmptySubsequences: false).map { component in
        let parts = component.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (unescape(parts[0], plusIsSpace), parts.count > 1 ? unescape(parts[1], plusIsSpace) : "")
    }
}

private func unescape(_ text: Substring, _ plusIsSpace: Bool) -> String {
    var output: [UInt8] = []
    var bytes = Array(text.utf8)[...]
    while let byte = bytes.popFirst() {
        if byte == UInt8(ascii: "%"), bytes.count >= 2,
            let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
        {
            output.append(value)
            bytes = bytes.dropFirst(2)
        } else {
            output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        }
    }
    return String(decoding: output, as: UTF8.self)
}

/// The documented flattening, written independently: sorted keys, `key[nested]`, arrays per
/// `arrayEncoding`. Nil when the tree holds floating-point values (their text form is the
/// encoder's own business) or values no encoder accepts.
private enum FormReference {
    static func pairs(_ parameters: [String: any Sendable], options: URLEncodingOptions) -> [(String, String)]? {
        var output: [(String, String)] = []
        for key in parameters.keys.sorted() {
            guard append(key: key, value: parameters[key]!, options: options, into: &output) else { return nil }
        }
        return output
    }

    private static func append(
        key: String, value: Any, options: URLEncodingOptions, into output: inout [(String, String)]
    ) -> Bool {
        if Mirror(reflecting: value).displayStyle == .optional || value is NSNull {
            if options.nilEncoding == .dropValue { output.append((key, "")) }
            return true
        }
        switch value {
        case let string as String: output.append((key, string))
        case let int as Int: output.append((key, "\(int)"))
        case let byte as UInt8: output.append((key, "\(byte)"))
        case let bool as Bool:
            output.append((key, options.boolEncoding == .numeric ? (bool ? "1" : "0") : (bool ? "true" : "false")))
        case let array as [any Sendable]:
            for (index, element) in array.enumerated() {
                let elementKey: String
                switch options.arrayEncoding {
                case .brackets: elementKey = key + "[]"
                case .noBrackets: elementKey = key
                case .indexInBrackets: elementKey = key + "[\(index)]"
                }
                guard append(key: elementKey, value: element, options: options, into: &output) else { return false }
            }
        case let object as [String: any Sendable]:
            for nested in object.keys.sorted() {
                guard append(key: key + "[\(nested)]", value: object[nested]!, options: options, into: &output) else {
                    return false
                }
            }
        default:
            return false
        }
        return true
    }
}
