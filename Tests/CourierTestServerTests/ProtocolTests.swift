import CourierTestServer
import Foundation
import Glibc
import XCTest

/// Starts a server that is shut down when the test ends.
func makeServer(_ testCase: XCTestCase) throws -> TestHTTPServer {
    let server = try TestHTTPServer()
    testCase.addTeardownBlock { server.shutdown() }
    return server
}

/// HTTP/1.1 protocol handling: persistence, framing, HEAD, Expect, malformed input.
final class ProtocolTests: XCTestCase {
    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        let first = try client.readResponse()
        client.get("/echo?x=1")
        let second = try client.readResponse()

        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.text, "Hello, Courier")
        XCTAssertEqual(first.header("Connection"), "keep-alive")
        XCTAssertEqual(first.header("Content-Length"), "14")
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(server.connectionsAccepted, 1)
        XCTAssertEqual(server.requestsServed, 2)
        let recorded = server.recordedRequests
        XCTAssertEqual(recorded.map(\.path), ["/hello", "/echo"])
        XCTAssertEqual(recorded.map(\.indexOnConnection), [1, 2])
        XCTAssertEqual(Set(recorded.map(\.connectionID)).count, 1)
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.send(
            "GET /hello HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /status/201 HTTP/1.1\r\nHost: a\r\n\r\n")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: try client.readResponse().body)
        XCTAssertEqual(echo.body, "abc")
        XCTAssertEqual(try client.readResponse().status, 201)
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testConnectionCloseIsHonoured() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello", extra: "Connection: close\r\n")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.peerClosed())
    }

    func testHTTP10ClosesUnlessKeepAliveRequested() throws {
        let server = try makeServer(self)
        let plain = try RawHTTPClient(port: server.port)
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try plain.readResponse().header("Connection"), "close")
        XCTAssertTrue(plain.peerClosed())

        let persistent = try RawHTTPClient(port: server.port)
        persistent.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try persistent.readResponse().header("Connection"), "keep-alive")
        persistent.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try persistent.readResponse().status, 200)
    }

    func testHeadSendsHeadersWithLengthButNoBody() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        let get = try client.readResponse()
        client.get("/hello", method: "HEAD")
        let head = try client.readResponse(isHead: true)
        client.get("/bytes?size=100000", method: "HEAD")
        let bigHead = try client.readResponse(isHead: true)
        // If any body bytes had been sent, this response would be misparsed.
        client.get("/echo", method: "HEAD")
        let echoHead = try client.readResponse(isHead: true)
        client.get("/hello")
        let after = try client.readResponse()

        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), get.header("Content-Length"))
        XCTAssertEqual(bigHead.header("Content-Length"), "100000")
        XCTAssertNotNil(echoHead.header("Content-Length"))
        XCTAssertEqual(after.text, "Hello, Courier")
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testChunkedRequestBodyIsDecoded() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.send(
            "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nHello\r\n7\r\n, chunk\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: try client.readResponse().body)
        XCTAssertEqual(echo.body, "Hello, chunk")
        XCTAssertEqual(server.recordedRequests.first?.body, Data("Hello, chunk".utf8))
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func testExpectContinueGetsInterimResponse() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.send("PUT /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readHead()
        XCTAssertEqual(interim.status, 100)
        client.send("data")
        let final = try client.readResponse()
        let summary = try JSONDecoder().decode(TestHTTPUploadSummary.self, from: final.body)
        XCTAssertEqual(summary.bytes, 4)
    }

    func testRequestHeadersAreOrderedAndCaseInsensitive() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/echo?a=1&b=x%20y&a=2", extra: "X-Multi: one\r\nx-multi: two\r\nX-Case: Value\r\n")
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: try client.readResponse().body)
        XCTAssertEqual(echo.headers["x-multi"], "one, two")
        XCTAssertEqual(echo.headers["x-case"], "Value")
        XCTAssertEqual(echo.query, ["a": "2", "b": "x y"])
        XCTAssertEqual(echo.path, "/echo")
        XCTAssertEqual(echo.body, "")
        let request = try XCTUnwrap(server.recordedRequests.first)
        XCTAssertEqual(request.header("X-MULTI"), "one, two")
        XCTAssertEqual(request.headers.values("x-multi"), ["one", "two"])
        XCTAssertEqual(request.headers.map(\.name), ["Host", "X-Multi", "x-multi", "X-Case"])
        XCTAssertEqual(request.rawTarget, "/echo?a=1&b=x%20y&a=2")
        XCTAssertEqual(request.queryItems.map(\.value), ["1", "x y", "2"])
    }

    func testNonUTF8BodyEchoesNullTextAndBase64() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n")
        client.send(Data([0xFF, 0xFE, 0x00]))
        let body = try client.readResponse().body
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"body\":null"))
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: body)
        XCTAssertNil(echo.body)
        XCTAssertEqual(echo.bodyData, Data([0xFF, 0xFE, 0x00]))
    }

    func testGarbageInputGets400AndCloseWithoutHarmingTheServer() throws {
        let server = try makeServer(self)
        let garbage: [Data] = [
            Data("GARBAGE\r\n\r\n".utf8),
            Data("GET /hello HTTP/9.9\r\n\r\n".utf8),
            Data("GET  /hello HTTP/1.1\r\n\r\n".utf8),
            Data("GET /hello HTTP/1.1\r\nNo colon here\r\n\r\n".utf8),
            Data("GET /hello HTTP/1.1\r\nX: a\r\n folded\r\n\r\n".utf8),
            Data("POST /echo HTTP/1.1\r\nContent-Length: abc\r\n\r\n".utf8),
            Data("POST /echo HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".utf8),
            Data("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n".utf8),
            Data("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX".utf8),
            Data([0x00, 0xFF, 0x13, 0x37, 0x0D, 0x0A, 0x0D, 0x0A]),
            Data("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\r\n\r\n".utf8)
        ]
        for input in garbage {
            let client = try RawHTTPClient(port: server.port)
            client.send(input)
            let response = try client.readResponse()
            XCTAssertTrue((400...505).contains(response.status), "\(response.status) for \(input as NSData)")
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(client.peerClosed())
        }
        let oversized = try RawHTTPClient(port: server.port)
        oversized.send("GET /hello HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")
        XCTAssertEqual(try oversized.readResponse().status, 431)

        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
    }

    func testClientClosingMidRequestIsHarmless() throws {
        let server = try makeServer(self)
        do {
            let client = try RawHTTPClient(port: server.port)
            client.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly a few bytes")
        }
        XCTAssertTrue(waitFor { server.connectionsAccepted == 1 && server.openConnections == 0 })
        XCTAssertEqual(server.requestsServed, 0)
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func testAbsoluteFormTargetIsReducedToPath() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("http://example.test:8080/echo?q=1")
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: try client.readResponse().body)
        XCTAssertEqual(echo.path, "/echo")
        XCTAssertEqual(echo.query, ["q": "1"])
    }
}

/// Random and mutated input must never crash or wedge the server.
final class FuzzTests: XCTestCase {
    func testRandomAndMutatedInputNeverBreaksTheServer() throws {
        let server = try makeServer(self)
        let valid = Array(
            "POST /echo?a=1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n4\r\nabcd\r\n0\r\n\r\n"
                .utf8)
        var generator = SplitMix(seed: 2024)
        for round in 0..<300 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                input = valid
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let position = Int(generator.next() % UInt64(input.count))
                    switch generator.next() % 3 {
                    case 0: input[position] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: input.remove(at: position)
                    default: input.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                    }
                }
            }
            let client = try RawHTTPClient(port: server.port)
            client.send(Data(input))
            // End our side so a request that merely looks incomplete cannot keep the server waiting.
            shutdown(client.fd, Int32(SHUT_WR))
            _ = client.readToEnd()
        }
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
        XCTAssertTrue(waitFor { server.openConnections == 1 })
    }
}

/// A tiny deterministic generator for the fuzz test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
