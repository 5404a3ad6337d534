import Foundation
import XCTest

@testable import CourierGenerator

/// The YAML reader resolves plain scalars the way YAML 1.2's core schema does, keeps quoted ones
/// as strings, and reads the same tree as the JSON reader.
final class LoaderTests: XCTestCase {
    func testPlainScalarsResolveAsTheCoreSchemaSays() throws {
        let table: [(String, DocumentValue)] = [
            ("~", .null), ("null", .null), ("", .null), ("true", .bool(true)), ("False", .bool(false)),
            ("42", .integer(42)), ("-7", .integer(-7)), ("0x1F", .integer(31)), ("1.5", .number(1.5)),
            ("1e3", .number(1000)), ("3.0.3", .string("3.0.3")), ("yes", .string("yes")), ("'42'", .string("42")),
            ("\"true\"", .string("true")), ("2024-01-01", .string("2024-01-01")), ("200", .integer(200))
        ]
        for (text, expected) in table {
            XCTAssertEqual(try DocumentLoader.loadYAML(Data("v: \(text)\n".utf8))["v"], expected, text)
        }
    }

    func testYAMLAndJSONReadTheSameTree() throws {
        let yaml = """
            b: [1, 2.5, "x", true, null]
            a:
              anchor: &shared {k: v}
              alias: *shared
            """
        let json = #"{"a": {"anchor": {"k": "v"}, "alias": {"k": "v"}}, "b": [1, 2.5, "x", true, null]}"#
        XCTAssertEqual(try DocumentLoader.load(Data(yaml.utf8)), try DocumentLoader.load(Data(json.utf8)))
    }

    func testNamesBecomeValidSwift() {
        let members: [(String, String)] = [
            ("first-name", "firstName"), ("2fa", "_2fa"), ("@type", "type"), ("self", "selfValue"),
            ("class", "class"), ("URL", "url"), ("user_id", "userId"), ("X-Request-ID", "xRequestID"), ("", "value")
        ]
        for (name, expected) in members { XCTAssertEqual(Naming.memberName(name), expected, name) }
        XCTAssertEqual(Naming.escaped("class"), "`class`")
        XCTAssertEqual(Naming.typeName("odd names"), "OddNames")
        XCTAssertEqual(Naming.typeName("Error"), "ErrorModel")
        XCTAssertEqual(Naming.typeName("404"), "_404")
    }
}
