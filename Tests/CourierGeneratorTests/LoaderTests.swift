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
        let json = #"{"b": [1, 2.5, "x", true, null], "a": {"anchor": {"k": "v"}, "alias": {"k": "v"}}}"#
        XCTAssertEqual(try DocumentLoader.load(Data(yaml.utf8)), try DocumentLoader.load(Data(json.utf8)))
        // Members keep the document's order; a repeated key keeps its place and takes the last value.
        XCTAssertEqual(
            try DocumentLoader.load(Data("z: 1\na: 2\nz: 3\n".utf8)), .object([("z", .integer(3)), ("a", .integer(2))]))
        XCTAssertEqual(
            try DocumentLoader.load(Data(#"{"z": 1, "a": 2, "z": 3}"#.utf8)),
            .object([("z", .integer(3)), ("a", .integer(2))]))
    }

    /// YAML merge keys: the merged members take the key's place; the mapping's own keys win
    /// wherever they stand, and an earlier merged mapping wins over a later one.
    func testMergeKeysShareMembers() throws {
        let yaml = """
            base: &base {type: object, description: shared, x: 1}
            extra: &extra {x: 2, y: 3}
            one:
              title: first
              <<: *base
              description: own
            two:
              <<: [*base, *extra]
              z: 4
            nested:
              <<: {<<: *extra, w: 5}
            quoted:
              "<<": kept
            """
        let tree = try DocumentLoader.loadYAML(Data(yaml.utf8))
        XCTAssertEqual(
            tree["one"],
            .object([
                ("title", .string("first")), ("type", .string("object")), ("x", .integer(1)),
                ("description", .string("own"))
            ]))
        XCTAssertEqual(
            tree["two"],
            .object([
                ("type", .string("object")), ("description", .string("shared")), ("x", .integer(1)),
                ("y", .integer(3)), ("z", .integer(4))
            ]))
        XCTAssertEqual(tree["nested"], .object([("x", .integer(2)), ("y", .integer(3)), ("w", .integer(5))]))
        XCTAssertEqual(tree["quoted"], .object([("<<", .string("kept"))]))
    }

    /// A mapping merged from many places is read once: each level below merges the one above
    /// twice, so reading it once per path would take 2^30 steps.
    func testAMappingMergedManyTimesIsReadOnce() throws {
        var yaml = "l0: &l0 {a: 1}\n"
        for level in 1...30 { yaml += "l\(level): &l\(level) {<<: [*l\(level - 1), *l\(level - 1)], k\(level): 1}\n" }
        let top = try DocumentLoader.loadYAML(Data(yaml.utf8))["l30"]
        XCTAssertEqual(top?.members.map(\.key), ["a"] + (1...30).map { "k\($0)" })
    }

    func testMergeKeysThatCannotBeFollowedAreRefused() {
        let failures: [(String, GeneratorError)] = [
            ("a: &a\n  k: v\n  <<: *a\n", GeneratorError("#/a", "a recursive merge (<<): the mapping merges itself")),
            ("a:\n  <<: 5\n", GeneratorError("#/a/<<", "a merge key (<<) takes a mapping or a sequence of mappings")),
            (
                "s: &s {k: v}\na:\n  <<: [*s, [1]]\n",
                GeneratorError("#/a/<<", "a merge key (<<) takes a mapping or a sequence of mappings")
            )
        ]
        for (yaml, expected) in failures {
            XCTAssertThrowsError(try DocumentLoader.loadYAML(Data(yaml.utf8)), yaml) { error in
                XCTAssertEqual(error as? GeneratorError, expected, yaml)
            }
        }
    }

    func testJSONStringsNumbersAndErrors() throws {
        let text = #"["a\"b\\c\/\n\t\u00e9\ud83d\ude00", -12, 1.5e2, 0.25, true, false, null, {}, []]"#
        XCTAssertEqual(
            try DocumentLoader.loadJSON(Data(text.utf8)),
            .array([
                .string("a\"b\\c/\n\té😀"), .integer(-12), .number(150), .number(0.25), .bool(true), .bool(false), .null,
                .object([]), .array([])
            ]))
        let failures: [(String, String)] = [
            (#"{"a": }"#, "unexpected character at byte 6"), (#"{"a" 1}"#, "expected ':' at byte 5"),
            (#"[1, 2"#, "unexpected end in an array at byte 5"), (#""abc"#, "unterminated string at byte 4"),
            (#"{"a": 1} x"#, "unexpected text after the document at byte 9"), (#"["\q"]"#, "unknown escape at byte 4"),
            (String(repeating: "[", count: 300), "nested deeper than 256 levels at byte 256")
        ]
        for (text, message) in failures {
            XCTAssertThrowsError(try DocumentLoader.loadJSON(Data(text.utf8)), text) { error in
                XCTAssertEqual((error as? GeneratorError)?.message, "not valid JSON: \(message)", text)
            }
        }
    }

    func testNamesBecomeValidSwift() {
        let members: [(String, String)] = [
            ("first-name", "firstName"), ("2fa", "_2fa"), ("@type", "type"), ("self", "selfValue"),
            ("class", "class"), ("URL", "url"), ("user_id", "userId"), ("X-Request-ID", "xRequestID"), ("", "value"),
            ("prénom", "prenom"), ("naïve café", "naiveCafe"), ("日付", "value")
        ]
        for (name, expected) in members { XCTAssertEqual(Naming.memberName(name), expected, name) }
        XCTAssertEqual(Naming.escaped("class"), "`class`")
        XCTAssertEqual(Naming.typeName("odd names"), "OddNames")
        XCTAssertEqual(Naming.typeName("Error"), "ErrorModel")
        XCTAssertEqual(Naming.typeName("404"), "_404")
        XCTAssertEqual(Naming.typeName("Bestellungen & Rückgaben"), "BestellungenRuckgaben")
    }
}
