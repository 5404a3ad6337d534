@testable import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import Synchronization
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Session.shutdown()` and `Session.cancelAll()`: in-flight requests end with `cancelled`, later
/// ones fail fast with `sessionShutDown`, every request completes exactly once, nothing leaks.
final class ShutdownTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    /// Counts what passes between the session and its engine: each transfer must complete once.
    final class CountingTransport: Transport {
        let inner: any Transport
        let started = Atomic<Int>(0)
        let completed = Atomic<Int>(0)
        let completedTwice = Atomic<Int>(0)

        init(_ inner: any Transport) { self.inner = inner }

        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            started.add(1, ordering: .relaxed)
            let once = Atomic<Bool>(false)
            return inner.execute(request, options: options) { [self] result in
                if once.exchange(true, ordering: .acquiringAndReleasing) {
                    completedTwice.add(1, ordering: .relaxed)
                } else {
                    completed.add(1, ordering: .relaxed)
                }
                completion(result)
            }
        }
    }

    private func countingSession(_ configuration: Session.Configuration = .init()) -> (Session, CountingTransport) {
        let box = Locked<CountingTransport?>(nil)
        let session = Session(configuration: configuration) { engine in
            let counting = CountingTransport(engine)
            box.withLock { $0 = counting }
            return counting
        }
        return (session, box.withLock { $0! })
    }

    private static func kind(_ error: CourierError?) -> String { error.map { "\($0.kind)" } ?? "none" }

    // MARK: After shutdown

    func testEveryKindOfRequestFailsFastAfterShutdown() async throws {
        let clock = TestClock()
        var configuration = Session.Configuration()
        configuration.retryPolicy = RetryPolicy(maxRetries: 3)
        configuration.clock = clock
        let (session, counting) = countingSession(configuration)
        await session.shutdown()
        XCTAssertTrue(session.isShutDown)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-shutdown-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("abc".utf8))
            continuation.finish()
        }
        let requests: [(String, DataRequest)] = [
            ("request", session.request(.url(server.url("/hello")))),
            ("download", session.download(.url(server.url("/bytes?size=10")), to: file)),
            ("upload", session.upload(.data(Data("x".utf8)), to: .url(server.url("/upload")))),
            ("streamed upload", session.upload(.stream(chunks), to: .url(server.url("/upload")))),
            ("failing status", session.request(.url(server.url("/status/503"))))
        ]
        for (name, request) in requests {
            let response = await request.response()
            XCTAssertEqual(Self.kind(response.error), "sessionShutDown", name)
            XCTAssertEqual(response.error, .sessionShutDown, name)
        }
        let stream = session.streamRequest(.url(server.url("/hello")))
        let completion = await stream.completion()
        XCTAssertEqual(Self.kind(completion.error), "sessionShutDown")
        do throws(CourierError) {
            for try await _ in session.eventStream(.url(server.url("/sse"))) {}
            XCTFail("an event stream of a shut-down session delivered")
        } catch {
            XCTAssertEqual(Self.kind(error), "sessionShutDown")
        }
        XCTAssertEqual(server.requestsServed, 0, "nothing reached the network")
        XCTAssertEqual(counting.started.load(ordering: .relaxed), 0, "nothing reached the transport")
        XCTAssertEqual(clock.scheduledDelays, [], "no retry was scheduled")
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testARequestMadeBeforeShutdownAndStartedAfterFailsFast() async {
        let session = Session()
        let request = session.request(.url(server.url("/hello")))
        await session.shutdown()
        let response = await request.response()
        XCTAssertEqual(Self.kind(response.error), "sessionShutDown")
        XCTAssertEqual(server.requestsServed, 0)
    }

    // MARK: In flight

    func testShutdownCancelsEverythingInFlightAndFreesEveryHandle() async throws {
        let server: TestHTTPServer = self.server
        let (session, counting) = countingSession()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-shutdown-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let (chunks, producer) = AsyncStream<Data>.makeStream()
        producer.yield(Data(repeating: 1, count: 1000))  // and never finishes
        let requests: [(String, DataRequest)] = [
            ("request", session.request(.url(server.url("/never")))),
            ("download", session.download(.url(server.url("/headers-then-stall")), to: file)),
            ("streamed upload", session.upload(.stream(chunks), to: .url(server.url("/upload"))))
        ]
        let responses = requests.map { name, request in Task { (name, await request.response()) } }
        let stream = session.streamRequest(.url(server.url("/headers-then-stall")))
        _ = try await stream.head()
        await waitUntil { counting.started.load(ordering: .relaxed) == 4 && server.openConnections >= 4 }

        await session.shutdown()

        for task in responses {
            let (name, response) = await task.value
            XCTAssertEqual(Self.kind(response.error), "cancelled", name)
        }
        let completion = await stream.completion()
        XCTAssertEqual(Self.kind(completion.error), "cancelled")
        XCTAssertEqual(counting.completed.load(ordering: .relaxed), 4)
        XCTAssertEqual(counting.completedTwice.load(ordering: .relaxed), 0)
        XCTAssertEqual(session.liveHandleCount, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the partial download was removed")
        producer.finish()
        // The engine thread has stopped once shutdown returns.
        XCTAssertEqual(session.engineHasStopped, true)
        // And the session refuses from now on.
        let late = await session.request(.url(server.url("/hello"))).response()
        XCTAssertEqual(Self.kind(late.error), "sessionShutDown")
    }

    /// Many requests in flight while another task shuts the session down: each completes exactly
    /// once, succeeded, cancelled or refused, and nothing else.
    func testShutdownRacingManyRequests() async throws {
        let server: TestHTTPServer = self.server
        let (session, counting) = countingSession()
        let paths = ["/hello", "/delay?ms=5", "/never", "/bytes?size=20000", "/redirect-chain?n=2"]
        let outcomes = Locked([String: Int]())
        let calls = Counter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let response = await session.request(.url(server.url(paths[index % paths.count]))).response()
                    calls.increment()
                    outcomes.withLock { $0[Self.kind(response.error), default: 0] += 1 }
                }
            }
            group.addTask {
                // Shut down while requests are in flight: one that never ends, and others.
                _ = await server.waitForRequests(count: 1, path: "/never", timeout: 60)
                await waitUntil { server.requestsServed >= 20 }
                await session.shutdown()
            }
        }
        XCTAssertEqual(calls.value, 200)
        let kinds = outcomes.withLock { $0 }
        XCTAssertEqual(Set(kinds.keys).subtracting(["none", "cancelled", "sessionShutDown"]), [], "\(kinds)")
        XCTAssertGreaterThan(kinds["cancelled", default: 0], 0, "the /never requests were in flight: \(kinds)")
        XCTAssertEqual(counting.completed.load(ordering: .relaxed), counting.started.load(ordering: .relaxed))
        XCTAssertEqual(counting.completedTwice.load(ordering: .relaxed), 0)
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testConcurrentShutdownsAllReturn() async {
        let session = Session()
        _ = await session.request(.url(server.url("/hello"))).response()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await session.shutdown() } }
        }
        await session.shutdown()
        XCTAssertEqual(session.liveHandleCount, 0)
        XCTAssertEqual(session.engineHasStopped, true)
    }

    // MARK: cancelAll

    func testCancelAllFromSeveralThreadsCancelsInFlightAndTheSessionStaysUsable() async throws {
        let server: TestHTTPServer = self.server
        let (session, counting) = countingSession()
        let tasks = (0..<20).map { index in
            Task {
                await session.request(.url(server.url(index.isMultiple(of: 2) ? "/never" : "/headers-then-stall")))
                    .response()
            }
        }
        let stream = session.streamRequest(.url(server.url("/headers-then-stall")))
        _ = try await stream.head()
        await waitUntil { counting.started.load(ordering: .relaxed) == 21 && server.openConnections >= 21 }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in session.cancelAll() }
        for task in tasks {
            let response = await task.value
            XCTAssertEqual(Self.kind(response.error), "cancelled")
        }
        let completion = await stream.completion()
        XCTAssertEqual(Self.kind(completion.error), "cancelled")
        XCTAssertEqual(counting.completed.load(ordering: .relaxed), 21)
        XCTAssertEqual(counting.completedTwice.load(ordering: .relaxed), 0)
        XCTAssertEqual(session.liveHandleCount, 0)
        XCTAssertFalse(session.isShutDown)
        let response = await session.request(.url(server.url("/hello"))).response()
        XCTAssertEqual(response.statusCode, 200, "requests made after cancelAll run as usual")
    }

    /// A request between two attempts is not retried after `cancelAll()` (direct path).
    func testCancelAllDuringABackoffNeverRetries() async throws {
        let server: TestHTTPServer = self.server
        let clock = TestClock(mode: .manual)
        var configuration = Session.Configuration()
        configuration.retryPolicy = RetryPolicy(maxRetries: 3)
        configuration.clock = clock
        let session = Session(configuration: configuration)
        let task = Task { await session.request(.url(server.url("/status/503"))).response() }
        try await clock.waitUntilPending()
        session.cancelAll()
        clock.advance(by: 3600)
        let response = await task.value
        XCTAssertEqual(Self.kind(response.error), "cancelled")
        XCTAssertEqual(server.recordedRequests(path: "/status/503").count, 1, "no second attempt")
    }

    /// Interceptors are not asked to retry a request its session cancelled or shut down.
    func testNoInterceptorRetriesAfterCancelAllOrShutdown() async throws {
        let server: TestHTTPServer = self.server
        final class AlwaysRetry: RequestInterceptor {
            let asked = Atomic<Int>(0)
            func retry(
                _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
            ) async
                -> RetryDecision
            {
                asked.add(1, ordering: .relaxed)
                return context.attempt == 0 ? .retry(after: 0) : .doNotRetry
            }
        }
        for shutDown in [false, true] {
            let retrier = AlwaysRetry()
            var configuration = Session.Configuration()
            configuration.interceptors = [retrier]
            let session = Session(configuration: configuration)
            let task = Task { await session.request(.url(server.url("/never"))).response() }
            let arrived = await server.waitForRequests(count: shutDown ? 2 : 1, path: "/never", timeout: 60)
            XCTAssertTrue(arrived)
            if shutDown { await session.shutdown() } else { session.cancelAll() }
            let response = await task.value
            XCTAssertEqual(Self.kind(response.error), "cancelled")
            XCTAssertEqual(retrier.asked.load(ordering: .relaxed), 0, "shutdown \(shutDown)")
            let later = await session.request(.url(server.url("/status/503"))).response()
            XCTAssertEqual(Self.kind(later.error), shutDown ? "sessionShutDown" : "none")
            // A request made after cancelAll() is retried as usual (asked after each attempt).
            XCTAssertEqual(retrier.asked.load(ordering: .relaxed), shutDown ? 0 : 2, "shutdown \(shutDown)")
        }
    }
}
