import Courier
import Foundation
import XCTest

/// The `text/event-stream` parser against the WHATWG rules, without sockets.
final class ServerSentEventParserTests: XCTestCase {
    private func parse(_ text: String, pieces: Int? = nil) throws -> [ServerSentEvent] {
        try parse(Data(text.utf8), pieces: pieces)
    }

    /// Parses `bytes` whole, or split into pieces of `pieces` bytes.
    private func parse(_ bytes: Data, pieces: Int? = nil) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        guard let size = pieces else { return try parser.parse(bytes) }
        var events: [ServerSentEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            events += try parser.parse(bytes.subdata(in: offset..<end))
            offset = end
        }
        return events
    }

    func testFieldsOfOneEvent() throws {
        let events = try parse("id: 42\nevent: update\ndata: first\ndata: second\n\n")
        XCTAssertEqual(events, [ServerSentEvent(event: "update", data: "first\nsecond", id: "42")])
    }

    func testLineEndingsCRLFLFAndCRAreAllAccepted() throws {
        let expected = [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c")]
        XCTAssertEqual(try parse("data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n"), expected)
        XCTAssertEqual(try parse("data: a\ndata: b\n\ndata: c\n\n"), expected)
        XCTAssertEqual(try parse("data: a\rdata: b\r\rdata: c\r\r"), expected)
        XCTAssertEqual(try parse("data: a\r\ndata: b\r\rdata: c\n\r\n"), expected, "mixed")
    }

    func testEverySplitGivesTheSameEvents() throws {
        let text = "\u{FEFF}: comment\r\nid: 1\r\nevent: tick\r\ndata: é🚀\r\ndata:\r\n\r\nretry: 250\rdata: x\r\r"
        let whole = try parse(text)
        XCTAssertEqual(
            whole, [ServerSentEvent(event: "tick", data: "é🚀\n", id: "1"), ServerSentEvent(data: "x", id: "1")])
        for size in 1...7 {
            XCTAssertEqual(try parse(text, pieces: size), whole, "pieces of \(size) bytes")
        }
    }

    func testCRAtTheEndOfAPieceFollowedByLFIsOneLineEnd() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.parse(Data("data: a\r".utf8)), [])
        XCTAssertEqual(try parser.parse(Data("\n\r".utf8)), [ServerSentEvent(data: "a")])
        XCTAssertEqual(try parser.parse(Data("\n".utf8)), [], "the LF after the second CR is not another blank line")
    }

    func testByteOrderMarkOnlyAtTheStart() throws {
        XCTAssertEqual(try parse("\u{FEFF}data: x\n\n"), [ServerSentEvent(data: "x")])
        XCTAssertEqual(
            try parse("\u{FEFF}\u{FEFF}data: x\n\n"), [],
            "a second BOM is part of the first line, which is then no 'data' field")
        XCTAssertEqual(try parse("data: \u{FEFF}x\n\n"), [ServerSentEvent(data: "\u{FEFF}x")])
    }

    func testCommentsAndUnknownFieldsAreIgnored() throws {
        XCTAssertEqual(try parse(": keep-alive\n\n:another\nfoo: bar\ndata: y\n\n"), [ServerSentEvent(data: "y")])
    }

    func testColonAndSpaceRules() throws {
        XCTAssertEqual(try parse("data:no space\n\n"), [ServerSentEvent(data: "no space")])
        XCTAssertEqual(try parse("data:  two spaces\n\n"), [ServerSentEvent(data: " two spaces")])
        XCTAssertEqual(try parse("data: a: b\n\n"), [ServerSentEvent(data: "a: b")])
        XCTAssertEqual(try parse("data\n\n"), [ServerSentEvent(data: "")], "a field without a colon has an empty value")
        XCTAssertEqual(try parse("data\ndata\n\n"), [ServerSentEvent(data: "\n")])
    }

    func testABlockWithoutDataDispatchesNothingButKeepsItsID() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(try parser.parse(Data("id: 7\nevent: ignored\n\n".utf8)), [])
        XCTAssertEqual(parser.lastEventID, "7")
        XCTAssertEqual(
            try parser.parse(Data("data: z\n\n".utf8)), [ServerSentEvent(data: "z", id: "7")],
            "the id persists, the event type does not")
    }

    func testIDRules() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(
            try parser.parse(Data("id: 1\ndata: a\n\nid\ndata: b\n\n".utf8)),
            [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "")],
            "an empty id resets the last event ID")
        XCTAssertEqual(
            try parser.parse(Data("id: 3\0x\ndata: c\n\n".utf8)), [ServerSentEvent(data: "c", id: "")],
            "an id containing NUL is ignored")
    }

    func testRetryNeedsOnlyDigits() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("retry: 1500\n".utf8))
        XCTAssertEqual(parser.reconnectionTime, .milliseconds(1500))
        _ = try parser.parse(Data("retry: 2s\nretry: -1\nretry:\n".utf8))
        XCTAssertEqual(parser.reconnectionTime, .milliseconds(1500), "invalid values are ignored")
    }

    func testLastEventWithoutItsBlankLineIsDiscardedAtTheEnd() throws {
        var parser = ServerSentEventParser()
        XCTAssertEqual(
            try parser.parse(Data("data: complete\n\ndata: unfinished\n".utf8)),
            [ServerSentEvent(data: "complete")])
        parser.endOfStream()
        XCTAssertEqual(
            try parser.parse(Data("data: next connection\n\n".utf8)),
            [ServerSentEvent(data: "next connection")], "the unfinished event did not leak into the next")
    }

    func testInvalidUTF8BecomesReplacementCharacters() throws {
        var bytes = Data("data: ".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE])
        bytes.append(Data("\n\n".utf8))
        XCTAssertEqual(try parse(bytes), [ServerSentEvent(data: "\u{FFFD}\u{FFFD}")])
    }

    func testOversizedEventThrows() {
        var parser = ServerSentEventParser(maximumEventSize: 100)
        XCTAssertThrowsError(try parser.parse(Data(("data: " + String(repeating: "x", count: 200)).utf8))) { error in
            guard error as? CourierError == .decodingFailed else { return XCTFail("got \(error)") }
        }
    }

    func testDecodingEventData() throws {
        struct Delta: Decodable, Equatable { let text: String }
        XCTAssertEqual(try ServerSentEvent(data: #"{"text":"hi"}"#).decode(Delta.self), Delta(text: "hi"))
        XCTAssertThrowsError(try ServerSentEvent(data: "[DONE]").decode(Delta.self))
    }
}
