@testable import Courier
import CourierTestServer
import CourierTesting
import Foundation
import XCTest

/// Server-sent events over the network: one connection (`streamRequest(_:).events`) and the
/// reconnecting `Session.eventStream(_:)`.
final class EventStreamTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.shutdown()
    }

    private func collect(
        _ stream: some AsyncSequence<ServerSentEvent, CourierError>
    ) async throws(CourierError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for try await event in stream { events.append(event) }
        return events
    }

    private static let fast = EventStreamReconnection.reconnect(after: .milliseconds(1), maxAttempts: 3)

    func testEventsOfOneConnection() async throws {
        var events: [ServerSentEvent] = []
        for try await event in Session().streamRequest(.url(server.url("/sse?count=3"))).events { events.append(event) }
        XCTAssertEqual(events, (1...3).map { ServerSentEvent(data: "event \($0)", id: "\($0)") })
    }

    func testEdgeCasesSplitAtEveryByte() async throws {
        let text =
            "\u{FEFF}:welcome\r\nretry: 10\r\n\r\nid: a\r\nevent: greeting\r\ndata: hello\r\ndata: world\r\n\r\n"
            + "data: no id change\rdata\r\r: comment\ndata: {\"n\":1}\n\ndata: unfinished"
        server.route("/edge") { _ in
            TestHTTPResponse(
                status: 200, headers: ["Content-Type": "text/event-stream; charset=utf-8"],
                body: Data(text.utf8)
            ).with(.chunked(chunkSize: 1))
        }
        var events: [ServerSentEvent] = []
        for try await event in Session().streamRequest(.url(server.url("/edge"))).events { events.append(event) }
        XCTAssertEqual(
            events,
            [
                ServerSentEvent(event: "greeting", data: "hello\nworld", id: "a"),
                ServerSentEvent(data: "no id change\n", id: "a"),
                ServerSentEvent(data: "{\"n\":1}", id: "a")
            ], "the last event has no closing blank line and is discarded")
    }

    func testAResponseThatIsNotAnEventStreamFails() async throws {
        do {
            for try await _ in Session().streamRequest(.url(server.url("/hello"))).events {}
            XCTFail("text/plain is not an event stream")
        } catch {
            XCTAssertSameError(error, .unacceptableContentType("text/plain; charset=utf-8"))
        }
        do {
            _ = try await collect(Session().eventStream(.url(server.url("/status/500")), reconnection: Self.fast))
            XCTFail("500 ends the stream")
        } catch {
            XCTAssertSameError(error, .unacceptableStatusCode(500))
        }
        XCTAssertEqual(server.recordedRequests(path: "/status/500").count, 1, "an HTTP refusal is not retried")
    }

    func testReconnectionResumesAfterTheLastEventIDUntil204() async throws {
        let events = try await collect(Session().eventStream(.url(server.url("/sse?count=10&per=3&retry=1"))))
        XCTAssertEqual(events, (1...10).map { ServerSentEvent(data: "event \($0)", id: "\($0)") })
        let requests = server.recordedRequests(path: "/sse")
        XCTAssertEqual(requests.map { $0.header("Last-Event-ID") }, [nil, "3", "6", "9", "10"])
        XCTAssertEqual(requests.first?.header("Accept"), "text/event-stream")
        XCTAssertEqual(requests.first?.header("Cache-Control"), "no-cache")
    }

    func testACutConnectionDropsTheUnfinishedEventAndReconnects() async throws {
        let first = "retry: 1\n\nid: 1\ndata: one\n\nid: 2\ndata: tw"
        server.route("/cut") { request in
            if request.header("Last-Event-ID") == "1" {
                return TestHTTPResponse(
                    status: 200, headers: ["Content-Type": "text/event-stream"],
                    body: Data("id: 2\ndata: two\n\n".utf8))
            }
            if request.header("Last-Event-ID") == "2" { return TestHTTPResponse(status: 204) }
            return TestHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(first.utf8))
                .with(.truncate(sendBytes: first.utf8.count, declaredLength: 1000))
        }
        let events = try await collect(Session().eventStream(.url(server.url("/cut")), reconnection: Self.fast))
        XCTAssertEqual(events, [ServerSentEvent(data: "one", id: "1"), ServerSentEvent(data: "two", id: "2")])
    }

    func testGivingUpAfterFruitlessAttempts() async throws {
        let port = Loopback.closedPort()
        do {
            _ = try await collect(
                Session().eventStream(.url("http://127.0.0.1:\(port)/events"), reconnection: Self.fast))
            XCTFail("nobody listens")
        } catch {
            guard error == .cannotConnect else { return XCTFail("got \(error)") }
        }
        // A server that keeps closing without sending an event is given up on too, without an error.
        server.route("/empty") { _ in
            TestHTTPResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(": nothing\n".utf8))
        }
        let events = try await collect(Session().eventStream(.url(server.url("/empty")), reconnection: Self.fast))
        XCTAssertEqual(events, [])
        XCTAssertEqual(server.recordedRequests(path: "/empty").count, 3)
    }

    /// A session whose clock moves only when the test advances it.
    private func sessionWithManualClock() -> (Session, TestClock) {
        let clock = TestClock(mode: .manual)
        var configuration = Session.Configuration()
        configuration.clock = clock
        return (Session(configuration: configuration), clock)
    }

    /// One event with `retry` (when given), then the connection closes; the reconnection gets 204.
    private func routeOneEventThen204(_ path: String, retry: Int?) {
        let body = (retry.map { "retry: \($0)\n\n" } ?? "") + "id: 1\ndata: one\n\n"
        server.route(path) { request in
            if request.header("Last-Event-ID") == "1" { return TestHTTPResponse(status: 204) }
            return TestHTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
    }

    func testReconnectionWaitsTheServersRetryOnTheSessionClock() async throws {
        let (session, clock) = sessionWithManualClock()
        routeOneEventThen204("/slow-retry", retry: 60_000)
        let stream = session.eventStream(.url(server.url("/slow-retry")))
        let reader = Task {
            var events: [ServerSentEvent] = []
            for try await event in stream { events.append(event) }
            return events
        }
        try await clock.waitUntilPending()
        XCTAssertEqual(clock.scheduledDelays, [60], "the server's retry: 60000 ms, on the session's clock")
        XCTAssertEqual(server.recordedRequests(path: "/slow-retry").count, 1, "no reconnection before the wait ends")
        clock.advance(by: 59)
        XCTAssertEqual(clock.pendingCount, 1)
        clock.advance(by: 1)
        let events = try await reader.value
        XCTAssertEqual(events, [ServerSentEvent(data: "one", id: "1")])
        XCTAssertEqual(server.recordedRequests(path: "/slow-retry").map { $0.header("Last-Event-ID") }, [nil, "1"])
    }

    func testReconnectionWaitsThePolicysDelayWithoutRetry() async throws {
        let (session, clock) = sessionWithManualClock()
        routeOneEventThen204("/default-delay", retry: nil)
        let stream = session.eventStream(.url(server.url("/default-delay")))
        let reader = Task {
            var events: [ServerSentEvent] = []
            for try await event in stream { events.append(event) }
            return events
        }
        try await clock.waitUntilPending()
        XCTAssertEqual(clock.scheduledDelays, [3], "EventStreamReconnection.default waits 3 s")
        clock.advance(by: 3)
        let events = try await reader.value
        XCTAssertEqual(events.map(\.id), ["1"])
        XCTAssertEqual(server.recordedRequests(path: "/default-delay").count, 2)
    }

    func testCancellingDuringTheReconnectionWaitEndsAtOnce() async throws {
        let (session, clock) = sessionWithManualClock()
        routeOneEventThen204("/cancel-wait", retry: 60_000)
        let stream = session.eventStream(.url(server.url("/cancel-wait")))
        let reader = Task { () -> CourierError? in
            do throws(CourierError) {
                for try await _ in stream {}
                return nil
            } catch {
                return error
            }
        }
        try await clock.waitUntilPending()
        reader.cancel()
        let error = await reader.value
        XCTAssertEqual(error, .cancelled, "the wait ends with the task, without the clock moving")
        XCTAssertEqual(server.recordedRequests(path: "/cancel-wait").count, 1)
    }

    func testWithoutReconnectionTheFirstConnectionIsAll() async throws {
        let events = try await collect(
            Session().eventStream(.url(server.url("/sse?count=10&per=4")), reconnection: .never))
        XCTAssertEqual(events.map(\.id), ["1", "2", "3", "4"])
    }

    func testCancellingTheReaderClosesTheConnection() async throws {
        let session = Session()
        let url = server.url("/sse?count=1000&interval=20")
        let reader = Task { () -> (Int, CourierError?) in
            var count = 0
            do throws(CourierError) {
                for try await _ in session.eventStream(.url(url)) { count += 1 }
                return (count, nil)
            } catch {
                return (count, error)
            }
        }
        let arrived = await server.waitForRequests(path: "/sse", timeout: 60)
        XCTAssertTrue(arrived, "the stream is open when its reader is cancelled")
        reader.cancel()
        let (count, error) = await reader.value
        XCTAssertEqual(error, .cancelled)
        XCTAssertLessThan(count, 1000)
        await waitUntil { session.liveHandleCount == 0 }
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testBreakingOutClosesTheConnection() async throws {
        let session = Session()
        var first: ServerSentEvent?
        for try await event in session.eventStream(.url(server.url("/sse?count=1000&interval=20"))) {
            first = event
            break
        }
        XCTAssertEqual(first?.id, "1")
        await waitUntil { session.liveHandleCount == 0 }
        XCTAssertEqual(session.liveHandleCount, 0)
    }
}

/// The reconnection decisions, as values.
final class EventStreamReconnectionTests: XCTestCase {
    func testDecisions() {
        let policy = EventStreamReconnection.reconnect(after: .seconds(3), maxAttempts: 2)
        XCTAssertEqual(policy.decide(after: .closed, fruitless: 0, serverRetry: nil), .reconnect(after: .seconds(3)))
        XCTAssertEqual(
            policy.decide(after: .closed, fruitless: 1, serverRetry: .milliseconds(500)),
            .reconnect(after: .milliseconds(500)), "the server's retry wins")
        XCTAssertEqual(policy.decide(after: .closed, fruitless: 2, serverRetry: nil), .finish)
        XCTAssertEqual(policy.decide(after: .stopped, fruitless: 0, serverRetry: nil), .finish)
        XCTAssertEqual(
            policy.decide(after: .failed(.cannotConnect(message: "x")), fruitless: 1, serverRetry: nil),
            .reconnect(after: .seconds(3)))
        XCTAssertEqual(
            policy.decide(after: .failed(.timedOut(.idle)), fruitless: 2, serverRetry: nil),
            .fail(.timedOut(.idle)), "attempts exhausted")
        for final in [
            CourierError.cancelled, .unacceptableStatusCode(503), .unacceptableContentType("text/html"),
            .invalidURL("x"), .tlsFailure(message: "x")
        ] {
            XCTAssertEqual(policy.decide(after: .failed(final), fruitless: 0, serverRetry: nil), .fail(final))
        }
        XCTAssertEqual(EventStreamReconnection.never.decide(after: .closed, fruitless: 0, serverRetry: nil), .finish)
        XCTAssertEqual(
            EventStreamReconnection.never.decide(
                after: .failed(.truncatedResponse(message: "")), fruitless: 0,
                serverRetry: nil), .fail(.truncatedResponse(message: "")))
        let forever = EventStreamReconnection.reconnect(maxAttempts: nil)
        XCTAssertEqual(
            forever.decide(after: .closed, fruitless: 1000, serverRetry: nil), .reconnect(after: .seconds(3)))
    }
}
