import CourierTestServer
import Foundation
import XCTest

/// The built-in routes and the custom-route API.
final class RouteTests: XCTestCase {
    func testEchoReportsMethodPathQueryHeadersBodyAndConnection() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.send(
            "PATCH /echo?name=Courier HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"
        )
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: response.body)
        XCTAssertEqual(echo.method, "PATCH")
        XCTAssertEqual(echo.path, "/echo")
        XCTAssertEqual(echo.query["name"], "Courier")
        XCTAssertEqual(echo.headers["content-type"], "text/plain")
        XCTAssertEqual(echo.body, "hello")
        XCTAssertEqual(echo.bodyBase64, Data("hello".utf8).base64EncodedString())
        XCTAssertEqual(echo.connectionID, server.recordedRequests.first?.connectionID)
    }

    func testStatusRoute() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/status/418")
        let teapot = try client.readResponse()
        XCTAssertEqual(teapot.status, 418)
        XCTAssertEqual(teapot.text, "{\"status\":418}")
        client.get("/status/204")
        let noContent = try client.readResponse()
        XCTAssertEqual(noContent.status, 204)
        XCTAssertNil(noContent.header("Content-Length"))
        client.get("/status/304")
        XCTAssertEqual(try client.readResponse().status, 304)
        client.get("/status/500")
        XCTAssertEqual(try client.readResponse().status, 500)
        client.get("/status/abc")
        XCTAssertEqual(try client.readResponse().status, 400)
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testUnknownPathIs404JSON() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/no/such/thing")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.text, "{\"error\":\"not found\"}")
    }

    func testRedirects() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let target = "http://localhost:\(server.port)/echo?a=b"
        let encoded = try XCTUnwrap(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        client.get("/redirect?to=\(encoded)&status=307")
        let redirect = try client.readResponse()
        XCTAssertEqual(redirect.status, 307)
        XCTAssertEqual(redirect.header("Location"), target)

        client.get("/redirect?to=%2Fhello")
        let defaultStatus = try client.readResponse()
        XCTAssertEqual(defaultStatus.status, 302)
        XCTAssertEqual(defaultStatus.header("Location"), "/hello")

        client.get("/redirect-chain?n=2")
        let first = try client.readResponse()
        XCTAssertEqual(first.status, 302)
        XCTAssertEqual(first.header("Location"), "/redirect-chain?n=1")
        client.get("/redirect-chain?n=0")
        let last = try client.readResponse()
        XCTAssertEqual(last.status, 200)
        XCTAssertEqual(try JSONDecoder().decode(TestHTTPEcho.self, from: last.body).query, ["n": "0"])
    }

    func testCookies() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/set-cookie?session=abc&theme=dark")
        let set = try client.readResponse()
        XCTAssertEqual(
            set.headers.filter { $0.0 == "Set-Cookie" }.map(\.1), ["session=abc; Path=/", "theme=dark; Path=/"])
        client.get("/cookies", extra: "Cookie: session=abc; theme=dark\r\n")
        let echoed = try JSONSerialization.jsonObject(with: try client.readResponse().body) as? [String: Any]
        XCTAssertEqual(echoed?["cookie"] as? String, "session=abc; theme=dark")
        XCTAssertEqual(echoed?["cookies"] as? [String: String], ["session": "abc", "theme": "dark"])
        client.get("/cookies")
        XCTAssertEqual(try client.readResponse().text, "{\"cookie\":null,\"cookies\":{}}")
    }

    func testLargeHeader() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/large-header?size=100000")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("X-Large")?.utf8.count, 100_000)
        XCTAssertEqual(response.status, 200)
    }

    func testUploadReportsSizeAndSHA256() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let body = TestHTTPServer.deterministicBytes(count: 1_000_000, seed: 3)
        client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(body)
        let summary = try JSONDecoder().decode(TestHTTPUploadSummary.self, from: try client.readResponse().body)
        XCTAssertEqual(summary.bytes, 1_000_000)
        XCTAssertEqual(summary.sha256, TestHTTPServer.checksum(body))
        if let path = try? temporaryFile(body, suffix: ".bin"),
            let output = runTool("/usr/bin/sha256sum", [path])
        {
            XCTAssertEqual(String(decoding: output.prefix(64), as: UTF8.self), summary.sha256)
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func testChecksumAgreesWithSha256sumAtEveryPaddingBoundary() throws {
        // Sizes around the 55/56/64-byte padding cases, several blocks with a partial one, and
        // the empty message; each against coreutils' sha256sum, which must be present.
        let sizes = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1_000, 100_003]
        for (index, size) in sizes.enumerated() {
            let body = TestHTTPServer.deterministicBytes(count: size, seed: UInt64(index))
            let path = try temporaryFile(body, suffix: ".bin")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let output = try XCTUnwrap(runTool("/usr/bin/sha256sum", [path]), "sha256sum did not run")
            XCTAssertEqual(
                TestHTTPServer.checksum(body), String(decoding: output.prefix(64), as: UTF8.self), "\(size) bytes")
        }
        XCTAssertEqual(
            TestHTTPServer.checksum(Data("abc".utf8)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "FIPS 180-4's one-block example")
    }

    func testDeterministicBytesAreTheGeneratorsWordsLeastSignificantByteFirst() {
        // The xorshift64* words, written out byte by byte: the payloads tests and their digests rely on.
        for seed: UInt64 in [0, 1, 7, 0xFFFF_FFFF_FFFF_FFFF] {
            for count in [0, 1, 7, 8, 9, 15, 16, 17, 1_001] {
                var expected = [UInt8]()
                var state = (seed ^ 0x9E37_79B9_7F4A_7C15) | 1
                while expected.count < count {
                    state ^= state >> 12
                    state ^= state << 25
                    state ^= state >> 27
                    let word = state &* 0x2545_F491_4F6C_DD1D
                    for shift in stride(from: 0, to: 64, by: 8) where expected.count < count {
                        expected.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
                    }
                }
                XCTAssertEqual(
                    [UInt8](TestHTTPServer.deterministicBytes(count: count, seed: seed)), expected,
                    "seed \(seed), \(count) bytes")
            }
        }
    }

    func testUploadDigestOfABodySentInUnevenPiecesIsTheWholeBodysDigest() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let body = TestHTTPServer.deterministicBytes(count: 70_001, seed: 9)
        client.send("POST /upload/digest HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n")
        // Pieces of 1, 63, 65, 127 ... bytes: every piece leaves a partial block behind.
        var offset = 0
        var piece = 1
        while offset < body.count {
            let end = min(offset + piece, body.count)
            client.send(body.subdata(in: offset..<end))
            offset = end
            piece = piece == 1 ? 63 : piece + 64
        }
        let summary = try JSONDecoder().decode(TestHTTPUploadSummary.self, from: try client.readResponse().body)
        XCTAssertEqual(summary.bytes, body.count)
        XCTAssertEqual(summary.sha256, TestHTTPServer.checksum(body))
    }

    func testUploadDigestHashesWithoutKeepingTheBody() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let body = TestHTTPServer.deterministicBytes(count: 300_000, seed: 8)
        client.send("POST /upload/digest HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(body)
        let summary = try JSONDecoder().decode(TestHTTPUploadSummary.self, from: try client.readResponse().body)
        XCTAssertEqual(summary, TestHTTPUploadSummary(body: body))
        // Chunked, in pieces that do not line up with SHA-256 blocks.
        client.send("POST /upload/digest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
        for size in [1, 63, 65, 1000, 0] {
            let piece = body.prefix(size)
            client.send(String(size, radix: 16) + "\r\n")
            client.send(Data(piece) + Data("\r\n".utf8))
        }
        let chunked = try JSONDecoder().decode(TestHTTPUploadSummary.self, from: try client.readResponse().body)
        var expected = Data()
        for size in [1, 63, 65, 1000] { expected.append(body.prefix(size)) }
        XCTAssertEqual(chunked, TestHTTPUploadSummary(body: expected))
        let recorded = server.recordedRequests(path: "/upload/digest")
        XCTAssertEqual(recorded.map(\.body.count), [0, 0], "bodies are not kept")
        XCTAssertEqual(recorded.first?.streamedBodySummary, summary)
    }

    func testServerSentEventsResumeAfterLastEventID() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/sse?count=5&per=2&retry=7")
        let first = try client.readResponse()
        XCTAssertEqual(first.header("Content-Type"), "text/event-stream")
        XCTAssertEqual(first.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(first.chunkSizes, [10, 21, 21], "one chunk per event, as a live server sends them")
        XCTAssertEqual(
            String(decoding: first.body, as: UTF8.self),
            "retry: 7\n\nid: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\n")
        client.get("/sse?count=5&per=2", extra: "Last-Event-ID: 4\r\n")
        XCTAssertEqual(String(decoding: try client.readResponse().body, as: UTF8.self), "id: 5\ndata: event 5\n\n")
        client.get("/sse?count=5&per=2", extra: "Last-Event-ID: 5\r\n")
        XCTAssertEqual(try client.readResponse().status, 204)
    }

    func testResumableHonoursRangeAndIfRange() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let body = TestHTTPServer.deterministicBytes(count: 1000, seed: 2)
        client.get("/resumable?size=1000&seed=2")
        let whole = try client.readResponse()
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, body)
        XCTAssertEqual(whole.header("ETag"), "\"s2-1000\"")
        XCTAssertEqual(whole.header("Accept-Ranges"), "bytes")
        client.get("/resumable?size=1000&seed=2", extra: "Range: bytes=100-\r\nIf-Range: \"s2-1000\"\r\n")
        let partial = try client.readResponse()
        XCTAssertEqual(partial.status, 206)
        XCTAssertEqual(partial.header("Content-Range"), "bytes 100-999/1000")
        XCTAssertEqual(partial.body, body.subdata(in: 100..<1000))
        client.get("/resumable?size=1000&seed=2", extra: "Range: bytes=100-199\r\n")
        XCTAssertEqual(try client.readResponse().body, body.subdata(in: 100..<200))
        client.get("/resumable?size=1000&seed=2", extra: "Range: bytes=100-\r\nIf-Range: \"old\"\r\n")
        let changed = try client.readResponse()
        XCTAssertEqual(changed.status, 200, "a validator that does not match gets the whole body")
        XCTAssertEqual(changed.body, body)
        client.get("/resumable?size=1000&seed=2", extra: "Range: bytes=1000-\r\n")
        let beyond = try client.readResponse()
        XCTAssertEqual(beyond.status, 416)
        XCTAssertEqual(beyond.header("Content-Range"), "bytes */1000")
    }

    func testResumableCutsAtTheGivenOffsets() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/resumable?size=1000&cut=300,600")
        let head = try client.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(client.readToEnd().count, 300, "closed after the bytes before the first cut")
        let again = try RawHTTPClient(port: server.port)
        again.get("/resumable?size=1000&cut=300,600", extra: "Range: bytes=300-\r\n")
        XCTAssertEqual(try again.readHead().status, 206)
        XCTAssertEqual(again.readToEnd().count, 300, "cut again at 600")
    }

    func testBytesAreDeterministicAndLarge() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        let size = 10 * 1024 * 1024
        client.get("/bytes?size=\(size)&seed=42")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Content-Length"), String(size))
        XCTAssertEqual(response.body.count, size)
        XCTAssertEqual(response.body, TestHTTPServer.deterministicBytes(count: size, seed: 42))
        XCTAssertNotEqual(
            TestHTTPServer.deterministicBytes(count: 64, seed: 1), TestHTTPServer.deterministicBytes(count: 64, seed: 2)
        )
        XCTAssertEqual(TestHTTPServer.deterministicBytes(count: 10, seed: 9).count, 10)
    }

    func testCustomRoutesWinAndMatchByMethodAndPath() throws {
        let server = try makeServer(self)
        server.route("GET", "/hello") { _ in .text("custom hello") }
        server.route("/any") { request in .text("any \(request.method)", status: 201) }
        server.route("POST", "/json") { request in .json(["got": request.bodyText ?? ""]) }
        server.route("/any") { _ in .jsonString("{\"later\":true}") }

        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().text, "custom hello")
        client.get("/hello", method: "HEAD")
        let head = try client.readResponse(isHead: true)
        XCTAssertEqual(head.header("Content-Length"), "12")
        client.get("/hello", method: "DELETE")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
        client.get("/any", method: "OPTIONS")
        XCTAssertEqual(try client.readResponse().text, "{\"later\":true}")
        client.send("POST /json HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi")
        XCTAssertEqual(try client.readResponse().text, "{\"got\":\"hi\"}")
        client.get("/json")
        XCTAssertEqual(try client.readResponse().status, 404)
        client.get("/hello?x=1")
        XCTAssertEqual(try client.readResponse().text, "custom hello")

        server.removeAllRoutes()
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
    }

    func testCustomRouteHeadersAndConnectionClose() throws {
        let server = try makeServer(self)
        server.route("/custom") { _ in
            TestHTTPResponse(
                status: 202, headers: [("X-One", "1"), ("X-Two", "2"), ("Connection", "close")], body: Data("ok".utf8))
        }
        let client = try RawHTTPClient(port: server.port)
        client.get("/custom")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 202)
        XCTAssertEqual(response.headers.map(\.0).prefix(2), ["X-One", "X-Two"])
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(response.text, "ok")
        XCTAssertTrue(client.peerClosed())
    }

    func testURLHelpers() throws {
        let server = try makeServer(self)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(server.url("/echo?x=1").absoluteString, "http://127.0.0.1:\(server.port)/echo?x=1")
        XCTAssertEqual(server.url("hello").absoluteString, "http://127.0.0.1:\(server.port)/hello")
        XCTAssertEqual(server.localhostURL.absoluteString, "http://localhost:\(server.port)")
        XCTAssertGreaterThan(server.port, 0)
    }
}

/// Construction options.
final class ConstructionTests: XCTestCase {
    func testFixedPortAndIPv6AndBadHost() throws {
        let first = try makeServer(self)
        XCTAssertThrowsError(try TestHTTPServer(port: first.port)) { error in
            XCTAssertEqual((error as? TestHTTPServerError)?.operation, "bind")
        }
        XCTAssertThrowsError(try TestHTTPServer(host: "not-an-address"))
        XCTAssertThrowsError(try TestHTTPServer(port: 70_000))
        let fixedPort = first.port
        first.shutdown()
        let again = try TestHTTPServer(port: fixedPort)
        defer { again.shutdown() }
        XCTAssertEqual(again.port, fixedPort)
        let client = try RawHTTPClient(port: fixedPort)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().status, 200)

        guard let v6 = try? TestHTTPServer(host: "::1") else { throw XCTSkip("IPv6 loopback unavailable") }
        defer { v6.shutdown() }
        XCTAssertEqual(v6.baseURL.absoluteString, "http://[::1]:\(v6.port)")
        if let output = runTool("/usr/bin/curl", ["-s", v6.url("/hello").absoluteString]) {
            XCTAssertEqual(String(decoding: output, as: UTF8.self), "Hello, Courier")
        }
    }
}
