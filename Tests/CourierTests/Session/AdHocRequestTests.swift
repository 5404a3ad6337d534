import Courier
import CourierTestServer
import Foundation
import XCTest

/// `session.request(url, method:parameters:headers:)` without a Router.
final class AdHocRequestTests: XCTestCase {
    func testMethodParametersAndHeaders() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let session = Session()
        let get = try await session.request(
            server.url("/echo?fixed=1").absoluteString, method: .get,
            parameters: .query(["q": "a b"])
        )
        .validate().decodable(TestHTTPEcho.self)
        XCTAssertEqual(get.method, "GET")
        XCTAssertEqual(get.query, ["fixed": "1", "q": "a b"])
        XCTAssertEqual(get.headers["accept"], "*/*", "no JSON Accept added (libcurl's default remains)")

        let post = try await session.request(
            server.url("/echo").absoluteString, method: .post,
            parameters: .body(["name": "Ada"]), headers: ["X-Trace": "7"]
        )
        .validate().decodable(TestHTTPEcho.self)
        XCTAssertEqual(post.method, "POST")
        XCTAssertEqual(post.body, #"{"name":"Ada"}"#)
        XCTAssertEqual(post.headers["content-type"], "application/json")
        XCTAssertEqual(post.headers["x-trace"], "7")
    }

    func testBadURLsAreTypedErrors() async {
        let session = Session()
        let relative = await session.request("/just/a/path", method: .get).response()
        guard relative.error == .invalidURL else {
            return XCTFail("expected invalidURL, got \(String(describing: relative.error))")
        }
        let file = await session.request("file:///etc/passwd", method: .get).response()
        XCTAssertSameError(file.error, .unsupportedScheme("file"))
    }
}
