import CourierTestServer
import Foundation
import XCTest

/// Response sequences, queued faults, waiting for requests and JSON request bodies.
final class ScriptingTests: XCTestCase {
    func testSequenceRoutesAnswerInOrderThenRepeatTheLast() throws {
        let server = try makeServer(self)
        server.route("GET", "/me", responses: [.jsonString(#"{"error":"expired"}"#, status: 401), .text("Ada")])
        server.route("/empty", responses: [])
        let client = try RawHTTPClient(port: server.port)
        var statuses: [Int] = []
        var bodies: [String] = []
        for _ in 0..<3 {
            client.get("/me")
            let response = try client.readResponse()
            statuses.append(response.status)
            bodies.append(response.text)
        }
        XCTAssertEqual(statuses, [401, 200, 200])
        XCTAssertEqual(bodies, [#"{"error":"expired"}"#, "Ada", "Ada"])
        client.get("/empty")
        XCTAssertEqual(try client.readResponse().status, 500)
        client.get("/me", method: "POST")
        XCTAssertEqual(try client.readResponse().status, 404, "the sequence route is GET only")
    }

    func testFailNextBreaksTheNextRequestsThenAnswersNormally() throws {
        let server = try makeServer(self)
        server.route("GET", "/items") { _ in .text("items") }
        server.failNext(2, path: "/items", with: .closeBeforeHeaders)
        for _ in 0..<2 {
            let client = try RawHTTPClient(port: server.port)
            client.get("/items")
            XCTAssertEqual(client.readToEnd(), Data(), "closed without an answer")
        }
        let client = try RawHTTPClient(port: server.port)
        client.get("/items")
        XCTAssertEqual(try client.readResponse().text, "items")
        XCTAssertEqual(server.recordedRequests(path: "/items").count, 3)
    }

    func testFailNextWithAResponseAndOnlyForItsPath() throws {
        let server = try makeServer(self)
        server.failNext(1, path: "/hello", with: .empty(status: 503))
        server.failNext(with: .truncate(sendBytes: 3, declaredLength: 10))
        let client = try RawHTTPClient(port: server.port)
        client.get("/status/200")
        let head = try client.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(
            head.headers.first { $0.0 == "Content-Length" }?.1, "10", "the any-path fault hit the first request")
        let other = try RawHTTPClient(port: server.port)
        other.get("/hello")
        XCTAssertEqual(try other.readResponse().status, 503)
        other.get("/hello")
        XCTAssertEqual(try other.readResponse().text, "Hello, Courier")
    }

    func testRemoveAllFaults() throws {
        let server = try makeServer(self)
        server.failNext(5, with: .closeBeforeHeaders)
        server.removeAllFaults()
        let client = try RawHTTPClient(port: server.port)
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().text, "Hello, Courier")
    }

    func testWaitForRequests() async throws {
        let server = try makeServer(self)
        let early = await server.waitForRequests(count: 1, timeout: 0.05)
        XCTAssertFalse(early)
        let client = try RawHTTPClient(port: server.port)
        client.get("/never")
        let arrived = await server.waitForRequests(count: 1, path: "/never")
        XCTAssertTrue(arrived)
        let elsewhere = await server.waitForRequests(count: 1, path: "/hello", timeout: 0.05)
        XCTAssertFalse(elsewhere)
    }

    func testJSONBodiesDecode() throws {
        struct SignIn: Codable, Equatable { var email: String }
        let request = TestHTTPRequest(method: "POST", rawTarget: "/auth/signin", body: Data(#"{"email":"a@b.c"}"#.utf8))
        XCTAssertEqual(try request.decodeJSON(SignIn.self), SignIn(email: "a@b.c"))
        XCTAssertThrowsError(try TestHTTPRequest(method: "GET", rawTarget: "/").decodeJSON(SignIn.self))
    }
}
