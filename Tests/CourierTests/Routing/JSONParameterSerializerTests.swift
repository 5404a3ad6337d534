import Foundation
import XCTest
@testable import Courier

/// Courier's own JSON writer for ``Parameters``.
final class JSONParameterSerializerTests: XCTestCase {
    private func json(
        _ parameters: Parameters, _ options: JSONEncoder.OutputFormatting = [.sortedKeys]
    ) throws -> String {
        String(decoding: try JSONParameterSerializer.serialize(parameters, options: options), as: UTF8.self)
    }

    func testScalarsWithSortedKeys() throws {
        let parameters: Parameters = ["s": "x", "t": true, "f": false, "i": 42, "d": 1.25, "n": NSNull()]
        XCTAssertEqual(try json(parameters), #"{"d":1.25,"f":false,"i":42,"n":null,"s":"x","t":true}"#)
    }

    func testEmptyObject() throws {
        XCTAssertEqual(try json([:]), "{}")
    }

    func testAllIntegerWidthsAndFloats() throws {
        let parameters: Parameters = [
            "a": Int8(-8), "b": Int16(-16), "c": Int32(-32), "d": Int64(-64), "e": UInt(1),
            "f": UInt8(8), "g": UInt16(16), "h": UInt32(32), "i": UInt64.max, "j": Float(0.5),
            "k": 3.0, "l": 1e20, "m": -0.001
        ]
        XCTAssertEqual(
            try json(parameters),
            #"{"a":-8,"b":-16,"c":-32,"d":-64,"e":1,"f":8,"g":16,"h":32,"i":18446744073709551615,"#
                + #""j":0.5,"k":3,"l":1e+20,"m":-0.001}"#)
    }

    func testNSNumberAndDecimal() throws {
        let parameters: Parameters = [
            "b": NSNumber(value: false), "i": NSNumber(value: 7), "d": NSNumber(value: 0.25),
            "dec": Decimal(string: "3.14159") ?? 0
        ]
        XCTAssertEqual(try json(parameters), #"{"b":false,"d":0.25,"dec":3.14159,"i":7}"#)
    }

    func testNilOptionalsBecomeNull() throws {
        let missing: Int? = nil
        let nested: String?? = .some(nil)
        let present: Int? = 5
        XCTAssertEqual(try json(["a": missing, "b": nested, "c": present]), #"{"a":null,"b":null,"c":5}"#)
    }

    func testNestedArraysAndDictionaries() throws {
        let user: Parameters = ["name": "Ada", "tags": ["x", "y"], "meta": [String: Int]()]
        let parameters: Parameters = ["user": user, "ids": [1, [2, 3]] as [any Sendable]]
        XCTAssertEqual(try json(parameters), #"{"ids":[1,[2,3]],"user":{"meta":{},"name":"Ada","tags":["x","y"]}}"#)
    }

    func testStringEscaping() throws {
        let text = "q\"b\\s/n\nr\rt\tb\u{08}f\u{0C}c\u{01}é😀"
        XCTAssertEqual(try json(["k": text]), #"{"k":"q\"b\\s/n\nr\rt\tb\bf\fc\u0001é😀"}"#)
    }

    func testSlashesAreNeverEscapedSoWithoutEscapingSlashesChangesNothing() throws {
        let parameters: Parameters = ["url": "https://a.example/b"]
        XCTAssertEqual(try json(parameters), #"{"url":"https://a.example/b"}"#)
        XCTAssertEqual(try json(parameters, [.sortedKeys, .withoutEscapingSlashes]), #"{"url":"https://a.example/b"}"#)
    }

    func testPrettyPrinted() throws {
        let parameters: Parameters = ["a": 1, "b": [true, false], "c": ["d": "e"], "e": [Int]()]
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                false
              ],
              "c": {
                "d": "e"
              },
              "e": []
            }
            """
        XCTAssertEqual(try json(parameters, [.sortedKeys, .prettyPrinted]), expected)
    }

    func testUnsortedStillContainsEveryMember() throws {
        let text = try json(["a": 1, "b": 2], [])
        XCTAssertTrue(text == #"{"a":1,"b":2}"# || text == #"{"b":2,"a":1}"#, text)
    }

    func testDateNamesKeyPath() {
        let parameters: Parameters = ["user": ["name": "Ada", "birthday": Date(timeIntervalSince1970: 0)] as Parameters]
        XCTAssertThrowsError(try json(parameters)) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "user.birthday", reason: "Date is not a JSON value"))
        }
    }

    func testArrayElementNamesIndex() {
        final class Custom: Sendable {}
        XCTAssertThrowsError(try json(["items": [1, 2, Custom()] as [any Sendable]])) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "items[2]", reason: "Custom is not a JSON value"))
        }
    }

    func testURLIsRejected() {
        let url = URL(fileURLWithPath: "/tmp")
        XCTAssertThrowsError(try json(["link": url])) { error in
            XCTAssertSameError(
                error as? CourierError, .parameterEncodingFailed(keyPath: "link", reason: "URL is not a JSON value"))
        }
    }

    func testNonFiniteNumbersThrow() {
        for value in [Double.nan, Double.infinity, -Double.infinity] {
            XCTAssertThrowsError(try json(["x": ["y": value]])) { error in
                XCTAssertSameError(
                    error as? CourierError,
                    .parameterEncodingFailed(keyPath: "x.y", reason: "NaN and infinite numbers cannot be encoded"))
            }
        }
        XCTAssertThrowsError(try json(["f": Float.nan]))
        XCTAssertThrowsError(try json(["d": Decimal.nan]))
    }

    func testOutputIsValidJSONForFoundation() throws {
        let data = try JSONParameterSerializer.serialize([
            "a": [1, 2.5, "x", true, NSNull()] as [any Sendable], "b": ["c": "d\n"]
        ])
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        XCTAssertEqual((object?["b"] as? [String: String])?["c"], "d\n")
        XCTAssertEqual((object?["a"] as? [Any])?.count, 5)
    }
}
