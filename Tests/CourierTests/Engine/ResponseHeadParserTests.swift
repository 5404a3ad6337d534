@testable import Courier
import XCTest

/// The response head parser as a pure function of the lines libcurl hands over: no sockets.
final class ResponseHeadParserTests: XCTestCase {
    /// Feeds `lines` (each gets CRLF) and returns the parser, stopping at the first rejection.
    private func parse(_ lines: [String]) -> ResponseHeadParser {
        var parser = ResponseHeadParser()
        for line in lines {
            let bytes = Array((line + "\r\n").utf8)
            let accepted = bytes.withUnsafeBytes { parser.consume($0) }
            if !accepted { break }
        }
        return parser
    }

    private func fields(_ parser: ResponseHeadParser) -> [String] {
        parser.fields.pairs.map { "\($0.0)=\($0.1)" }
    }

    func testPlainHead() {
        let parser = parse(["HTTP/1.1 200 OK", "Content-Type: text/plain", "Content-Length:  12 ", ""])
        XCTAssertNil(parser.violation)
        XCTAssertEqual(parser.statusCode, 200)
        XCTAssertEqual(parser.majorVersion, 1)
        XCTAssertEqual(parser.declaredLength, 12)
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(fields(parser), ["Content-Type=text/plain", "Content-Length=12"])
        XCTAssertEqual(parse(["HTTP/2 204", ""]).majorVersion, 2)
    }

    func testInterimResponsesAreForgotten() {
        let parser = parse(["HTTP/1.1 100 Continue", "X-Interim: 1", "", "HTTP/1.1 201 Created", "X-Final: 2", ""])
        XCTAssertEqual(parser.statusCode, 201)
        XCTAssertEqual(fields(parser), ["X-Final=2"])
        XCTAssertTrue(parser.isComplete)
        XCTAssertFalse(parse(["HTTP/1.1 100 Continue", ""]).isComplete, "a 1xx head does not end the response")
    }

    func testObsFoldIsUnfoldedWithOneSpace() {
        let parser = parse(["HTTP/1.1 200 OK", "X-A: one", "   two  ", "\tthree", "Set-Cookie: a=1;", " Path=/", ""])
        XCTAssertNil(parser.violation)
        XCTAssertEqual(fields(parser), ["X-A=one two three", "Set-Cookie=a=1; Path=/"])
    }

    func testObsFoldWithoutAFieldIsRejected() {
        let parser = parse(["HTTP/1.1 200 OK", " Set-Cookie: a=1", ""])
        XCTAssertEqual(parser.violation, "a folded header line has no field before it")
    }

    func testFieldNamesNeverContainWhitespace() {
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "X A: b"]).violation, "invalid header field name 'X A'")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "X-B : c"]).violation, "invalid header field name 'X-B '")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", ": c"]).violation, "invalid header field name ''")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "X(y): c"]).violation, "invalid header field name 'X(y)'")
        XCTAssertEqual(
            parse(["HTTP/1.1 200 OK", "no colon here"]).violation, "a header line has no colon: 'no colon here'")
    }

    func testBareCRAndNULBecomeSpaces() {
        let parser = parse(["HTTP/1.1 200 OK", "X-A: a\rb", "X-B: c\u{0}d", "X-C: e\r"])
        XCTAssertNil(parser.violation)
        XCTAssertEqual(fields(parser), ["X-A=a b", "X-B=c d", "X-C=e"])
    }

    func testContentLengthMustAgree() {
        XCTAssertEqual(
            parse(["HTTP/1.1 200 OK", "Content-Length: 5", "Content-Length: 10"]).violation,
            "conflicting Content-Length values 5 and 10")
        XCTAssertEqual(
            parse(["HTTP/1.1 200 OK", "content-length: 5, 10"]).violation,
            "conflicting Content-Length values 5 and 10")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "Content-Length:"]).violation, "invalid Content-Length ''")
        XCTAssertEqual(
            parse(["HTTP/1.1 200 OK", "Content-Length: 5", " 10"]).violation, "invalid Content-Length '5 10'")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "Content-Length: -1"]).violation, "invalid Content-Length '-1'")
        XCTAssertEqual(parse(["HTTP/1.1 200 OK", "Content-Length: 5,"]).violation, "invalid Content-Length '5,'")
        let repeated = parse(["HTTP/1.1 200 OK", "Content-Length: 7", "CONTENT-LENGTH: 7", "Content-Length: 7 , 7", ""])
        XCTAssertNil(repeated.violation, "identical repeats may pass")
        XCTAssertEqual(repeated.declaredLength, 7)
        let afterInterim = parse([
            "HTTP/1.1 100 Continue", "Content-Length: 3", "", "HTTP/1.1 200 OK", "Content-Length: 9", ""
        ])
        XCTAssertNil(afterInterim.violation, "each response has its own length")
        XCTAssertEqual(afterInterim.declaredLength, 9)
    }

    func testTheHeadSizeIsLimited() {
        let line = "X-Filler: " + String(repeating: "a", count: 50_000)
        let parser = parse(["HTTP/1.1 200 OK"] + Array(repeating: line, count: 5))
        XCTAssertEqual(parser.violation, "the response head is larger than \(SecurityPolicy.maxResponseHeadSize) bytes")
        XCTAssertNil(parse(["HTTP/1.1 200 OK"] + Array(repeating: line, count: 4) + [""]).violation)
    }

    func testRejectionIsFinal() {
        var parser = parse(["HTTP/1.1 200 OK", "Bad Name: x"])
        let bytes = Array("X-Fine: y\r\n".utf8)
        XCTAssertFalse(bytes.withUnsafeBytes { parser.consume($0) })
        parser.reset()
        XCTAssertNil(parser.violation)
        XCTAssertTrue(bytes.withUnsafeBytes { parser.consume($0) })
    }

    /// A redirect's next hop starts over with nothing of the last head but its memory.
    func testResetForgetsTheHeadButKeepsItsStorage() {
        var parser = parse(["HTTP/1.1 301 Moved", "Location: /next", "Content-Length: 3", ""])
        parser.reset()
        XCTAssertEqual(parser.statusCode, 0)
        XCTAssertNil(parser.declaredLength)
        XCTAssertFalse(parser.isComplete)
        XCTAssertTrue(parser.fields.isEmpty)
        XCTAssertGreaterThan(parser.takeFieldStorage().capacity, 0)
        parser = parse(["HTTP/1.1 301 Moved", "Location: /next", ""])
        parser.reset()
        for line in ["HTTP/1.1 200 OK\r\n", "X-B: 2\r\n", "\r\n"] {
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { parser.consume($0) })
        }
        XCTAssertEqual(parser.fields.pairs.map { "\($0.0)=\($0.1)" }, ["X-B=2"])
    }

    func testFieldNameBytesAreExactlyTheTokenCharactersOfRFC9110() {
        // tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
        //         / DIGIT / ALPHA
        let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(HTTPToken.isTokenByte(byte), tchars.contains(byte), "byte \(byte)")
        }
    }

    /// The word-at-a-time length of a name's token bytes agrees with a byte-by-byte count: every
    /// byte value at every position of names of letters up to 24 bytes long, and random lines of
    /// letters, digits, symbols, colons, blanks and bytes above 127.
    func testTheTokenPrefixAgreesWithAPlainCount() {
        func plain(_ bytes: [UInt8]) -> Int {
            bytes.firstIndex { !HTTPToken.isTokenByte($0) } ?? bytes.count
        }
        func check(_ bytes: [UInt8]) -> Bool {
            let found = bytes.withUnsafeBytes { ResponseHeadParser.tokenPrefixLength($0) }
            guard found == plain(bytes) else {
                XCTFail("\(bytes): \(found), expected \(plain(bytes))")
                return false
            }
            return true
        }
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var name = Array(String(repeating: "Ab-z", count: 6).utf8.prefix(length))
                    if length > 0 { name[position] = byte }
                    guard check(name) else { return }
                }
            }
        }
        let alphabet = Array("azAZmM-09!#~._:; \t".utf8) + [0x80, 0xC3, 0xFF, 0x00, 0x7F, 0x40, 0x5B, 0x60, 0x7B]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            guard check(line) else { return }
        }
    }

    /// The word-at-a-time test for `Content-Length` agrees with a plain comparison without regard
    /// to case: every token byte at every position of the name, and every mix of cases.
    func testContentLengthIsRecognizedInAnyCaseAndOnlyThen() {
        let name = Array("content-length".utf8)
        func expected(_ bytes: [UInt8]) -> Bool {
            bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } == name
        }
        for position in name.indices {
            for byte in UInt8.min...UInt8.max where HTTPToken.isTokenByte(byte) {
                var candidate = name
                candidate[position] = byte
                let line = candidate + Array(": 5".utf8)
                XCTAssertEqual(
                    line.withUnsafeBytes { ResponseHeadParser.isContentLength($0) }, expected(candidate),
                    String(decoding: candidate, as: UTF8.self))
            }
        }
        for mask in 0..<(1 << 14) {
            let mixed = name.enumerated().map { index, byte in
                mask & (1 << index) != 0 && byte != 0x2D ? byte & ~0x20 : byte
            }
            XCTAssertTrue(mixed.withUnsafeBytes { ResponseHeadParser.isContentLength($0) })
        }
        XCTAssertFalse(Array("content-lengt".utf8).withUnsafeBytes { ResponseHeadParser.isContentLength($0) })
    }

    /// The word-at-a-time search for a CR or NUL in a value agrees with a byte-by-byte one: each
    /// byte value at each position of values up to 40 bytes long.
    func testTheSearchForCROrNULAgreesWithAPlainOne() {
        for length in 0...40 {
            for position in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { value[position] = byte }
                    let expected = value.contains(0x0D) || value.contains(0)
                    let found = value.withUnsafeBytes { HeaderFieldsBuilder.containsCROrNUL($0) }
                    if found != expected {
                        XCTFail("byte \(byte) at \(position) of \(length)")
                        return
                    }
                }
            }
        }
    }
}
