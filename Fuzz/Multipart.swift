// libFuzzer target: MultipartFormData.encode(). Checks that only typed errors come out, that a
// boundary is accepted exactly when RFC 2046 allows it, and that the body splits back into the
// parts that were appended: one Content-Disposition line (plus Content-Type when there is a
// type or a file name), no CR or LF smuggled into a header line, payloads unchanged.
@testable import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let boundary = input.bool() ? "courier.boundary.fuzz" : input.string(maxCount: 80)
    var form = MultipartFormData(boundary: boundary)
    var expected: [(headerLines: Int, payload: Data)] = []
    var texts: [[UInt8]] = []
    for _ in 0..<input.int(in: 0...4) {
        let name = input.string()
        texts.append(Array(name.utf8))
        if input.bool() {
            let value = input.string()
            form.append(value, name: name)
            texts.append(Array(value.utf8))
            expected.append((1, Data(value.utf8)))
        } else {
            let payload = Data(input.bytes(maxCount: 64))
            let filename = input.bool() ? input.string() : nil
            let mimeType = input.bool() ? input.string() : nil
            form.append(payload, name: name, filename: filename, mimeType: mimeType)
            texts += [Array(payload), Array((filename ?? "").utf8), Array((mimeType ?? "").utf8)]
            expected.append((filename != nil || mimeType != nil ? 2 : 1, payload))
        }
    }
    guard
        let body = typedResult(
            { try form.encode() },
            expected: { if $0 == .multipartEncodingFailed { true } else { false } })
    else {
        require(!isValidBoundary(boundary), "valid boundary '\(boundary)' refused")
        return 0
    }
    require(isValidBoundary(boundary), "invalid boundary '\(boundary)' accepted")
    let delimiter = Array("--\(boundary)".utf8)
    // The split below is only sound when no appended text happens to contain the delimiter.
    guard !texts.contains(where: { find(delimiter, in: $0) != nil }) else { return 0 }
    // Each part is "--B\r\n" head payload "\r\n"; the body ends with "--B--\r\n". A delimiter
    // is "--B" at the start of a line (RFC 2046 §5.1.1): a header line may contain "--B" once
    // Courier has taken a CR or LF out of it, but must never start a line with it.
    let bytes = Array(body)
    let lineBreak = Array("\r\n".utf8)
    let closing = delimiter + Array("--\r\n".utf8)
    require(bytes.count >= closing.count && bytes.suffix(closing.count).elementsEqual(closing), "bad closing delimiter")
    // "\r\n" + the parts + "--B" is "\r\n--B" part ... "\r\n--B": split on "\r\n--B".
    let framed = lineBreak + Array(bytes[..<(bytes.count - closing.count)]) + delimiter
    let pieces = split(framed, on: lineBreak + delimiter)
    require(pieces.first?.isEmpty == true && pieces.last?.isEmpty == true, "bytes outside the delimiters")
    let parts = pieces.dropFirst().dropLast()
    require(parts.count == expected.count, "\(expected.count) parts appended, \(parts.count) encoded")
    for (part, wanted) in zip(parts, expected) {
        require(part.count >= 2 && part.starts(with: lineBreak), "a delimiter not followed by a line break")
        let rest = Array(part.dropFirst(2))
        guard let headEnd = find(Array("\r\n\r\n".utf8), in: rest) else { fatalError("part without a blank line") }
        let lines = split(Array(rest[..<headEnd]), on: Array("\r\n".utf8))
        require(lines.count == wanted.headerLines, "\(lines.count) header lines, expected \(wanted.headerLines)")
        for line in lines {
            require(
                !line.contains(0x0D) && !line.contains(0x0A),
                "CR or LF inside a part header line: \(String(decoding: line, as: UTF8.self).debugDescription)")
        }
        require(lines[0].starts(with: Array("Content-Disposition: form-data; name=\"".utf8)), "bad disposition")
        require(Data(rest[(headEnd + 4)...]) == wanted.payload, "payload changed")
    }
    return 0
}

/// RFC 2046 §5.1.1: 1 to 70 of DIGIT ALPHA '()+_,-./:=? and space, not ending with a space.
private func isValidBoundary(_ boundary: String) -> Bool {
    let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
    let bytes = Array(boundary.utf8)
    return (1...70).contains(bytes.count) && bytes.last != 0x20 && bytes.allSatisfy(allowed.contains)
}

private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
        return start
    }
    return nil
}

private func split(_ bytes: [UInt8], on separator: [UInt8]) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var rest = bytes
    while let index = find(separator, in: rest) {
        pieces.append(Array(rest[..<index]))
        rest = Array(rest[(index + separator.count)...])
    }
    pieces.append(rest)
    return pieces
}
