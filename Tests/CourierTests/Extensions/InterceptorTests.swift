import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Interceptors against the in-process server: adapters, retriers, the default retry policy
/// through an injected clock, cancellation while user code runs.
final class InterceptorTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    /// Adds `X-Adapted: <name>` (appending to earlier values) and counts its calls.
    struct Tagging: RequestInterceptor {
        let name: String
        let calls: Counter
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            calls.increment()
            var request = request
            let previous = request.value(forHTTPHeaderField: "X-Adapted").map { $0 + "," } ?? ""
            request.setValue(previous + name, forHTTPHeaderField: "X-Adapted")
            return request
        }
    }

    /// Implements neither step: its presence alone sends requests through the interceptor path.
    struct Passthrough: RequestInterceptor {}

    /// A route answering `status` to the first `failures` requests, then 200 `ok`.
    private func flaky(_ path: String, failures: Int, status: Int = 503, retryAfter: String? = nil) {
        let calls = Counter()
        server.route(path) { _ in
            calls.increment()
            guard calls.value <= failures else { return .text("ok") }
            let failure = TestHTTPResponse.text("busy", status: status)
            return retryAfter.map { failure.adding("Retry-After", $0) } ?? failure
        }
    }

    func testAdaptersRunInOrderSessionThenRequestThenPlugins() async {
        let calls = Counter()
        let session = Session.with(
            plugins: [RecordingPlugin(name: "plugin", log: EventLog())],
            interceptors: [Tagging(name: "session", calls: calls)])
        _ = await session.request(.url(server.url("/hello"))).interceptor(Tagging(name: "request", calls: calls))
            .response()
        let sent = server.recordedRequests(path: "/hello").first
        XCTAssertEqual(sent?.header("X-Adapted"), "session,request")
        XCTAssertEqual(sent?.header("X-Plugins"), "plugin")
    }

    func testAFailingAdapterFailsTheRequestWithATypedErrorAndSendsNothing() async {
        struct Broken: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                throw TestFailure("keychain locked")
            }
        }
        let response = await Session.with(interceptors: [Broken()]).request(.url(server.url("/hello"))).response()
        XCTAssertSameError(
            response.error, .adaptationFailed(interceptor: "Broken", underlying: TestFailure("keychain locked")))
        XCTAssertEqual((response.error?.underlying as? TestFailure)?.description, "keychain locked")
        XCTAssertTrue(server.recordedRequests(path: "/hello").isEmpty)
    }

    func testAnAdapterMayFailWithItsOwnCourierError() async {
        struct Refuse: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                throw CourierError.invalidRequest(reason: "no session")
            }
        }
        let response = await Session.default.request(.url(server.url("/hello"))).interceptor(Refuse()).response()
        XCTAssertSameError(response.error, .invalidRequest(reason: "no session"))
    }

    func testEveryAttemptGoesThroughAdaptersAndPluginsAgain() async {
        flaky("/flaky", failures: 2, retryAfter: "0")
        let calls = Counter()
        let log = EventLog()
        let session = Session.with(
            plugins: [RecordingPlugin(name: "P", log: log)],
            interceptors: [Tagging(name: "T", calls: calls)],
            retryPolicy: RetryPolicy(maxRetries: 3), clock: TestClock())
        let response = await session.request(.url(server.url("/flaky"))).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.metrics?.retryCount, 2)
        XCTAssertEqual(response.metrics?.attempts, 3)
        XCTAssertEqual(calls.value, 3)
        XCTAssertEqual(log.all.filter { $0 == "P.prepare" }.count, 3)
        XCTAssertEqual(
            log.all.filter { $0.hasPrefix("P.didReceive") },
            ["P.didReceive.503", "P.didReceive.503", "P.didReceive.200"])
        XCTAssertEqual(log.all.filter { $0 == "P.process" }.count, 1)
        let sent = server.recordedRequests(path: "/flaky").map { $0.header("X-Adapted") }
        XCTAssertEqual(sent, ["T", "T", "T"], "each attempt starts from the request as built")
    }

    func testACustomRetrierDecidesAndSeesTheAttemptNumber() async {
        flaky("/teapot", failures: 1, status: 418)
        struct Teapot: RequestInterceptor {
            let attempts: EventLog
            func retry(
                _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
            ) async -> RetryDecision {
                attempts.append("\(context.attempt):\(response.statusCode ?? 0)")
                return response.statusCode == 418 ? .retry(after: 0) : .doNotRetry
            }
        }
        let attempts = EventLog()
        let response = await Session.default.request(.url(server.url("/teapot")))
            .interceptor(Teapot(attempts: attempts)).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(attempts.all, ["0:418", "1:200"])
        XCTAssertEqual(response.metrics?.retryCount, 1)
    }

    func testARetrierMayFailTheRequest() async {
        struct Gone: RequestInterceptor {
            func retry(
                _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
            ) async -> RetryDecision {
                response.statusCode == 404 ? .fail(.invalidRequest(reason: "gone for good")) : .doNotRetry
            }
        }
        let response = await Session.default.request(.url(server.url("/missing"))).interceptor(Gone()).response()
        XCTAssertSameError(response.error, .invalidRequest(reason: "gone for good"))
        XCTAssertEqual(response.statusCode, 404)
    }

    func testInterceptorsOfARequestRunInOrderAndTheFirstRetryDecisionWins() async {
        flaky("/busy", failures: 1, status: 503)
        /// Notes that it was asked, then retries a 503 at once (`retries503`) or answers `answer`.
        struct Asked: RequestInterceptor {
            let name: String
            let asked: EventLog
            var retries503 = false
            var answer = RetryDecision.doNotRetry
            func retry(
                _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
            ) async -> RetryDecision {
                asked.append(name)
                return retries503 && response.statusCode == 503 ? .retry(after: 0) : answer
            }
        }
        let asked = EventLog()
        let first = Asked(name: "first", asked: asked)
        let second = Asked(name: "second", asked: asked, retries503: true)
        let third = Asked(name: "third", asked: asked, answer: .fail(.cancelled))
        let calls = Counter()
        let response = await Session.default.request(.url(server.url("/busy")))
            .interceptor(Tagging(name: "a", calls: calls)).interceptor(first).interceptor(second)
            .interceptor(Tagging(name: "b", calls: calls)).interceptor(third)
            .response()
        XCTAssertEqual(asked.all, ["first", "second", "first", "second", "third"])
        XCTAssertEqual(response.error, .cancelled, "the third retrier failed the 200")
        XCTAssertEqual(server.recordedRequests(path: "/busy").first?.header("X-Adapted"), "a,b")
    }

    // MARK: The default retrier, timed by the injected clock

    func testRetryAfterSecondsIsWaitedOnTheClock() async {
        flaky("/later", failures: 1, retryAfter: "7")
        let clock = TestClock()
        let session = Session.with(retryPolicy: RetryPolicy(maxRetries: 2, maxDelay: 30), clock: clock)
        let response = await session.request(.url(server.url("/later"))).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(clock.scheduledDelays, [7])
    }

    func testRetryAfterDateIsReadAgainstTheClock() async {
        let clock = TestClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        flaky("/date", failures: 1, retryAfter: formatter.string(from: clock.now.addingTimeInterval(12)))
        let session = Session.with(retryPolicy: RetryPolicy(maxRetries: 1, maxDelay: 30), clock: clock)
        _ = await session.request(.url(server.url("/date"))).response()
        XCTAssertEqual(clock.scheduledDelays, [12])
    }

    func testBackoffDoublesWithJitterOnTheClock() async {
        flaky("/backoff", failures: 3)
        let clock = TestClock()
        let session = Session.with(retryPolicy: RetryPolicy(maxRetries: 3, baseDelay: 2, maxDelay: 60), clock: clock)
        let response = await session.request(.url(server.url("/backoff"))).response()
        XCTAssertEqual(response.metrics?.retryCount, 3)
        let delays = clock.scheduledDelays
        XCTAssertEqual(delays.count, 3)
        for (attempt, delay) in delays.enumerated() {
            let full = 2 * pow(2, Double(attempt))
            XCTAssertTrue(
                (full / 2...full).contains(delay), "attempt \(attempt): \(delay) not in \(full / 2)...\(full)")
        }
    }

    func testTheSameDelaysThroughAnInterceptorSession() async {
        // With an interceptor registered, the request takes the task-based path; the policy is the
        // same retrier, asked last.
        flaky("/both", failures: 2, retryAfter: "3")
        let clock = TestClock()
        let session = Session.with(
            interceptors: [Passthrough()], retryPolicy: RetryPolicy(maxRetries: 2, maxDelay: 30),
            clock: clock)
        let response = await session.request(.url(server.url("/both"))).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(clock.scheduledDelays, [3, 3])
    }

    func testAPerRequestRetryPolicy() async {
        flaky("/once", failures: 1, retryAfter: "1")
        let clock = TestClock()
        let session = Session.with(clock: clock)
        let response = await session.request(.url(server.url("/once"))).interceptor(RetryPolicy(maxRetries: 1))
            .response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(clock.scheduledDelays, [1])
    }

    func testAPostRedirectedToAGetIsNeverRetried() async {
        // 303 turns the POST into a GET; the attempt that was sent is still a POST.
        server.route("/submit") { _ in TestHTTPResponse(status: 303, headers: ["Location": "/busy-get"]) }
        server.route("/busy-get") { _ in .text("busy", status: 503) }
        var request = URLRequest(url: server.url("/submit"))
        request.httpMethod = "POST"
        request.httpBody = Data("card=4111".utf8)
        let clock = TestClock()
        let response = await Session.with(retryPolicy: .default, clock: clock).request(.urlRequest(request)).response()
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(server.recordedRequests(path: "/submit").count, 1)
        XCTAssertEqual(clock.scheduledDelays, [])
    }

    func testCancelDuringABackoffCompletesOnceAtOnce() async throws {
        flaky("/slow", failures: 5, retryAfter: "20")
        let clock = TestClock(mode: .manual)
        let session = Session.with(
            interceptors: [Passthrough()], retryPolicy: RetryPolicy(maxRetries: 3, maxDelay: 60),
            clock: clock)
        let request = session.request(.url(server.url("/slow")))
        let (done, calls) = expectCancellation(of: request)
        try await clock.waitUntilPending(timeout: 60)
        XCTAssertEqual(clock.scheduledDelays, [20])
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        clock.advance(by: 30)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(server.recordedRequests(path: "/slow").count, 1, "no attempt after the cancel")
    }

    func testCancelWhileAnAdapterHangsCompletesAtOnce() async {
        struct Hanging: RequestInterceptor {
            let adapting: Counter
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                adapting.increment()
                try await Task.sleep(nanoseconds: 60_000_000_000)
                return request
            }
        }
        let adapting = Counter()
        let request = Session.default.request(.url(server.url("/hello"))).interceptor(Hanging(adapting: adapting))
        let done = expectCancellation(of: request).done
        await waitUntil { adapting.value == 1 }
        XCTAssertEqual(adapting.value, 1, "cancelled while the adapter hangs")
        request.cancel()
        // The adapter hangs for 60 s: completing within 30 s means not waiting for it.
        await fulfillment(of: [done], timeout: 30)
        XCTAssertTrue(server.recordedRequests(path: "/hello").isEmpty)
    }

    func testAdaptersSeeTheCallersTaskLocals() async {
        enum Tenant { @TaskLocal static var id = "none" }
        struct Stamp: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setValue(Tenant.id, forHTTPHeaderField: "X-Tenant")
                return request
            }
        }
        let url = server.url("/hello")
        _ = await Tenant.$id.withValue("acme") {
            await Session.default.request(.url(url)).interceptor(Stamp()).response()
        }
        XCTAssertEqual(server.recordedRequests(path: "/hello").first?.header("X-Tenant"), "acme")
    }

    func testRequestsAreFreedAfterCompletingOnBothPaths() async {
        flaky("/free", failures: 1, retryAfter: "0")
        weak var direct: DataRequest?
        weak var intercepted: DataRequest?
        let session = Session.with(retryPolicy: RetryPolicy(maxRetries: 1), clock: TestClock())
        do {
            let one = session.request(.url(server.url("/free")))
            direct = one
            _ = await one.response()
            let two = session.request(.url(server.url("/free"))).interceptor(Passthrough()).plugin(
                RecordingPlugin(name: "P", log: EventLog()))
            intercepted = two
            _ = await two.response()
        }
        await waitUntil { direct == nil && intercepted == nil }
        XCTAssertNil(direct)
        XCTAssertNil(intercepted)
    }
}
