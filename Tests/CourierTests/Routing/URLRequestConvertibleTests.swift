import Courier
import CourierTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `.url(_:)` and `.urlRequest(_:)`: requests without a router, checked when built.
final class URLRequestConvertibleTests: XCTestCase {
    private func build(_ convertible: any URLRequestConvertible) throws -> URLRequest {
        try convertible.asURLRequest()
    }

    func testAStringURLBuildsAGetWithNoHeaders() throws {
        let request = try build(.url("https://example.com/get?a=1"))
        XCTAssertEqual(request.url?.absoluteString, "https://example.com/get?a=1")
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.allHTTPHeaderFields ?? [:], [:])
        XCTAssertNil(request.httpBody)
    }

    func testMethodAndHeadersAreSentAsGiven() throws {
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:8080/items/7"))
        for convertible: any URLRequestConvertible in [
            .url("http://127.0.0.1:8080/items/7", method: .delete, headers: [.authorization(bearerToken: "t")]),
            .url(url, method: .delete, headers: [.authorization(bearerToken: "t")])
        ] {
            let request = try build(convertible)
            XCTAssertEqual(request.url, url)
            XCTAssertEqual(request.httpMethod, "DELETE")
            XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        }
    }

    func testABadURLThrowsInvalidURLAndAnotherSchemeUnsupportedScheme() throws {
        for (text, kind) in [
            ("not a url", CourierError.invalidURL), ("/relative/path", .invalidURL), ("https:///nohost", .invalidURL),
            ("http://exa mple.com/", .invalidURL), ("file:///etc/passwd", .unsupportedScheme),
            ("ftp://example.com/x", .unsupportedScheme)
        ] {
            XCTAssertThrowsError(try build(.url(text)), text) { error in
                XCTAssertEqual(error as? CourierError, kind, "\(text): \(error)")
            }
            if let url = URL(string: text) {
                XCTAssertThrowsError(try build(.url(url)), text) { error in
                    XCTAssertEqual(error as? CourierError, kind, "\(text) as a URL: \(error)")
                }
            }
        }
        XCTAssertThrowsError(try build(.url("ftp://example.com/x"))) { error in
            XCTAssertEqual((error as? CourierError)?.subject, "ftp")
        }
    }

    func testAnInvalidMethodOrHeaderThrowsInvalidRequestOrInvalidHeader() throws {
        XCTAssertThrowsError(try build(.url("https://example.com/", method: "GE T"))) { error in
            XCTAssertEqual(error as? CourierError, .invalidRequest)
        }
        XCTAssertThrowsError(try build(.url("https://example.com/", headers: ["X-Bad": "a\r\nb"]))) { error in
            XCTAssertEqual(error as? CourierError, .invalidHeader)
        }
    }

    func testAURLRequestIsSentAsItIs() throws {
        var prepared = URLRequest(url: try XCTUnwrap(URL(string: "https://example.com/upload")))
        prepared.httpMethod = "PUT"
        prepared.httpBody = Data("body".utf8)
        prepared.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        prepared.timeoutInterval = 7
        XCTAssertEqual(try build(.urlRequest(prepared)), prepared)
    }

    /// A router that writes its own `asURLRequest()` compiles whatever its parameters' type, but
    /// Courier builds a router's request from its members: parameters it cannot read fail the
    /// request with `invalidRequest` naming them, and nothing is sent.
    func testARouterWithUnreadableParametersFailsTheRequest() async throws {
        let stubs = StubTransport()
        stubs.on(.any, reply: .empty(statusCode: 200))
        let response = await Session(transport: stubs).request(OwnBuilder.search).response()
        XCTAssertEqual(response.error, .invalidRequest)
        XCTAssertTrue(response.error?.reason?.contains("parameters") == true, "\(String(describing: response.error))")
        XCTAssertTrue(stubs.requests.isEmpty)
        XCTAssertThrowsError(try OwnBuilder.search.resolvedURL()) { error in
            XCTAssertEqual(error as? CourierError, .invalidRequest)
        }
    }

    func testStandardTypesAreNotURLRequestConvertible() {
        let values: [Any] = [
            "https://example.com/", URL(fileURLWithPath: "/"), URLRequest(url: URL(fileURLWithPath: "/"))
        ]
        for value in values {
            XCTAssertFalse(value is any URLRequestConvertible, "\(type(of: value)) conforms")
        }
    }
}

/// A router with its own `asURLRequest()` and parameters of a type Courier cannot read.
private enum OwnBuilder: Router {
    case search
    var baseURL: String { "https://api.example.test" }
    var path: String { "/search" }
    var method: HTTPMethod { .get }
    var parameters: [String: String] { ["q": "swift"] }
    func asURLRequest() throws -> URLRequest {
        URLRequest(url: URL(fileURLWithPath: "/"))
    }
}
