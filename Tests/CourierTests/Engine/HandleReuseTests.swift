import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pooled easy handles keep the session's options between plain transfers; nothing of one
/// request (method, body, headers, timeout) may reach the next one sent on the same handle.
final class HandleReuseTests: XCTestCase {
    var server: TestHTTPServer!
    var session: Session!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        // No default headers and no session request timeout: a request may then have no header
        // list and no timeout at all, which a reused handle must not take from the one before.
        var configuration = Session.Configuration()
        configuration.defaultHeaders = [:]
        configuration.timeouts.request = nil
        session = Session(configuration: configuration)
    }

    override func tearDown() {
        server.shutdown()
    }

    private func request(
        _ path: String, method: String, body: String? = nil,
        headers: [String: String] = [:], timeout: TimeInterval? = nil
    ) -> URLRequest {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let timeout { request.timeoutInterval = timeout }
        return request
    }

    func testMethodBodyAndHeadersNeverLeakIntoTheNextRequest() async throws {
        // Sequential requests, so every one of them runs on the same pooled handle.
        let steps: [(method: String, body: String?, header: String?)] = [
            ("POST", "first-body", "one"), ("GET", nil, nil), ("POST", "second", nil), ("GET", nil, "two"),
            ("HEAD", nil, "three"), ("GET", nil, nil), ("PUT", "put-body", nil), ("GET", nil, nil),
            ("DELETE", nil, nil), ("POST", "", nil), ("GET", nil, nil),
            // Same headers, with and without a body: the header list cached for the GET lacks the
            // lines that stop libcurl adding its own Content-Type to a POST.
            ("GET", nil, "same"), ("POST", "body", "same"), ("GET", nil, "same")
        ]
        for (index, step) in steps.enumerated() {
            let headers = step.header.map { ["X-Step": $0] } ?? [:]
            let response = await session.request(
                .urlRequest(
                    request(
                        "/echo", method: step.method, body: step.body,
                        headers: headers))
            ).validate().response()
            XCTAssertNil(response.error, "step \(index)")
            let recorded = server.recordedRequests(path: "/echo").last
            XCTAssertEqual(recorded?.method, step.method, "step \(index)")
            XCTAssertEqual(String(decoding: recorded?.body ?? Data(), as: UTF8.self), step.body ?? "", "step \(index)")
            XCTAssertEqual(recorded?.header("X-Step"), step.header, "step \(index)")
            if step.method == "GET" {
                XCTAssertNil(recorded?.header("Content-Length"), "step \(index): a GET has no body")
            }
            if step.method == "POST" {
                XCTAssertNil(recorded?.header("Content-Type"), "step \(index): no Content-Type was set")
            }
        }
    }

    func testAGETAfterAGETOrARedirectedPOSTSendsNoBody() async throws {
        // A handle whose last request was a GET without a body keeps those options, and the next
        // such GET sets none of them again; a POST redirected to a GET (303) configures the same
        // handle for both hops, so the GET that follows must still clear the POST's body.
        let steps: [(path: String, method: String, body: String?, arrives: (method: String, body: String))] = [
            ("/echo", "GET", nil, ("GET", "")), ("/echo", "GET", nil, ("GET", "")),
            ("/redirect?status=303&to=/echo", "POST", "redirected", ("GET", "")),
            ("/echo", "GET", nil, ("GET", "")),
            ("/redirect?status=307&to=/echo", "POST", "kept", ("POST", "kept")),
            ("/echo", "GET", nil, ("GET", "")), ("/echo", "GET", nil, ("GET", "")),
            ("/echo", "POST", "last", ("POST", "last")), ("/echo", "GET", nil, ("GET", ""))
        ]
        for (index, step) in steps.enumerated() {
            let response = await session.request(
                .urlRequest(request(step.path, method: step.method, body: step.body))
            ).validate().response()
            XCTAssertNil(response.error, "step \(index)")
            let recorded = server.recordedRequests(path: "/echo").last
            XCTAssertEqual(recorded?.method, step.arrives.method, "step \(index)")
            XCTAssertEqual(
                String(decoding: recorded?.body ?? Data(), as: UTF8.self), step.arrives.body, "step \(index)")
            if step.arrives.method == "GET" {
                XCTAssertNil(recorded?.header("Content-Length"), "step \(index): a GET has no body")
            }
        }
        XCTAssertEqual(server.recordedRequests(path: "/echo").count, steps.count)
    }

    func testARequestTimeoutDoesNotStayOnThePooledHandle() async throws {
        let short = await session.request(.urlRequest(request("/delay?ms=600", method: "GET", timeout: 0.2))).response()
        guard short.error == .timedOut else {
            return XCTFail("expected a timeout, got \(String(describing: short.error))")
        }
        // The next request has no timeout at all: it must not inherit 0.2 s.
        let long = await session.request(.urlRequest(request("/delay?ms=600", method: "GET"))).validate().response()
        XCTAssertNil(long.error)
        XCTAssertEqual(long.value.flatMap { $0.map { String(decoding: $0, as: UTF8.self) } }, "done")
    }

    func testSessionsWithOtherOptionsGetTheirOwnConfiguration() async throws {
        var configuration = Session.Configuration()
        configuration.automaticDecompression = false
        let plain = Session(configuration: configuration)
        let compressed = try await Session().request(.urlRequest(request("/gzip", method: "GET"))).validate().data()
        let raw = try await plain.request(.urlRequest(request("/gzip", method: "GET"))).validate().data()
        XCTAssertNotEqual(compressed, raw, "decompression follows each session's own setting")
        XCTAssertEqual(server.recordedRequests(path: "/gzip").last?.header("Accept-Encoding"), nil)
    }

    func testEveryRequestReachesItsOwnURLWhetherItsParseIsReusedOrNot() async throws {
        // A URL's second request gets the parse cached by the engine (`CURLOPT_CURLU`); a first
        // one sends its text. Sequential, so all of them share one pooled handle, which switches
        // between the two ways; a redirect's next hop takes the way of its own URL.
        let repeated = "/echo?q=a%20b&x=%2F"
        let steps = [
            repeated, repeated, repeated, "/echo?k=b", repeated, "/echo?k=b", "/hello", "/echo?k=b", "/hello",
            repeated, "/redirect?to=/hello", "/redirect?to=/hello", "/redirect?to=/hello", repeated
        ]
        for (index, target) in steps.enumerated() {
            let response = await session.request(.urlRequest(request(target, method: "GET"))).validate().response()
            XCTAssertNil(response.error, "step \(index)")
            let path = target.hasPrefix("/redirect") ? "/hello" : String(target.prefix { $0 != "?" })
            let expected = target.hasPrefix("/redirect") ? "/hello" : target
            XCTAssertEqual(server.recordedRequests(path: path).last?.rawTarget, expected, "step \(index)")
            XCTAssertEqual(response.head?.url, server.url(expected), "step \(index)")
        }
        XCTAssertEqual(server.recordedRequests(path: "/echo").count, 9)
        XCTAssertEqual(server.recordedRequests(path: "/redirect").count, 3)
        XCTAssertEqual(server.recordedRequests(path: "/hello").count, 5)
    }
}
