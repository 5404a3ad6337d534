import Courier
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier against the third-party httpbin (PyPI `httpbin` on gunicorn, loopback only).
final class HTTPBinConformanceTests: XCTestCase {
    let session = Session()

    private func request(
        _ method: String, _ path: String, body: String? = nil,
        headers: [String: String] = [:]
    ) throws -> URLRequest {
        var request = try URLRequest(url: XCTUnwrap(URL(string: HTTPBin.url(path))))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func testGetEchoesQueryAndHeaders() async throws {
        let echo = try await session.request(request("GET", "/get?a=1&b=two", headers: ["X-Trace": "abc"]))
            .validate().decodable(HTTPBin.Echo.self)
        XCTAssertEqual(echo.args, ["a": "1", "b": "two"])
        XCTAssertEqual(echo.headers["X-Trace"], "abc")
        XCTAssertEqual(echo.headers["User-Agent"], "Courier/\(CourierInfo.version)")
    }

    func testBodyMethodsSendTheirBodies() async throws {
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            let echo = try await session.request(
                request(
                    method, "/\(method.lowercased())", body: #"{"k":"v"}"#,
                    headers: ["Content-Type": "application/json"])
            )
            .validate().decodable(HTTPBin.Echo.self)
            XCTAssertEqual(echo.json, .object(["k": .string("v")]), method)
            XCTAssertEqual(echo.headers["Content-Type"], "application/json", method)
            XCTAssertNil(echo.headers["Expect"], "\(method) must not send Expect: 100-continue")
        }
    }

    func testPutWithoutBodySendsZeroContentLength() async throws {
        let echo = try await session.request(request("PUT", "/put")).validate().decodable(HTTPBin.Echo.self)
        XCTAssertEqual(echo.headers["Content-Length"], "0")
        XCTAssertEqual(echo.data, "")
    }

    func testHeadReturnsHeadersWithoutBody() async throws {
        let response = await session.request(try request("HEAD", "/get")).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertNil(response.error)
        XCTAssertTrue(response.data?.isEmpty ?? true)
        XCTAssertNotNil(response.head?.value(forHeader: "Content-Length"))
    }

    func testHeadersEndpointReflectsCustomHeaders() async throws {
        struct Headers: Decodable { var headers: [String: String] }
        let result = try await session.request(
            request("GET", "/headers", headers: ["X-One": "1", "X-Two": "two words"])
        )
        .decodable(Headers.self)
        XCTAssertEqual(result.headers["X-One"], "1")
        XCTAssertEqual(result.headers["X-Two"], "two words")
    }

    func testStatusCodesAreReportedAndValidated() async throws {
        for code in [200, 201, 204, 400, 404, 409, 418, 500, 503] {
            let response = await session.request(try request("GET", "/status/\(code)")).response()
            XCTAssertEqual(response.statusCode, code)
            XCTAssertNil(response.error, "status \(code) alone is not an error without validate()")
            let validated = await session.request(try request("GET", "/status/\(code)")).validate().response()
            if (200..<300).contains(code) {
                XCTAssertNil(validated.error)
            } else {
                XCTAssertSameError(validated.error, .unacceptableStatusCode(code))
            }
        }
    }

    func testRelativeAndAbsoluteRedirectsAreFollowed() async throws {
        for path in ["/redirect/3", "/absolute-redirect/3", "/relative-redirect/2"] {
            let response = await session.request(try request("GET", path)).response()
            XCTAssertEqual(response.statusCode, 200, path)
            XCTAssertEqual(response.request?.url.path, "/get", path)
            XCTAssertEqual(response.metrics?.redirectCount, path.hasSuffix("2") ? 2 : 3, path)
        }
    }

    func testRedirectLimitIsEnforced() async throws {
        var configuration = Session.Configuration()
        configuration.redirectPolicy = .follow(max: 2)
        let limited = Session(configuration: configuration)
        let response = await limited.request(try request("GET", "/redirect/3")).response()
        XCTAssertSameError(response.error, .tooManyRedirects(limit: 2))
    }

    func testDoNotFollowReturnsTheRedirect() async throws {
        var configuration = Session.Configuration()
        configuration.redirectPolicy = .doNotFollow
        let response = await Session(configuration: configuration).request(try request("GET", "/redirect/1")).response()
        XCTAssertEqual(response.statusCode, 302)
        XCTAssertNotNil(response.head?.value(forHeader: "Location"))
    }

    func testCompressedBodiesAreDecoded() async throws {
        struct Flags: Decodable { var gzipped: Bool?; var deflated: Bool?; var brotli: Bool? }
        let gzip = try await session.request(request("GET", "/gzip")).decodable(Flags.self)
        XCTAssertEqual(gzip.gzipped, true)
        let deflate = try await session.request(request("GET", "/deflate")).decodable(Flags.self)
        XCTAssertEqual(deflate.deflated, true)
        let brotli = try await session.request(request("GET", "/brotli")).decodable(Flags.self)
        XCTAssertEqual(brotli.brotli, true)
    }

    func testBinaryBytesArriveIntact() async throws {
        let data = try await session.request(request("GET", "/bytes/4096?seed=7")).validate().data()
        XCTAssertEqual(data.count, 4096)
        let again = try await session.request(request("GET", "/bytes/4096?seed=7")).validate().data()
        XCTAssertEqual(data, again, "the same seed gives the same bytes")
    }

    func testStreamedLinesArriveComplete() async throws {
        let text = try await session.request(request("GET", "/stream/5")).validate().string()
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
    }

    func testDelayedResponseAndRequestTimeout() async throws {
        let ok = await session.request(try request("GET", "/delay/1")).response()
        XCTAssertEqual(ok.statusCode, 200)
        var short = try request("GET", "/delay/3")
        short.timeoutInterval = 0.5
        let timedOut = await session.request(short).response()
        XCTAssertSameError(timedOut.error, .timedOut(.request))
    }

    func testBasicAuth() async throws {
        let credentials = Data("user:secret".utf8).base64EncodedString()
        let good = await session.request(
            try request(
                "GET", "/basic-auth/user/secret",
                headers: ["Authorization": "Basic \(credentials)"])
        ).response()
        XCTAssertEqual(good.statusCode, 200)
        let bad = await session.request(
            try request(
                "GET", "/basic-auth/user/other",
                headers: ["Authorization": "Basic \(credentials)"])
        ).response()
        XCTAssertEqual(bad.statusCode, 401)
    }

    func testCookiesHeaderIsSent() async throws {
        struct Cookies: Decodable { var cookies: [String: String] }
        let result = try await session.request(request("GET", "/cookies", headers: ["Cookie": "a=1; b=2"]))
            .decodable(Cookies.self)
        XCTAssertEqual(result.cookies, ["a": "1", "b": "2"])
    }
}
