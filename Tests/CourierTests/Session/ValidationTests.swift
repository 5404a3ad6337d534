import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// validate(): status codes, content types and custom rules, applied before any handler runs.
final class ValidationTests: XCTestCase {
    var server: TestHTTPServer!
    let session = Session()

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    func testStatusCodeRanges() async {
        let created = await session.request(server.url("/status/201")).validate(statusCode: [201]).response()
        XCTAssertNil(created.error)
        let teapot = await session.request(server.url("/status/418")).validate(statusCode: 200..<300).response()
        XCTAssertSameError(teapot.error, .unacceptableStatusCode(418))
        XCTAssertEqual(teapot.statusCode, 418, "the response stays available with the error")
    }

    func testContentTypes() async {
        let json = await session.request(server.url("/echo")).validate(contentType: ["application/json"]).response()
        XCTAssertNil(json.error)
        let wildcard = await session.request(server.url("/echo")).validate(contentType: ["application/*"]).response()
        XCTAssertNil(wildcard.error)
        let text = await session.request(server.url("/hello")).validate(contentType: ["application/json"]).response()
        guard let failure_ = text.error, failure_ == .unacceptableContentType, let received = failure_.subject else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: text.error))")
        }
        XCTAssertTrue(received.hasPrefix("text/plain"), received)
    }

    func testCustomValidationSeesTheResponseAndRunsFirst() async {
        struct Rejected: Error {}
        let response = await session.request(server.url("/hello"))
            .validate { request, response, data in
                XCTAssertEqual(request?.url.path, "/hello")
                XCTAssertEqual(response.statusCode, 200)
                return data == Data("Hello, Courier".utf8)
                    ? .failure(.invalidRequest(reason: "custom rule")) : .success(())
            }
            .validate(statusCode: [500])
            .response()
        XCTAssertSameError(
            response.error, .invalidRequest(reason: "custom rule"), "validations run in order, first failure wins")
    }
}
