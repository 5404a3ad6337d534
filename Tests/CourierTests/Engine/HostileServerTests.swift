import Courier
import CourierTestServer
import Foundation
import XCTest

/// Servers that send nonsense: every case must end in a typed error, never a crash or a hang.
final class HostileServerTests: XCTestCase {
    let session = Session()

    private func fetch(reply: String) async -> DataResponse<Data?> {
        let server = Loopback.RawReplyServer(reply: Array(reply.utf8))
        let response = await session.request(.url("http://127.0.0.1:\(server.port)/")).response()
        withExtendedLifetime(server) {}
        return response
    }

    func testGarbageInsteadOfHTTP() async {
        let response = await fetch(reply: "garbage garbage garbage\r\n\r\n")
        guard response.error == .protocolViolation else {
            return XCTFail("expected protocolViolation, got \(String(describing: response.error))")
        }
    }

    func testInvalidStatusLine() async {
        let response = await fetch(reply: "HTTP/1.1 abc Nope\r\nContent-Length: 0\r\n\r\n")
        XCTAssertNotNil(response.error, "an unparseable status line is an error")
    }

    func testContentLengthLongerThanTheBody() async {
        let response = await fetch(reply: "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")
        guard response.error == .truncatedResponse else {
            return XCTFail("expected truncatedResponse, got \(String(describing: response.error))")
        }
    }

    func testBrokenChunkedEncoding() async {
        let response = await fetch(
            reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nhello\r\n0\r\n\r\n")
        XCTAssertNotNil(response.error)
    }

    func testBogusContentEncoding() async {
        let response = await fetch(
            reply: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 9\r\n\r\nnot-gzip!")
        guard response.error == .protocolViolation else {
            return XCTFail("expected protocolViolation, got \(String(describing: response.error))")
        }
    }

    func testHugeHeaderIsRefused() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let small = await session.request(.url(server.url("/large-header?size=10000"))).response()
        XCTAssertEqual(small.head?.value(forHeader: "X-Large")?.count, 10000)
        let huge = await session.request(.url(server.url("/large-header?size=300000"))).response()
        XCTAssertNotNil(huge.error, "libcurl caps a header line at 100 KB")
    }

    func testDeflateBombRouteIsValidAndSmallOnTheWire() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let response = await session.request(.url(server.url("/deflate-bomb?size=1000003"))).response()
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data?.count, 1_000_003)
        XCTAssertEqual(response.data?.contains { $0 != 0 }, false)
        XCTAssertLessThan(response.metrics?.bytesReceived ?? .max, 10_000, "about 1/159 of the decoded size")
    }
}
