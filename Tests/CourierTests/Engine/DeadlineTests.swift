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
        // The busy requests hold both connections until they are cancelled at the end; their own
        // limit (60 s) is there only so that a broken build cannot hang.
        let busy = (0..<2).map { _ in session.request(.urlRequest(Self.request(server.url("/never"), timeout: 60))) }
        let busyTasks = busy.map { request in
            Task {
                _ = await request.response(); order.append("busy")
            }
        }
        let busyArrived = await server.waitForRequests(count: 2, path: "/never", timeout: 60)
        XCTAssertTrue(busyArrived, "both busy requests hold a connection")
        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let error = await session.request(
                        .urlRequest(Self.request(server.url("/hello?i=\(index)"), timeout: 0.2 + Double(index) * 0.01))
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
        // A connect limit of 1 s: a loopback connect never takes that long, even under a sanitizer
        // on a loaded machine, so only the time spent queued could make it fire.
        configuration.timeouts = .init(connect: 1, request: 30)
        let session = Session(configuration: configuration)
        let busy = session.request(.url(server.url("/delay?ms=3000")))
        let busyTask = Task { await busy.response() }
        let busyArrived = await server.waitForRequests(path: "/delay", timeout: 60)
        XCTAssertTrue(busyArrived, "the busy request holds the connection")
        // Queued three times longer than the connect limit: the limit starts when connecting does.
        let queued = await session.request(.url(server.url("/hello"))).response()
        XCTAssertNil(queued.error)
        XCTAssertEqual(queued.statusCode, 200)
        let busyResponse = await busyTask.value
        XCTAssertEqual(busyResponse.statusCode, 200)
    }

    func testConnectTimeoutAgainstABlackhole() async {
        let blackhole = Loopback.Blackhole()
        var configuration = Session.Configuration()
        configuration.timeouts = .init(connect: 0.3, request: 8)
        let response = await Session(configuration: configuration).request(.url("http://127.0.0.1:\(blackhole.port)/"))
            .response()
        XCTAssertSameError(response.error, .timedOut(.connect))
        withExtendedLifetime(blackhole) {}
    }

    func testIdleTimeoutOnAStalledBodyAndNotOnATrickle() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        // An idle limit ten times the trickle's interval (a loaded machine can stall a thread for a
        // few hundred milliseconds), and a trickle lasting twice the limit in all (2 s).
        configuration.timeouts = .init(connect: 5, request: 30, idle: 1)
        let session = Session(configuration: configuration)
        let stalled = await session.request(.url(server.url("/headers-then-stall"))).response()
        XCTAssertSameError(stalled.error, .timedOut(.idle))
        XCTAssertEqual(stalled.statusCode, 200, "the head that did arrive is kept")
        let trickle = await session.request(.url(server.url("/trickle?size=100&chunk=5&interval=100"))).response()
        XCTAssertNil(trickle.error, "bytes every 100 ms are not idleness")
        XCTAssertEqual(trickle.data?.count, 100)
    }
}
