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
}
