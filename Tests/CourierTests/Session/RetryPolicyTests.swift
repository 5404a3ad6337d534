import Courier
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The retry decision as a pure function.
final class RetryPolicyTests: XCTestCase {
    let policy = RetryPolicy(maxRetries: 2, baseDelay: 1, maxDelay: 10)

    private func delay(
        _ attempt: Int = 0, _ method: String = "GET", status: Int? = 503, error: CourierError? = nil,
        retryAfter: String? = nil, jitter: Double = 1
    ) -> TimeInterval? {
        policy.retryDelay(
            afterAttempt: attempt, method: method, statusCode: status, error: error,
            retryAfter: retryAfter, now: Date(timeIntervalSince1970: 1_000_000), jitter: jitter)
    }

    func testOnlyTransientFailuresOfIdempotentMethodsAreRetried() {
        XCTAssertNotNil(delay(status: 503))
        XCTAssertNotNil(delay(status: 429))
        XCTAssertNil(delay(status: 200))
        XCTAssertNil(delay(status: 404))
        XCTAssertNil(delay(status: 501))
        XCTAssertNil(delay(0, "POST", status: 503), "never repeat a POST")
        XCTAssertNil(delay(0, "PATCH", status: 503))
        XCTAssertNotNil(delay(0, "put", status: 503))
        XCTAssertNotNil(delay(status: nil, error: .cannotConnect(message: "refused")))
        XCTAssertNotNil(delay(status: nil, error: .timedOut(.request)))
        XCTAssertNotNil(delay(status: nil, error: .truncatedResponse(message: "reset")))
        XCTAssertNil(delay(status: nil, error: .cancelled))
        XCTAssertNil(delay(status: nil, error: .tlsFailure(message: "bad cert")))
        XCTAssertNil(delay(status: nil, error: .responseTooLarge(limit: 1)))
        XCTAssertNil(delay(2, status: 503), "maxRetries reached")
        XCTAssertNil(
            RetryPolicy.disabled.retryDelay(
                afterAttempt: 0, method: "GET", statusCode: 503, error: nil, retryAfter: nil))
    }

    func testBackoffDoublesWithJitterAndIsCapped() {
        XCTAssertEqual(delay(0, jitter: 1), 1)
        XCTAssertEqual(delay(0, jitter: 0), 0.5)
        XCTAssertEqual(delay(1, jitter: 1), 2)
        let capped = RetryPolicy(maxRetries: 10, baseDelay: 1, maxDelay: 3)
        XCTAssertEqual(
            capped.retryDelay(afterAttempt: 6, method: "GET", statusCode: 503, error: nil, retryAfter: nil, jitter: 1),
            3)
    }

    func testRetryAfterIsHonoured() {
        XCTAssertEqual(delay(retryAfter: "4"), 4)
        XCTAssertEqual(delay(retryAfter: "0"), 0)
        XCTAssertNil(delay(retryAfter: "60"), "longer than maxDelay: give the response back instead")
        let date = Date(timeIntervalSince1970: 1_000_003)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        XCTAssertEqual(delay(retryAfter: formatter.string(from: date)), 3)
        XCTAssertEqual(delay(retryAfter: "soon", jitter: 1), 1, "an unreadable Retry-After falls back to backoff")
    }
}

/// Retries over real sockets: re-sent, counted, cancellable while waiting.
final class RetryIntegrationTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    private func session(_ policy: RetryPolicy, clock: (any CourierClock)? = nil) -> Session {
        var configuration = Session.Configuration()
        configuration.retryPolicy = policy
        if let clock { configuration.clock = clock }
        return Session(configuration: configuration)
    }

    /// A route that answers 503 (Retry-After: 0) `failures` times, then 200.
    private func flaky(_ path: String, failures: Int) {
        let calls = Counter()
        server.route(path) { _ in
            calls.increment()
            return calls.value <= failures
                ? TestHTTPResponse.text("busy", status: 503).adding("Retry-After", "0")
                : TestHTTPResponse.text("ok")
        }
    }

    func testTransientStatusIsRetriedUntilSuccess() async throws {
        flaky("/flaky", failures: 2)
        let response = await session(RetryPolicy(maxRetries: 3)).request(.url(server.url("/flaky"))).validate()
            .response()
        XCTAssertNil(response.error)
        XCTAssertEqual(response.metrics?.retryCount, 2)
        XCTAssertEqual(server.recordedRequests(path: "/flaky").count, 3)
    }

    func testGivesUpAfterMaxRetriesWithTheLastResponse() async {
        flaky("/down", failures: 10)
        let response = await session(RetryPolicy(maxRetries: 1)).request(.url(server.url("/down"))).response()
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(response.metrics?.retryCount, 1)
        XCTAssertEqual(server.recordedRequests(path: "/down").count, 2)
    }

    func testPostIsNeverRetried() async {
        flaky("/submit", failures: 1)
        var request = URLRequest(url: server.url("/submit"))
        request.httpMethod = "POST"
        request.httpBody = Data("x".utf8)
        let response = await session(.default).request(.urlRequest(request)).response()
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(server.recordedRequests(path: "/submit").count, 1)
    }

    func testConnectionFailuresAreRetried() async {
        let response = await session(RetryPolicy(maxRetries: 2, baseDelay: 0.01))
            .request(.url("http://127.0.0.1:\(Loopback.closedPort())/")).response()
        guard response.error == .cannotConnect else {
            return XCTFail("expected cannotConnect, got \(String(describing: response.error))")
        }
        XCTAssertEqual(response.metrics?.retryCount, 2, "tried three times in all")
    }

    func testCancelWhileWaitingToRetryCompletesOnce() async throws {
        server.route("/later") { _ in TestHTTPResponse.text("busy", status: 503).adding("Retry-After", "20") }
        // A manual clock: the backoff waits until the test advances it, so the cancel surely
        // comes while the request waits to retry.
        let clock = TestClock(mode: .manual)
        let request = session(RetryPolicy(maxRetries: 1, maxDelay: 60), clock: clock).request(
            .url(server.url("/later")))
        let (done, calls) = expectCancellation(of: request)
        try await clock.waitUntilPending(timeout: 60)
        XCTAssertEqual(clock.scheduledDelays, [20])
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        clock.advance(by: 30)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(server.recordedRequests(path: "/later").count, 1)
    }

    /// A request cancelled while waiting out a long backoff is released at once, with its session,
    /// not when the backoff timer fires (found by LeakSanitizer, see docs/reliability.md).
    func testCancelledRequestIsReleasedDuringBackoff() async throws {
        server.route("/later") { _ in TestHTTPResponse.text("busy", status: 503).adding("Retry-After", "30") }
        // A manual clock keeps the scheduled backoff, like a timer that has not fired, for as
        // long as the test runs: only the clock is never advanced.
        let clock = TestClock(mode: .manual)
        weak var weakRequest: DataRequest?
        weak var weakSession: Session?
        do {
            let session = session(RetryPolicy(maxRetries: 1, maxDelay: 60), clock: clock)
            let request = session.request(.url(server.url("/later")))
            weakRequest = request
            weakSession = session
            let done = expectation(description: "completed")
            request.response { _ in done.fulfill() }
            try await clock.waitUntilPending(timeout: 60)
            request.cancel()
            await fulfillment(of: [done], timeout: 10)
        }
        // The backoff never ends: only releasing the request and session frees them.
        await waitUntil { weakRequest == nil && weakSession == nil }
        XCTAssertNil(weakRequest, "the backoff timer still holds the cancelled request")
        XCTAssertNil(weakSession, "the backoff timer still holds the session")
    }

    /// A request nobody holds (completion handler only) is kept alive across its backoff and
    /// completes once, after the retry.
    func testUnheldRequestCompletesAfterItsBackoff() {
        let calls = Counter()
        server.route("/flaky-unheld") { _ in
            calls.increment()
            // A one-second wait: long enough for anything that held the request only while the
            // first attempt was finishing to have let go.
            return calls.value == 1
                ? TestHTTPResponse.text("busy", status: 503).adding("Retry-After", "1")
                : TestHTTPResponse.text("ok")
        }
        let done = expectation(description: "completed")
        session(RetryPolicy(maxRetries: 2)).request(.url(server.url("/flaky-unheld"))).validate()
            .response { response in
                XCTAssertNil(response.error)
                XCTAssertEqual(response.metrics?.retryCount, 1)
                done.fulfill()
            }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(server.recordedRequests(path: "/flaky-unheld").count, 2)
    }
}
