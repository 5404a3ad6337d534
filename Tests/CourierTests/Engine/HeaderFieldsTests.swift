import XCTest

@testable import Courier

final class HeaderFieldsTests: XCTestCase {
    private func fields(_ lines: [(String, String)]) -> HeaderFields {
        var fields = HeaderFields()
        for (name, value) in lines {
            Array(name.utf8).withUnsafeBytes { nameBytes in
                Array(value.utf8).withUnsafeBytes { valueBytes in
                    fields.append(name: nameBytes, value: valueBytes)
                }
            }
        }
        return fields
    }

    func testFieldsComeBackInArrivalOrderWithTheirSpelling() {
        let head = fields([("Content-Type", "application/json"), ("X-Trace", ""), ("set-cookie", "a=1")])
        XCTAssertEqual(head.count, 3)
        XCTAssertEqual(
            head.pairs.map { "\($0.0)=\($0.1)" }, ["Content-Type=application/json", "X-Trace=", "set-cookie=a=1"])
        XCTAssertEqual(HeaderFields([("A", "1"), ("b", "2")]).pairs.map { "\($0.0)=\($0.1)" }, ["A=1", "b=2"])
        XCTAssertTrue(HeaderFields().isEmpty)
    }

    func testLookupsIgnoreTheCaseOfNamesButNotOfValues() {
        let head = fields([("ETag", "\"A\""), ("etag", "\"b\""), ("Location", ""), ("LOCATION", "/next")])
        XCTAssertEqual(head.first(named: "etag"), "\"A\"")
        XCTAssertEqual(head.last(named: "ETAG"), "\"b\"")
        XCTAssertEqual(head.first(named: "location") { !$0.isEmpty }, "/next")
        XCTAssertNil(head.first(named: "Content-Length"))
        XCTAssertNil(head.first(named: "ETa"), "a prefix of a name is another name")
        XCTAssertTrue(head.hasName("Etag", at: 1))
        XCTAssertFalse(head.hasName("Location", at: 1))
    }

    func testCarriageReturnsAndNulsInValuesBecomeSpaces() {
        let head = fields([("X-A", "one\rtwo\u{0}three"), ("X-B", "plain")])
        XCTAssertEqual(head.value(at: 0), "one two three")
        XCTAssertEqual(head.value(at: 1), "plain")
    }

    func testAFoldedLineExtendsTheLastValue() {
        var head = fields([("X-A", "1"), ("X-Empty", "")])
        Array("more\r".utf8).withUnsafeBytes { head.extendLastValue(with: $0) }
        XCTAssertEqual(head.value(at: 1), "more ", "no SP before the text of an empty value; CR cleaned")
        Array("and more".utf8).withUnsafeBytes { head.extendLastValue(with: $0) }
        XCTAssertEqual(head.value(at: 1), "more  and more")
        XCTAssertEqual(head.value(at: 0), "1")
    }

    func testRemoveAllStartsOver() {
        var head = fields([("X-A", "1")])
        head.removeAll()
        XCTAssertTrue(head.isEmpty)
        Array("B".utf8).withUnsafeBytes { name in
            Array("2".utf8).withUnsafeBytes { value in head.append(name: name, value: value) }
        }
        XCTAssertEqual(head.pairs.map { "\($0.0)=\($0.1)" }, ["B=2"])
    }

    /// The first 16 fields' places are kept in the value itself, the rest in an array: a head
    /// with more fields reads the same on both sides of that line, folds included.
    func testAHeadWithMoreFieldsThanKeptInPlaceReadsTheSame() {
        let lines = (0..<40).map { ("X-Field-\($0)", "value \($0)") }
        var head = fields(lines)
        XCTAssertEqual(head.count, 40)
        XCTAssertEqual(head.pairs.map { "\($0.0)=\($0.1)" }, lines.map { "\($0.0)=\($0.1)" })
        XCTAssertEqual(head.first(named: "x-field-15"), "value 15")
        XCTAssertEqual(head.first(named: "x-field-16"), "value 16")
        XCTAssertEqual(head.last(named: "X-FIELD-39"), "value 39")
        XCTAssertTrue(head.nameEquals(at: 16, lowercase: "x-field-16"))
        XCTAssertEqual(head.withValueBytes(at: 17) { String(decoding: $0, as: UTF8.self) }, "value 17")
        Array("more".utf8).withUnsafeBytes { head.extendLastValue(with: $0) }
        XCTAssertEqual(head.value(at: 39), "value 39 more")
        head.removeAll()
        XCTAssertTrue(head.isEmpty)
        let again = fields(Array(lines.prefix(20)))
        XCTAssertEqual(again.value(at: 19), "value 19")
    }
}
