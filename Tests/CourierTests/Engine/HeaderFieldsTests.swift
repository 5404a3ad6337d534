import XCTest

@testable import Courier

final class HeaderFieldsTests: XCTestCase {
    private func fields(_ lines: [(String, String)]) -> HeaderFieldsBuilder {
        var fields = HeaderFieldsBuilder()
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

    /// Everything a reader can ask, as text, to compare two ways of holding the same fields.
    private func reading(_ fields: some HeaderFieldReading) -> [String] {
        var lines = ["count \(fields.count)", "empty \(fields.isEmpty)"]
        lines += fields.pairs.map { "\($0.0)=\($0.1)" }
        for index in 0..<fields.count {
            let name = fields.name(at: index)
            lines.append("has \(fields.hasName(name.uppercased(), at: index)) \(fields.hasName(name + "x", at: index))")
            lines.append("bytes " + fields.withValueBytes(at: index) { String(decoding: $0, as: UTF8.self) })
            lines.append("first \(fields.first(named: name) ?? "-") last \(fields.last(named: name) ?? "-")")
        }
        lines.append("etag \(fields.nameEquals(at: 0, lowercase: "etag"))")
        return lines
    }

    func testFrozenFieldsReadAsTheBuilderDid() {
        var folded = fields([("ETag", "\"A\""), ("X-Empty", ""), ("x-a", "one\rtwo"), ("etag", "\"b\"")])
        Array("more".utf8).withUnsafeBytes { folded.extendLastValue(with: $0) }
        let heads = [
            fields([("ETag", "1")]),
            folded,
            fields((0..<40).map { ("X-Field-\($0 % 7)", "value \($0)") })
        ]
        let memory = ResponseMemory()
        for head in heads {
            XCTAssertEqual(reading(head.frozen(in: nil)), reading(head))
            XCTAssertEqual(reading(head.frozen(in: memory)), reading(head))
        }
        XCTAssertTrue(HeaderFieldsBuilder().frozen(in: memory).isEmpty)
        XCTAssertEqual(
            reading(HeaderFields([("ETag", "\"A\""), ("b", "")])),
            reading(fields([("ETag", "\"A\""), ("b", "")])))
    }

    /// Frozen fields of 129 bytes or more live in the response memory and give it back when the
    /// last copy goes; smaller ones are plain `Data`.
    func testFrozenFieldsUseTheResponseMemory() {
        let memory = ResponseMemory()
        let head = fields([
            ("Content-Type", "application/json"), ("Server", "nginx"), ("Date", "today"),
            ("Last-Modified", "yesterday"), ("Connection", "keep-alive")
        ])
        do {
            let frozen = head.frozen(in: memory)
            let copy = frozen
            XCTAssertEqual(copy.first(named: "server"), "nginx")
            XCTAssertEqual(memory.keptCount, 0)
        }
        XCTAssertEqual(memory.keptCount, 1)
        do {
            let small = fields([("A", "1")]).frozen(in: memory)
            XCTAssertEqual(small.value(at: 0), "1")
        }
        XCTAssertEqual(memory.keptCount, 1)
    }

    /// The builder's storage can be handed to another head: emptied, its capacity kept, and taken
    /// only by a builder that has none yet.
    func testTheBuildersStorageMovesToTheNextHead() {
        var first = fields([("ETag", "\"A\""), ("Server", "nginx")])
        let storage = first.takeStorage()
        XCTAssertTrue(first.isEmpty)
        XCTAssertTrue(storage.isEmpty)
        XCTAssertGreaterThanOrEqual(storage.capacity, 512)
        var next = HeaderFieldsBuilder()
        next.adopt(storage)
        Array("X-A".utf8).withUnsafeBytes { name in
            Array("1".utf8).withUnsafeBytes { value in next.append(name: name, value: value) }
        }
        XCTAssertEqual(next.pairs.map { "\($0.0)=\($0.1)" }, ["X-A=1"])
        // A builder that has bytes keeps them.
        next.adopt([UInt8](repeating: 0, count: 0))
        XCTAssertEqual(next.value(at: 0), "1")
    }
}
