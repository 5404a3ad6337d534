import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects over real sockets: limits, and secrets never crossing to another origin.
final class RedirectIntegrationTests: XCTestCase {
    var origin: TestHTTPServer!
    var other: TestHTTPServer!
    let session = Session()
    let secrets = [
        "Authorization": "Bearer secret", "Cookie": "sid=1", "Proxy-Authorization": "Basic eA==",
        "X-Api-Key": "key-1", "X-Request-Id": "kept"
    ]

    override func setUpWithError() throws {
        origin = try TestHTTPServer()
        other = try TestHTTPServer()
    }

    override func tearDown() {
        origin.shutdown()
        other.shutdown()
    }

    private func redirect(to target: URL) -> URLRequest {
        let encoded = target.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var request = URLRequest(url: origin.url("/redirect?to=\(encoded)&status=302"))
        for (name, value) in secrets { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func testSecretsAreDroppedOnCrossHostRedirect() async throws {
        // Another port, and `localhost` instead of 127.0.0.1: both change the origin.
        let target = try XCTUnwrap(URL(string: "http://localhost:\(other.port)/echo"))
        let echo = try await session.request(.urlRequest(redirect(to: target))).validate().decodable(TestHTTPEcho.self)
        for name in ["authorization", "cookie", "proxy-authorization", "x-api-key"] {
            XCTAssertNil(echo.headers[name], "\(name) must not cross origins")
        }
        XCTAssertEqual(echo.headers["x-request-id"], "kept")
        XCTAssertEqual(other.recordedRequests(path: "/echo").count, 1)
    }

    func testSecretsAreKeptOnSameOriginRedirect() async throws {
        let echo = try await session.request(.urlRequest(redirect(to: origin.url("/echo")))).validate().decodable(
            TestHTTPEcho.self)
        XCTAssertEqual(echo.headers["authorization"], "Bearer secret")
        XCTAssertEqual(echo.headers["cookie"], "sid=1")
        XCTAssertEqual(echo.headers["x-api-key"], "key-1")
    }

    func testUserNamedSensitiveHeadersAreDropped() async throws {
        var configuration = Session.Configuration()
        configuration.security.secretHeaders = ["X-Request-Id"]
        let target = try XCTUnwrap(URL(string: "http://localhost:\(other.port)/echo"))
        let echo = try await Session(configuration: configuration).request(.urlRequest(redirect(to: target)))
            .decodable(TestHTTPEcho.self)
        XCTAssertNil(echo.headers["x-request-id"])
        XCTAssertNil(echo.headers["authorization"])
    }

    func testChainWithinTheLimitIsFollowed() async throws {
        let response = await session.request(.url(origin.url("/redirect-chain?n=10"))).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.metrics?.redirectCount, 10)
        XCTAssertEqual(origin.connectionsAccepted, 1, "redirect hops reuse the connection")
    }

    func testChainBeyondTheLimitFails() async {
        let response = await session.request(.url(origin.url("/redirect-chain?n=11"))).response()
        XCTAssertSameError(response.error, .tooManyRedirects(limit: 10))
        XCTAssertEqual(origin.recordedRequests(path: "/redirect-chain").count, 11)
    }

    func testPostBecomesGetOn303AndKeepsBodyOn307() async throws {
        let target =
            origin.url("/echo").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        for (status, method, body) in [(303, "GET", ""), (307, "POST", "data")] {
            var request = URLRequest(url: origin.url("/redirect?to=\(target)&status=\(status)"))
            request.httpMethod = "POST"
            request.httpBody = Data("data".utf8)
            let echo = try await session.request(.urlRequest(request)).validate().decodable(TestHTTPEcho.self)
            XCTAssertEqual(echo.method, method, "\(status)")
            XCTAssertEqual(echo.body ?? "", body, "\(status)")
        }
    }
}
