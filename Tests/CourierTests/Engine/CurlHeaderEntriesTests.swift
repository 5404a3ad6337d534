@testable import Courier
import CourierTestServer
import Foundation
import XCTest

/// How header lines become libcurl's list entries (``CurlHeaderEntries``), as a table, and what
/// arrives on the wire from them.
final class CurlHeaderEntriesTests: XCTestCase {
    func testEntriesTable() {
        let cases: [(lines: [(String, String)], entries: [String], note: String)] = [
            ([], [], "no lines, no entries"),
            ([("X-A", "1")], ["X-A: 1"], "one line"),
            (
                [("Accept", "application/json"), ("User-Agent", "Courier/1.0"), ("Accept-Encoding", "gzip")],
                ["Accept: application/json\r\nUser-Agent: Courier/1.0\r\nAccept-Encoding: gzip", "Accept-Encoding:"],
                "the usual request: one shared entry; the hidden Accept-Encoding is named by an empty entry"
            ),
            (
                [("X-A", "1"), ("Content-Type", "text/plain"), ("X-B", "2")],
                ["X-A: 1", "Content-Type: text/plain", "X-B: 2"],
                "a line libcurl acts on ends the shared entry and keeps its own, in order"
            ),
            (
                [("Authorization", "Bearer t"), ("X-A", "1"), ("X-B", "2")],
                ["Authorization: Bearer t", "X-A: 1\r\nX-B: 2"],
                "no line rides behind one libcurl acts on (it may skip that entry)"
            ),
            (
                [("X-A", "1"), ("X-Empty", ""), ("X-B", "2")],
                ["X-A: 1", "X-Empty;", "X-B: 2"],
                "an empty value keeps an entry of its own in libcurl's form"
            ),
            (
                [("X-A", "1"), ("Accept", "text/html")],
                ["X-A: 1\r\nAccept: text/html", "Accept:"],
                "a hidden Accept is named, so that libcurl leaves out Accept: */*"
            ),
            (
                [("Accept", ""), ("X-A", "1"), ("accept", "text/html")],
                ["Accept;", "X-A: 1\r\naccept: text/html"],
                "no empty entry when an entry of its own names it already (any case)"
            ),
            (
                [("HOST", "example.com"), ("content-length", "3"), ("Transfer-Encoding", "chunked"), ("Cookie", "a=b")],
                ["HOST: example.com", "content-length: 3", "Transfer-Encoding: chunked", "Cookie: a=b"],
                "names libcurl acts on are matched without regard to case"
            ),
            (
                [("X-A", "1"), ("X-A", "2")],
                ["X-A: 1\r\nX-A: 2"],
                "a repeated name stays repeated"
            )
        ]
        for (lines, expected, note) in cases {
            XCTAssertEqual(CurlHeaderEntries.entries(lines.map { (name: $0.0, value: $0.1) }), expected, note)
        }
    }

    func testEveryLibcurlActedOnNameIsLowercase() {
        for name in CurlHeaderEntries.ownEntryNames.union(CurlHeaderEntries.lookedForNames) {
            XCTAssertEqual(name, name.lowercased())
        }
        XCTAssertTrue(CurlHeaderEntries.ownEntryNames.isDisjoint(with: CurlHeaderEntries.lookedForNames))
    }

    /// Over HTTP/1.1, each line arrives once, in order, and libcurl adds none of its own for the
    /// names it only looks for.
    func testLinesArriveOnceEachInOrder() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let headers: HTTPHeaders = [
            HTTPHeader(name: "X-First", value: "1"),
            HTTPHeader(name: "Accept", value: "application/json"),
            HTTPHeader(name: "Content-Type", value: "text/plain"),
            HTTPHeader(name: "X-Second", value: "two words"),
            HTTPHeader(name: "X-Empty", value: ""),
            HTTPHeader(name: "User-Agent", value: "agent/2"),
            HTTPHeader(name: "X-Third", value: "3")
        ]
        let response = await Session().request(.url(server.url("/echo"), headers: headers)).response()
        XCTAssertEqual(response.statusCode, 200)
        let received = try XCTUnwrap(server.recordedRequests(path: "/echo").last).headers.pairs
            .filter { $0.0.lowercased() != "host" }.map { "\($0.0): \($0.1)" }
        // In the order of the request's own headers (Courier's, after the session's defaults
        // merged in), then the Accept-Encoding line of decompression.
        let sent = try XCTUnwrap(response.request).headers.map { "\($0.name): \($0.value)" }
        XCTAssertEqual(received, sent + ["Accept-Encoding: \(try XCTUnwrap(CurlTransfer.acceptEncodingValue))"])
        XCTAssertEqual(
            Set(sent),
            [
                "X-First: 1", "Accept: application/json", "Content-Type: text/plain", "X-Second: two words",
                "X-Empty: ", "User-Agent: agent/2", "X-Third: 3"
            ])
    }

    /// Over HTTP/2 (nginx with TLS, from scripts/test.sh), the shared entry's lines become
    /// headers of their own: nginx echoes them, and no `Accept: */*` of libcurl's comes first.
    func testSharedEntryOverHTTP2() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["COURIER_TLS_URL"], let ca = env["COURIER_TLS_CA"] else { throw HTTPBin.NotRunning() }
        var configuration = Session.Configuration()
        configuration.tls.caCertificateFile = ca
        let headers: HTTPHeaders = [
            HTTPHeader(name: "X-First", value: "1"),
            HTTPHeader(name: "Accept", value: "application/json"),
            HTTPHeader(name: "X-Second", value: "2")
        ]
        let response = await Session(configuration: configuration)
            .request(.url(url + "/request-headers", headers: headers)).response()
        XCTAssertEqual(response.metrics?.httpVersion, .http2)
        let echoed = try JSONDecoder().decode([String: String].self, from: try XCTUnwrap(response.data))
        XCTAssertEqual(echoed["x_first"], "1")
        XCTAssertEqual(echoed["accept"], "application/json")
        XCTAssertEqual(echoed["x_second"], "2")
        XCTAssertEqual(echoed["accept_encoding"], try XCTUnwrap(CurlTransfer.acceptEncodingValue))
        XCTAssertEqual(echoed["user_agent"], "Courier/\(CourierInfo.version)")
    }
}
