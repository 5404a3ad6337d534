import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Time limits hold wherever a transfer is: queued behind the connection limit, connecting,
/// stalled. These tests check which limit fired and the order of events, never a duration
/// (the precision figures are in Benchmarks and docs/reliability.md).
final class DeadlineTests: XCTestCase {
    private final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func append(_ name: String) { lock.lock(); names.append(name); lock.unlock() }
        var value: [String] { lock.lock(); defer { lock.unlock() }; return names }
    }

    private static func request(_ url: URL, timeout: TimeInterval) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return request
    }

    func testManyQueuedRequestsAllTimeOutBeforeTheBusyOneEnds() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        configuration.maxConnectionsPerHost = 2
        let session = Session(configuration: configuration)
        let order = Order()
        let busy = (0..<2).map { _ in session.request(Self.request(server.url("/never"), timeout: 8)) }
        let busyTasks = busy.map { request in
            Task {
                _ = await request.response(); order.append("busy")
            }
        }
        for _ in 0..<500 where server.recordedRequests(path: "/never").count < 2 {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let error = await session.request(
                        Self.request(server.url("/hello?i=\(index)"), timeout: 0.2 + Double(index) * 0.01)
                    )
                    .response().error
                    order.append("queued")
                    return error
                }
            }
            var errors: [CourierError?] = []
            for await error in group { errors.append(error) }
            return errors
        }
        XCTAssertEqual(errors, Array(repeating: .timedOut(.request), count: 20))
        XCTAssertEqual(
            order.value, Array(repeating: "queued", count: 20),
            "every queued limit fired while both connections were still busy")
        XCTAssertTrue(server.recordedRequests(path: "/hello").isEmpty, "no queued request ever got a connection")
        busy.forEach { $0.cancel() }
        for task in busyTasks { await task.value }
    }

    func testWaitingForAConnectionIsNotConnecting() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        configuration.maxConnectionsPerHost = 1
        configuration.timeouts = .init(connect: 0.2, request: 8)
        let session = Session(configuration: configuration)
        let busy = session.request(server.url("/delay?ms=600"))
        let busyTask = Task { await busy.response() }
        for _ in 0..<500 where server.recordedRequests(path: "/delay").isEmpty {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        // Queued three times longer than the connect limit: the limit starts when connecting does.
        let queued = await session.request(server.url("/hello")).response()
        XCTAssertNil(queued.error)
        XCTAssertEqual(queued.statusCode, 200)
        let busyResponse = await busyTask.value
        XCTAssertEqual(busyResponse.statusCode, 200)
    }

    func testConnectTimeoutAgainstABlackhole() async {
        let blackhole = Loopback.Blackhole()
        var configuration = Session.Configuration()
        configuration.timeouts = .init(connect: 0.3, request: 8)
        let response = await Session(configuration: configuration).request("http://127.0.0.1:\(blackhole.port)/")
            .response()
        XCTAssertEqual(response.error, .timedOut(.connect))
        withExtendedLifetime(blackhole) {}
    }

    func testIdleTimeoutOnAStalledBodyAndNotOnATrickle() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        configuration.timeouts = .init(connect: 5, request: 8, idle: 0.4)
        let session = Session(configuration: configuration)
        let stalled = await session.request(server.url("/headers-then-stall")).response()
        XCTAssertEqual(stalled.error, .timedOut(.idle))
        XCTAssertEqual(stalled.statusCode, 200, "the head that did arrive is kept")
        let trickle = await session.request(server.url("/trickle?size=30&chunk=5&interval=100")).response()
        XCTAssertNil(trickle.error, "bytes every 100 ms are not idleness")
        XCTAssertEqual(trickle.data?.count, 30)
    }
}
