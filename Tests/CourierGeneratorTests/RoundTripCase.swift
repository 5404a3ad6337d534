import Courier
import CourierTestServer
import Foundation
import XCTest

/// The generated routers, models and services against the in-process test server: the server sees
/// the method, path, query, headers and body the document describes, and the generated models
/// decode what it sends back.
class RoundTripCase: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.shutdown()
        server = nil
    }

    /// Answers `method path` with the request's own body (an echo), recording the request.
    func echo(_ method: String, _ path: String, status: Int = 200) {
        server.route(method, path) { request in
            .init(status: status, headers: [("Content-Type", "application/json")], body: request.body)
        }
    }

    func lastRequest(_ path: String) throws -> TestHTTPRequest {
        try XCTUnwrap(server.recordedRequests(path: path).last, "no request reached \(path)")
    }

    func query(_ request: TestHTTPRequest) -> [String] {
        request.queryItems.map { "\($0.name)=\($0.value)" }.sorted()
    }
}
