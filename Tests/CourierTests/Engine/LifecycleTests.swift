@testable import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Handles are never leaked and every completion fires once, across faults, cancellation and
/// sessions that come and go.
final class LifecycleTests: XCTestCase {
    func testNoHandleOutlivesItsRequest() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        configuration.timeouts.request = 2
        configuration.security.maxResponseSize = 5_000
        let session = Session(configuration: configuration)
        let paths = [
            "/hello", "/truncated?send=10&declared=100", "/close-before-headers", "/bytes?size=9000",
            "/redirect-chain?n=3", "/status/500", "/chunked?chunks=3&size=10", "/never"
        ]
        let calls = Counter()
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<5 {
                for path in paths {
                    group.addTask {
                        let request = session.request(.url(server.url(path)))
                        if round.isMultiple(of: 2), path == "/never" { request.cancel() }
                        _ = await request.response()
                        calls.increment()
                    }
                }
            }
        }
        XCTAssertEqual(calls.value, paths.count * 5)
        // Requests refused while configuring the handle give it back too.
        var invalid = URLRequest(url: server.url("/hello"))
        invalid.setValue("v", forHTTPHeaderField: "Bad Name")
        for _ in 0..<3 {
            let response = await session.request(.urlRequest(invalid)).response()
            XCTAssertNotNil(response.error)
        }
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    private static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    func testSessionsCanComeAndGo() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let before = Self.threadCount()
        for _ in 0..<30 {
            let response = await Session().request(.url(server.url("/hello"))).response()
            XCTAssertEqual(response.statusCode, 200)
        }
        // Each dropped session stops its engine thread: 30 leaked threads would show here.
        await waitUntil { Self.threadCount() < before + 10 }
        XCTAssertLessThan(Self.threadCount(), before + 10)
        // A session dropped while a handler is pending stays alive until the request completes.
        let done = expectation(description: "handler ran")
        Session().request(.url(server.url("/delay?ms=50"))).response { response in
            XCTAssertEqual(response.statusCode, 200)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
    }

    func testCompletionRunsOnTheRequestedQueue() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "courier.test.delivery")
        queue.setSpecific(key: key, value: "delivery")
        let done = expectation(description: "delivered")
        let calls = Counter()
        Session.default.request(.url(server.url("/hello"))).responseString(queue: queue) { response in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "delivery")
            XCTAssertEqual(response.value, "Hello, Courier")
            calls.increment()
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(calls.value, 1)
    }
}
