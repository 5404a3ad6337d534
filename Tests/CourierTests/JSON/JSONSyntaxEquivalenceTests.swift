import Courier
import Foundation
import XCTest

/// Documents in the style of the JSON test suites (accepted, rejected, and implementation
/// defined), read as any value, through containers, and not read at all (structure only).
/// Both decoders must agree on every one.
final class JSONSyntaxEquivalenceTests: XCTestCase {
    static let accepted: [String] = [
        "[]", "{}", "[[]]", "[{}]", "{\"a\":[]}", " [ ] ", "\n\t\r [1] \n", "[\"\"]", "[\"a\"]", "{\"\":0}",
        "[1,2,3]", "[1.5,-2.25e3,0]", "[-0]", "[-0.0]", "[0e0]", "[0E+1]", "[1e-1]", "[1E22]", "[123e45]",
        "[true,false,null]", "{\"a\":{\"b\":{\"c\":[1,{\"d\":null}]}}}", "1", "-1", "\"text\"", "true", "null", "0",
        "[1,]", "{\"a\":1,}", "[[1,],]", "{\"a\":[1,],}", "[\"\\u0000\"]", "[\"\\ud83d\\ude00\"]",
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
        "[\"\\u00e9\\u20AC\"]", "[\"é€😀\"]", "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":{\"a\":3},\"a\":\"x\"}",
        "[1e400]", "[-1e400]", "[1e-400]", "[123456789012345678901234567890]", "[0.1,0.2,0.30000000000000004]",
        "[9223372036854775807,-9223372036854775808,9223372036854775808,18446744073709551615]",
        "[4.9e-324,2.2250738585072014e-308,1.7976931348623157e308]", "[\"\\u12ab\"]", "[\" \"]"
    ]

    static let rejected: [String] = [
        "", " ", "[", "]", "{", "}", "[1", "[1,", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\" 1}", "{a:1}", "{'a':1}",
        "['a']", "[,]", "[1,,2]", "[,1]", "{,}", "{\"a\":1,,}", "[1 2]", "{\"a\":1 \"b\":2}", "[1]]", "[[1]",
        "[1] x", "1 2", "nul", "nulll", "tru", "True", "[NaN]", "[Infinity]", "[-Infinity]", "[+1]", "[.5]",
        "[\"abc]", "[\"\\\"]", "\"abc", "[\"\\u12\"]", "[\"\\u\"]", "[1]\u{0}", "\u{0}[1]", "[\u{0B}1]", "[\u{0C}]",
        "{\"a\":1}{\"b\":2}", "[]{}", "[\"a\"\"b\"]", "{\"a\"::1}", "{:1}", "{1:1}", "{null:1}", "[truefalse]",
        "[0x10]", "[1_000]"
    ]

    /// Accepted by the scanner, rejected (only) when the value is read.
    static let lazy: [String] = [
        "[01]", "[-01]", "[1.]", "[1.e5]", "[1e]", "[1e+]", "[1-2]", "[1.2.3]", "[2.]", "[-]", "[--1]", "[1-]",
        "[1e5e5]", "[1E+-2]",
        "[\"\\x\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[\"\\ud800x\"]", "[\"\\uzzzz\"]",
        "[\"a\tb\"]", "[\"a\nb\"]", "[\"\u{1F}\"]", "[\"\\u00\u{0}0\"]", "[\"\\'\"]", "[\"\\U0041\"]"
    ]

    func testAcceptedDocuments() {
        for json in Self.accepted {
            assertEquivalent(DecodedTree.self, json)
            assertEquivalent(ContainerTree.self, json)
            assertEquivalent(Nothing.self, json)
        }
    }

    func testRejectedDocuments() {
        for json in Self.rejected {
            assertSameError(Nothing.self, json)
            assertSameError(DecodedTree.self, json)
        }
    }

    func testValuesCheckedOnlyWhenRead() {
        for json in Self.lazy {
            assertSameValue(Nothing.self, json)
            assertEquivalent(DecodedTree.self, json)
            assertEquivalent([String].self, json)
            assertEquivalent([Double].self, json)
            assertEquivalent([Int].self, json)
            assertEquivalent(ContainerTree.self, json)
            assertEquivalent([String: String].self, "{\"k\":\(json.dropFirst().dropLast())}")
        }
    }

    func testInvalidUTF8() {
        let documents: [[UInt8]] = [
            [0x22, 0xFF, 0x22], [0x5B, 0x22, 0xC3, 0x22, 0x5D], [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D],
            [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D],
            [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x22, 0x5D],
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0x5B, 0xFF, 0x5D], [0xFF]
        ]
        for bytes in documents {
            assertEquivalent(DecodedTree.self, Data(bytes))
            assertEquivalent(Nothing.self, Data(bytes))
            assertEquivalent(ContainerTree.self, Data(bytes))
            assertEquivalent([String: Int].self, Data(bytes))
        }
    }

    func testEncodingsAndByteOrderMarks() {
        let text = "{\"name\":\"caf\u{E9} \u{1F600}\",\"n\":[1,2]}"
        let encodings: [String.Encoding] = [
            .utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian
        ]
        for encoding in encodings {
            let data = text.data(using: encoding)!
            assertEquivalent(DecodedTree.self, data, label: "\(encoding)")
            assertEquivalent(DecodedTree.self, Data([0xEF, 0xBB, 0xBF]) + data, label: "BOM + \(encoding)")
        }
        for prefix: [UInt8] in [[0xFE, 0xFF], [0xFF, 0xFE], [0, 0, 0xFE, 0xFF], [0xFE, 0xFF, 0, 0]] {
            assertEquivalent(DecodedTree.self, Data(prefix) + "1".data(using: .utf16BigEndian)!, label: "\(prefix)")
            assertEquivalent(
                DecodedTree.self, Data(prefix) + "[1]".data(using: .utf16LittleEndian)!, label: "\(prefix)")
        }
        assertEquivalent(Int.self, "7".data(using: .utf16BigEndian)!, label: "one UTF-16 digit")
        assertEquivalent(Int.self, "7".data(using: .utf16LittleEndian)!, label: "one UTF-16 digit")
        assertEquivalent(DecodedTree.self, Data([0xD8, 0x00]), label: "lone surrogate in UTF-16")
    }

    func testNestingLimit() {
        for depth in [1, 100, 511, 512, 513, 600, 100_000] {
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            assertEquivalent(Nothing.self, arrays)
            // (Foundation reads a deep DecodedTree slowly: it builds a path for every failed attempt.)
            if depth <= 100 { assertEquivalent(DecodedTree.self, arrays) }
            let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
            assertEquivalent(Nothing.self, objects)
            let mixed =
                String(repeating: "[{\"a\":", count: depth / 2) + "[]" + String(repeating: "}]", count: depth / 2)
            assertEquivalent(Nothing.self, mixed)
        }
        // Unterminated deep nesting is an error, not a crash.
        assertSameError(Nothing.self, String(repeating: "[", count: 1_000_000))
        assertSameError(Nothing.self, String(repeating: "{\"a\":[", count: 200_000))
    }

    /// A recursive type 512 levels deep (the most the scanner accepts) decodes on a worker
    /// thread, whose stack is smaller than the main thread's.
    func testDeepestAllowedNestingDecodesOnAWorkerThread() {
        indirect enum Nest: Decodable {
            case leaf
            case node([Nest])

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                var children: [Nest] = []
                while !container.isAtEnd { children.append(try container.decode(Nest.self)) }
                self = children.isEmpty ? .leaf : .node(children)
            }

            var depth: Int {
                switch self {
                case .leaf: return 1
                case .node(let children): return 1 + (children.map(\.depth).max() ?? 0)
                }
            }
        }
        let json = Data((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
        let done = expectation(description: "decoded")
        DispatchQueue.global().async {
            XCTAssertEqual((try? CourierJSONDecoder().decode(Nest.self, from: json))?.depth, 512)
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
    }

    func testDeepNestingErrorIsTyped() {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        XCTAssertThrowsError(try CourierJSONDecoder().decode(Nothing.self, from: Data(deep.utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.count, 0)
            XCTAssertTrue("\(context.underlyingError.map { "\($0)" } ?? "")".contains("nested"), "\(context)")
        }
    }
}
