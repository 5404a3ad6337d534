// libFuzzer target: response-head parsing (ResponseHeadParser, which the engine's header
// callback feeds line by line as libcurl delivers them). Checks that it never traps, and that
// whatever it keeps is clean HTTP: a three-digit status, field names that are tokens (no
// whitespace: obs-fold lines are unfolded), values without CR, LF, NUL or surrounding blanks,
// a declared length only when every Content-Length agrees, and that a rejection is final.
@testable import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var parser = ResponseHeadParser()
    var rejected = false
    // libcurl delivers one line per call, ending in LF (CRLF usually).
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var chunk = Array(line)
        chunk.append(0x0A)
        let accepted = chunk.withUnsafeBytes { parser.consume($0) }
        require(!(rejected && accepted), "a line accepted after the head was rejected")
        require(accepted == (parser.violation == nil), "the result disagrees with the violation")
        rejected = rejected || !accepted
    }
    require(parser.statusCode == 0 || (100...999).contains(parser.statusCode), "status \(parser.statusCode)")
    let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    for (name, value) in parser.fields.pairs {
        require(!name.isEmpty && name.utf8.allSatisfy(tchar.contains), "field name '\(name)' is not a token")
        require(
            !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }, "CR, LF or NUL in the value of \(name)")
        require(
            ![0x20, 0x09].contains(value.utf8.first) && ![0x20, 0x09].contains(value.utf8.last),
            "value of \(name) not trimmed")
    }
    if let length = parser.declaredLength, !rejected {
        let declared = parser.fields.pairs.filter { $0.0.lowercased() == "content-length" }
            .flatMap { $0.1.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        require(
            !declared.isEmpty && declared.allSatisfy { Int($0) == length },
            "Content-Length \(declared) kept as \(length)")
    }
    return 0
}
