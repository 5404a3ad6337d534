import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import Courier

/// Courier's own request value: validated once at the edge, header order kept to the wire.
final class HTTPRequestTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    func testInvalidRequestsFailWhereTheyAreBuiltNamingWhatIsWrong() throws {
        let url = try XCTUnwrap(URL(string: "https://a.test/x"))
        let cases: [(String, () throws -> HTTPRequest, String, String?)] = [
            ("file URL", { try HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")) }, "unsupportedScheme", "file"),
            ("no host", { try HTTPRequest(url: XCTUnwrap(URL(string: "http:///x"))) }, "invalidURL", nil),
            ("bad method", { try HTTPRequest(method: "GET /x HTTP/1.1\r\n", url: url) }, "invalidRequest", nil),
            (
                "CR in a value", { try HTTPRequest(url: url, headers: ["X-A": "1\r\nX-Evil: 2"]) }, "invalidHeader",
                "X-A"
            ),
            ("space in a name", { try HTTPRequest(url: url, headers: ["X A": "1"]) }, "invalidHeader", "X A"),
            (
                "a field past the size limit",
                {
                    try HTTPRequest(
                        url: url,
                        headers: ["X-Big": String(repeating: "a", count: SecurityPolicy.maxRequestHeaderFieldSize)])
                }, "invalidHeader", "X-Big"
            ),
            ("zero timeout", { try HTTPRequest(url: url, timeout: 0) }, "invalidRequest", nil),
            ("NaN timeout", { try HTTPRequest(url: url, timeout: .nan) }, "invalidRequest", nil)
        ]
        for (name, build, kind, subject) in cases {
            XCTAssertThrowsError(try build(), name) { error in
                let error = error as? CourierError
                XCTAssertEqual(error?.kind, kind, name)
                if let subject { XCTAssertEqual(error?.subject, subject, name) }
            }
        }
    }

    func testAURLRequestIsValidatedOnceAndItsDefaultTimeoutMeansNone() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://a.test/x")))
        XCTAssertNil(try HTTPRequest(request).timeout, "Foundation's 60 s default is not a timeout of the request")
        request.timeoutInterval = 7
        XCTAssertEqual(try HTTPRequest(request).timeout, 7)
        request.httpBodyStream = InputStream(data: Data("x".utf8))
        XCTAssertThrowsError(try HTTPRequest(request)) { error in
            XCTAssertEqual((error as? CourierError)?.kind, "invalidRequest")
        }
        let invalid = Session().request(URLRequest(url: try XCTUnwrap(URL(string: "ftp://a.test/x"))))
        XCTAssertNil(invalid.request, "an invalid request is refused where it is made")
    }

    func testHeadersReachTheWireInTheOrderTheRouterWroteThem() async throws {
        struct Ordered: Router {
            let baseURL: String
            var path: String { "/hello" }
            var method: HTTPMethod { .get }
            var defaultHeaders: HTTPHeaders { ["X-Zeta": "1", "Accept": "application/json"] }
            var headers: HTTPHeaders { ["X-Mid": "2", "X-Alpha": "3"] }
        }
        let response = await Session().request(Ordered(baseURL: server.baseURL.absoluteString)).response()
        XCTAssertEqual(response.statusCode, 200)
        let recorded = try XCTUnwrap(server.recordedRequests(path: "/hello").first)
        let names = recorded.headers.map(\.name).filter { ["X-Zeta", "Accept", "X-Mid", "X-Alpha"].contains($0) }
        XCTAssertEqual(names, ["X-Zeta", "Accept", "X-Mid", "X-Alpha"])
    }

    func testAnAdaptedRequestKeepsTheOrderTheTimeoutAndABodyReadWhileSending() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-adapt-\(UUID()).bin")
        try Data(repeating: 7, count: 1000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var original = try HTTPRequest(
            method: .put, url: XCTUnwrap(URL(string: "https://a.test/up")), headers: ["X-B": "1", "X-A": "2"])
        try UploadBody.file(file).apply(to: &original)
        var adapted = original.urlRequest
        XCTAssertNil(adapted.httpBody, "a body read while sending is not copied into memory")
        adapted.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        adapted.setValue("9", forHTTPHeaderField: "X-A")
        let result = try HTTPRequest(adapted: adapted, from: original)
        XCTAssertEqual(result.headers.map(\.name), ["X-B", "X-A", "Authorization"])
        XCTAssertEqual(result.headers["X-A"], "9")
        XCTAssertNil(result.timeout)
        XCTAssertEqual(result.body, original.body)
        XCTAssertEqual(try result.collectedBody(), Data(repeating: 7, count: 1000))
        // An adapter that removes an in-memory body removes it.
        let post = try HTTPRequest(method: .post, url: XCTUnwrap(URL(string: "https://a.test/p")), body: Data("x".utf8))
        var emptied = post.urlRequest
        emptied.httpBody = nil
        XCTAssertEqual(try HTTPRequest(adapted: emptied, from: post).body, .none)
    }
}
