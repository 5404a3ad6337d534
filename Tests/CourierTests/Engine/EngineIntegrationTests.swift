import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The curl engine and Session against the in-process test server.
final class EngineIntegrationTests: XCTestCase {
    var server: TestHTTPServer!
    var session: Session!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        session = Session()
    }

    override func tearDown() {
        server.shutdown()
    }

    private func request(
        _ path: String, method: String = "GET", body: Data? = nil,
        headers: [String: String] = [:]
    ) -> URLRequest {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func testEveryMethodIsSentWithItsBody() async throws {
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            let body = method == "GET" ? nil : Data("payload-\(method)".utf8)
            let echo = try await session.request(.urlRequest(request("/echo", method: method, body: body)))
                .validate().decodable(TestHTTPEcho.self)
            XCTAssertEqual(echo.method, method)
            XCTAssertEqual(echo.body, body.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        let head = await session.request(.urlRequest(request("/echo", method: "HEAD"))).response()
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertNil(head.error)
        XCTAssertEqual(head.data?.count ?? 0, 0)
        XCTAssertNil(head.value ?? nil, "no body for HEAD")
        XCTAssertEqual(server.recordedRequests(path: "/echo").last?.method, "HEAD")
    }

    func testHeadersRoundTrip() async throws {
        let echo = try await session.request(
            .urlRequest(request("/echo", headers: ["X-Custom": "value 1", "Accept": "application/json"]))
        )
        .decodable(TestHTTPEcho.self)
        XCTAssertEqual(echo.headers["x-custom"], "value 1")
        XCTAssertEqual(echo.headers["accept"], "application/json")
        XCTAssertEqual(echo.headers["user-agent"], "Courier/\(CourierInfo.version)")
        let response = await session.request(.urlRequest(request("/set-cookie?session=abc"))).response()
        XCTAssertNotNil(response.head?.value(forHeader: "Set-Cookie"))
    }

    func testHeaderInjectionNeverReachesTheWire() async throws {
        // Foundation drops a CR/LF value from URLRequest itself; the engine checks names and values again.
        let echo = try await session.request(.urlRequest(request("/echo", headers: ["X-Evil": "a\r\nX-Injected: 1"])))
            .decodable(TestHTTPEcho.self)
        XCTAssertNil(echo.headers["x-injected"])
        let response = await session.request(.urlRequest(request("/echo", headers: ["Bad Name": "v"]))).response()
        guard let failure_ = response.error, failure_ == .invalidHeader, let name = failure_.subject else {
            return XCTFail("expected invalidHeader, got \(String(describing: response.error))")
        }
        XCTAssertEqual(name, "Bad Name")
        XCTAssertEqual(server.requestsServed, 1, "the invalid request was never sent")
    }

    func testSequentialRequestsReuseOneConnection() async throws {
        for index in 0..<10 {
            let response = await session.request(.urlRequest(request("/hello"))).response()
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.metrics?.connectionReused, index > 0, "request \(index)")
            XCTAssertEqual(response.metrics?.httpVersion, .http1_1)
            XCTAssertEqual(response.metrics?.remoteAddress, "127.0.0.1")
            XCTAssertEqual(response.metrics?.remotePort, server.port)
        }
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testTwoHundredConcurrentRequestsAllSucceed() async throws {
        let session = self.session!
        let url = server.url("/echo")
        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    var request = URLRequest(url: url)
                    request.setValue("\(index)", forHTTPHeaderField: "X-Index")
                    let echo = try? await session.request(.urlRequest(request)).validate().decodable(TestHTTPEcho.self)
                    return echo?.headers["x-index"] == "\(index)" ? 200 : nil
                }
            }
            var collected: [Int?] = []
            for await status in group { collected.append(status) }
            return collected
        }
        XCTAssertEqual(statuses.count, 200)
        XCTAssertEqual(statuses.compactMap { $0 }.count, 200)
    }

    func testRequestTimeout() async {
        var short = request("/delay?ms=5000")
        short.timeoutInterval = 0.3
        let response = await session.request(.urlRequest(short)).response()
        XCTAssertSameError(response.error, .timedOut(.request))
    }

    func testIdleTimeout() async {
        var configuration = Session.Configuration()
        configuration.timeouts.idle = 1
        let response = await Session(configuration: configuration).request(.urlRequest(request("/headers-then-stall")))
            .response()
        XCTAssertSameError(response.error, .timedOut(.idle))
    }

    func testConnectTimeout() async throws {
        let blackhole = Loopback.Blackhole()
        var configuration = Session.Configuration()
        configuration.timeouts.connect = 0.3
        let response = await Session(configuration: configuration).request(.url("http://127.0.0.1:\(blackhole.port)/"))
            .response()
        XCTAssertSameError(response.error, .timedOut(.connect))
        // A shorter whole-request limit fires first, even while still connecting.
        configuration.timeouts = .init(connect: 10, request: 0.3)
        let whole = await Session(configuration: configuration).request(.url("http://127.0.0.1:\(blackhole.port)/"))
            .response()
        XCTAssertSameError(whole.error, .timedOut(.request))
        withExtendedLifetime(blackhole) {}
    }

    func testConnectionRefused() async {
        let response = await session.request(.url("http://127.0.0.1:\(Loopback.closedPort())/")).response()
        guard response.error == .cannotConnect else {
            return XCTFail("expected cannotConnect, got \(String(describing: response.error))")
        }
    }

    func testDNSFailure() async {
        let response = await session.request(.url("http://no-such-host.invalid/")).response()
        XCTAssertSameError(response.error, .dnsFailure(host: "no-such-host.invalid"))
    }

    func testTruncatedBodiesAreErrors() async {
        let midBody = await session.request(.urlRequest(request("/truncated?send=100&declared=1000"))).response()
        guard midBody.error == .truncatedResponse else {
            return XCTFail("expected truncatedResponse, got \(String(describing: midBody.error))")
        }
        XCTAssertEqual(midBody.statusCode, 200, "the headers that did arrive are reported")
        let nothing = await session.request(.urlRequest(request("/close-before-headers"))).response()
        guard nothing.error == .truncatedResponse else {
            return XCTFail("expected truncatedResponse, got \(String(describing: nothing.error))")
        }
    }

    func testChunkedBodyIsReassembled() async throws {
        let data = try await session.request(.urlRequest(request("/chunked?chunks=50&size=1000"))).validate().data()
        XCTAssertEqual(data.count, 50_000)
    }

    func testCompressedBodiesAreDecoded() async throws {
        let gzip = try await session.request(.urlRequest(request("/gzip"))).validate().string()
        XCTAssertEqual(gzip, TestHTTPServer.gzipPlainText)
        let deflate = try await session.request(.urlRequest(request("/deflate"))).validate().string()
        XCTAssertEqual(deflate, TestHTTPServer.gzipPlainText)
        XCTAssertEqual(
            server.recordedRequests(path: "/gzip").first?.headers.values("Accept-Encoding"), ["gzip, br, zstd"]
        )
    }

    func testARequestsOwnAcceptEncodingIsTheOneSentAndItsBodyIsStillDecoded() async throws {
        // Courier sends its Accept-Encoding line among the request's own (not libcurl's): a
        // request that sets the header keeps its value, in one line, and decompression stays on.
        var own = request("/gzip")
        own.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let gzip = try await session.request(.urlRequest(own)).validate().string()
        XCTAssertEqual(gzip, TestHTTPServer.gzipPlainText)
        XCTAssertEqual(server.recordedRequests(path: "/gzip").last?.headers.values("Accept-Encoding"), ["gzip"])
        // The next request without one gets the default line again (the header lists are cached).
        _ = try await session.request(.urlRequest(request("/gzip"))).validate().string()
        XCTAssertEqual(
            server.recordedRequests(path: "/gzip").last?.headers.values("Accept-Encoding"), ["gzip, br, zstd"])
    }

    func testTenMebibyteBodyIsIntact() async throws {
        let size = 10 << 20
        let data = try await session.request(.urlRequest(request("/bytes?size=\(size)&seed=42"))).validate().data()
        XCTAssertEqual(data.count, size)
        XCTAssertEqual(
            TestHTTPServer.checksum(data),
            TestHTTPServer.checksum(TestHTTPServer.deterministicBytes(count: size, seed: 42)))
    }

    func testLargeUploadIsIntact() async throws {
        let body = TestHTTPServer.deterministicBytes(count: 3 << 20, seed: 9)
        let summary = try await session.request(.urlRequest(request("/upload", method: "POST", body: body)))
            .validate().decodable(TestHTTPUploadSummary.self)
        XCTAssertEqual(summary, TestHTTPUploadSummary(body: body))
        XCTAssertNil(server.recordedRequests(path: "/upload").first?.header("Expect"))
    }

    func testResponseSizeLimitCountsDecodedBytes() async {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 50_000
        let limited = Session(configuration: configuration)
        let declared = await limited.request(.urlRequest(request("/bytes?size=100000&seed=1"))).response()
        XCTAssertSameError(declared.error, .responseTooLarge(limit: 50_000))
        let chunked = await limited.request(.urlRequest(request("/chunked?chunks=10&size=10000"))).response()
        XCTAssertSameError(
            chunked.error, .responseTooLarge(limit: 50_000), "no Content-Length: counted while receiving")
        let gzip = await limited.request(.urlRequest(request("/gzip?size=80000"))).response()
        XCTAssertSameError(gzip.error, .responseTooLarge(limit: 50_000), "decoded bytes count, not wire bytes")
        let small = await limited.request(.urlRequest(request("/bytes?size=1000&seed=1"))).response()
        XCTAssertNil(small.error)
    }

    func testOnlyHTTPAndHTTPSAreAllowed() async throws {
        let file = await session.request(.url("file:///etc/passwd")).response()
        XCTAssertSameError(file.error, .unsupportedScheme("file"))
        let gopher = await session.request(
            .urlRequest(URLRequest(url: try XCTUnwrap(URL(string: "gopher://127.0.0.1:70/"))))
        )
        .response()
        XCTAssertSameError(gopher.error, .unsupportedScheme("gopher"))
        let target = "file:///etc/passwd".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let redirect = await session.request(.urlRequest(request("/redirect?to=\(target)"))).response()
        XCTAssertSameError(redirect.error, .redirectRefused(location: "file:///etc/passwd"))
    }

    func testInvalidURLStringIsATypedError() async {
        let response = await session.request(.url("http://exa mple.com/")).response()
        XCTAssertSameError(response.error, .invalidURL("http://exa mple.com/"))
    }
}
