@testable import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The authentication interceptor against the in-process server: credentials applied per
/// endpoint, single-flight refresh, refresh failure, loop prevention.
final class AuthenticationTests: XCTestCase {
    var server: TestHTTPServer!
    /// The one access token `/me` accepts.
    let validToken = Locked("new")
    let refreshes = Counter()

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        server.route("/me") { [validToken] request in
            request.header("Authorization") == "Bearer " + validToken.withLock { $0 }
                ? .text("me") : .jsonString(#"{"error":"token expired"}"#, status: 401)
        }
        server.route("/signin") { _ in .jsonString(#"{"error":"wrong password"}"#, status: 401) }
    }

    override func tearDown() { server.shutdown() }

    struct Route: Router {
        let baseURL: String
        let path: String
        var authorization: AuthorizationType = .bearer
        var parameters: RequestParams = .requestPlain
        var headers: HTTPHeaders = []
        var method: HTTPMethod { .get }
    }

    private func route(_ path: String, _ authorization: AuthorizationType = .bearer) -> Route {
        Route(baseURL: server.baseURL.absoluteString, path: path, authorization: authorization)
    }

    /// An interceptor starting from `old`, whose refresh returns `new` after `gate` (if any) opens.
    private func interceptor(
        credential: AuthCredential? = AuthCredential(accessToken: "old"),
        limit: AuthenticationInterceptor.RefreshLimit = .init(),
        refresh: (@Sendable (AuthCredential) async throws -> AuthCredential)? = nil
    )
        -> AuthenticationInterceptor
    {
        let refreshes = self.refreshes
        return AuthenticationInterceptor(credential: credential, limit: limit) { expired in
            refreshes.increment()
            if let refresh { return try await refresh(expired) }
            return AuthCredential(accessToken: "new")
        }
    }

    private func session(_ interceptor: AuthenticationInterceptor, clock: (any CourierClock)? = nil) -> Session {
        Session.with(interceptors: [interceptor], clock: clock)
    }

    func testTheCredentialIsAppliedAsTheEndpointAsks() async {
        let auth = interceptor(credential: AuthCredential(accessToken: "tok"))
        let session = session(auth)
        _ = await session.request(route("/echo", .bearer)).response()
        _ = await session.request(route("/echo", .basic)).response()
        _ = await session.request(route("/echo", .custom(header: "X-Auth-Token"))).response()
        _ = await session.request(route("/echo", .custom(header: "Authorization", scheme: "Token"))).response()
        let sent = server.recordedRequests(path: "/echo")
        XCTAssertEqual(sent.map { $0.header("Authorization") }, ["Bearer tok", "Basic tok", nil, "Token tok"])
        XCTAssertEqual(sent[2].header("X-Auth-Token"), "tok")
    }

    /// `.query(name:)` and `.cookie(name:)`: the credential goes in the URL or among the request's
    /// own cookies, and a 401's replay after the refresh replaces it instead of adding a second.
    /// The logger never prints the query credential, though the policy does not name `appid`.
    func testQueryAndCookieCredentialsAreAppliedAndRefreshed() async {
        server.route("/keyed") { [validToken] request in
            let key = request.query["appid"] ?? ""
            return key == validToken.withLock { $0 } ? .text("keyed") : .text("key \(key) expired", status: 401)
        }
        server.route("/cookied") { [validToken] request in
            request.header("Cookie") == "theme=dark; sid=" + validToken.withLock { $0 }
                ? .text("cookied") : .text("expired", status: 401)
        }
        let lines = Locked<[String]>([])
        var configuration = Session.Configuration()
        // Tokens long enough to be searched for in text: a body echoing one is scrubbed too.
        configuration.interceptors = [
            AuthenticationInterceptor(credential: AuthCredential(accessToken: "old-key-S1")) { _ in
                AuthCredential(accessToken: "new-key-S2")
            }
        ]
        configuration.plugins = [
            NetworkLogger(level: .body) { entry in lines.withLock { $0.append(entry.message) } }
        ]
        validToken.withLock { $0 = "new-key-S2" }
        let session = Session(configuration: configuration)
        var keyed = route("/keyed", .query(name: "appid"))
        keyed.parameters = .query(["city": "Oslo", "appid": "placeholder"])
        var cookied = route("/cookied", .cookie(name: "sid"))
        cookied.headers = ["Cookie": "theme=dark"]

        let keyedResponse = await session.request(keyed).response()
        let cookiedResponse = await session.request(cookied).response()
        XCTAssertEqual(keyedResponse.data.flatMap { String(data: $0, encoding: .utf8) }, "keyed")
        XCTAssertEqual(cookiedResponse.data.flatMap { String(data: $0, encoding: .utf8) }, "cookied")
        XCTAssertEqual(
            server.recordedRequests(path: "/keyed").map(\.rawTarget),
            ["/keyed?city=Oslo&appid=old-key-S1", "/keyed?city=Oslo&appid=new-key-S2"])
        XCTAssertEqual(
            server.recordedRequests(path: "/cookied").map { $0.header("Cookie") }, ["theme=dark; sid=new-key-S2"],
            "one refresh, for the first 401; the second request finds the new token")
        let log = lines.withLock { $0.joined(separator: "\n") }
        XCTAssertTrue(log.contains("/keyed?city=Oslo&appid=<redacted>"), log)
        XCTAssertTrue(log.contains("key <redacted> expired"), log)
        XCTAssertFalse(log.contains("key-S1") || log.contains("key-S2"), log)
    }

    func testEndpointsThatOptOutAreNeverAuthenticatedNorRefreshed() async {
        let auth = interceptor()
        let session = session(auth)
        let signIn = await session.request(route("/signin", .none)).response()
        let plain = await session.request(.url(server.url("/signin"))).response()
        XCTAssertEqual(signIn.statusCode, 401, "the sign-in's own 401 is the caller's to handle")
        XCTAssertEqual(plain.statusCode, 401)
        XCTAssertEqual(server.recordedRequests(path: "/signin").map { $0.header("Authorization") }, [nil, nil])
        XCTAssertEqual(refreshes.value, 0)
        XCTAssertEqual(signIn.metrics?.retryCount, 0)
    }

    func testA401RefreshesAndReplays() async {
        let auth = interceptor()
        let response = await session(auth).request(route("/me")).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.metrics?.retryCount, 1)
        XCTAssertEqual(refreshes.value, 1)
        XCTAssertEqual(auth.credential?.accessToken, "new")
        XCTAssertEqual(
            server.recordedRequests(path: "/me").map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
    }

    func testFiftyConcurrent401sCauseExactlyOneRefresh() async {
        // The server answers no `/me` request before all 50 have arrived, so every one of them
        // is sent with the old token and refused while the others are in flight; the refresh
        // completes only once all 50 wait for it. The waits are bounded (60 s) only so that a
        // broken build cannot hang.
        let validToken = self.validToken
        let arrived = Counter()
        server.route("/me") { request in
            arrived.increment()
            blockUntil { arrived.value >= 50 }
            return request.header("Authorization") == "Bearer " + validToken.withLock { $0 }
                ? .text("me") : .jsonString(#"{"error":"token expired"}"#, status: 401)
        }
        let box = Locked<AuthenticationInterceptor?>(nil)
        let auth = interceptor(refresh: { _ in
            await waitUntil { (box.withLock { $0 }?.waitingCount ?? 0) >= 50 }
            return AuthCredential(accessToken: "new")
        })
        box.withLock { $0 = auth }
        defer { box.withLock { $0 = nil } }  // the refresh closure holds the box
        let session = session(auth)
        let route = route("/me")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { await session.request(route).response().statusCode ?? 0 } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 50))
        XCTAssertEqual(refreshes.value, 1)
        let sent = server.recordedRequests(path: "/me").map { $0.header("Authorization") ?? "" }
        XCTAssertEqual(sent.filter { $0 == "Bearer old" }.count, 50)
        XCTAssertEqual(sent.filter { $0 == "Bearer new" }.count, 50)
    }

    /// A session whose refresh runs until `gate` opens (bounded at 60 s only so that a broken
    /// build cannot hang), its interceptor, and the first request, which got a 401 and started
    /// that refresh.
    private func refreshInProgress(
        until gate: Locked<Bool>
    ) async
        -> (session: Session, auth: AuthenticationInterceptor, route: Route, first: Task<DataResponse<Data?>, Never>)
    {
        let auth = interceptor(refresh: { _ in
            await waitUntil { gate.withLock { $0 } }
            return AuthCredential(accessToken: "new")
        })
        let session = session(auth)
        let route = route("/me")
        let first = Task { await session.request(route).response() }
        await waitUntil { refreshes.value == 1 && auth.waitingCount == 1 }
        return (session, auth, route, first)
    }

    func testRequestsStartedDuringARefreshWaitForIt() async {
        let gate = Locked(false)
        let (session, auth, route, first) = await refreshInProgress(until: gate)
        let later = (0..<10).map { _ in Task { await session.request(route).response() } }
        // Every later request has reached the interceptor and waits: none could have been sent.
        await waitUntil { auth.waitingCount == 11 }
        XCTAssertEqual(auth.waitingCount, 11, "the first request and the ten later ones wait for the refresh")
        XCTAssertEqual(server.recordedRequests(path: "/me").count, 1, "nothing is sent while the refresh runs")
        gate.withLock { $0 = true }
        let firstStatus = await first.value.statusCode
        XCTAssertEqual(firstStatus, 200)
        for task in later {
            let response = await task.value
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(response.metrics?.retryCount, 0, "sent once, with the new credential")
        }
        XCTAssertEqual(refreshes.value, 1)
    }

    func testCancellingARequestWaitingForARefreshCompletesItAtOnce() async {
        let gate = Locked(false)
        let (session, auth, route, first) = await refreshInProgress(until: gate)
        let waiting = session.request(route)
        let done = expectCancellation(of: waiting).done
        await waitUntil { auth.waitingCount == 2 }
        XCTAssertEqual(auth.waitingCount, 2, "the request waits for the refresh when cancelled")
        waiting.cancel()
        // The refresh stays blocked until the gate opens below: completing within 30 s means
        // completing without it.
        await fulfillment(of: [done], timeout: 30)
        gate.withLock { $0 = true }
        let firstStatus = await first.value.statusCode
        XCTAssertEqual(firstStatus, 200, "the refresh others wait for goes on")
        XCTAssertEqual(
            server.recordedRequests(path: "/me").map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
    }

    func testAKnownExpiredCredentialIsRefreshedBeforeSending() async {
        let clock = TestClock()
        let expired = AuthCredential(accessToken: "old", refreshToken: "r", expiresAt: clock.now.addingTimeInterval(-1))
        let auth = interceptor(credential: expired)
        let response = await session(auth, clock: clock).request(route("/me")).response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(server.recordedRequests(path: "/me").map { $0.header("Authorization") }, ["Bearer new"])
        XCTAssertEqual(refreshes.value, 1)
    }

    func testAFailedRefreshFailsEveryWaitingRequest() async {
        // The refresh fails only once all 20 requests wait for it (each either got its 401 or
        // was about to be sent), so none of them can start a second one.
        let box = Locked<AuthenticationInterceptor?>(nil)
        let auth = interceptor(refresh: { _ in
            await waitUntil { (box.withLock { $0 }?.waitingCount ?? 0) >= 20 }
            throw TestFailure("refresh token revoked")
        })
        box.withLock { $0 = auth }
        defer { box.withLock { $0 = nil } }  // the refresh closure holds the box
        let session = session(auth)
        let route = route("/me")
        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for _ in 0..<20 { group.addTask { await session.request(route).response().error } }
            return await group.reduce(into: [CourierError?]()) { $0.append($1) }
        }
        XCTAssertEqual(errors.count, 20)
        for error in errors {
            XCTAssertEqual(error, .credentialRefreshFailed)
            XCTAssertEqual(error?.description, "Refreshing the credential failed: refresh token revoked")
            XCTAssertEqual(
                (error?.underlying as? TestFailure)?.description, "refresh token revoked", "the refresh's own error")
        }
        XCTAssertEqual(refreshes.value, 1)
        XCTAssertEqual(auth.credential?.accessToken, "old")
    }

    func testRefreshLoopsEndWithATypedErrorUntilTheWindowPasses() async {
        validToken.withLock { $0 = "nothing-is-accepted" }
        let clock = TestClock(mode: .manual)
        let issued = Locked(0)
        let auth = interceptor(
            limit: .init(maxRefreshes: 2, window: 60),
            refresh: { _ in
                AuthCredential(accessToken: "new-\(issued.withLock { $0 += 1; return $0 })")
            })
        let session = session(auth, clock: clock)
        let response = await session.request(route("/me")).response()
        XCTAssertSameError(response.error, .tooManyCredentialRefreshes(limit: 2, window: 60))
        XCTAssertEqual(refreshes.value, 2)
        XCTAssertEqual(server.recordedRequests(path: "/me").count, 3, "the first attempt and one per refresh")

        let again = await session.request(route("/me")).response()
        XCTAssertSameError(again.error, .tooManyCredentialRefreshes(limit: 2, window: 60), "still within the window")
        XCTAssertEqual(refreshes.value, 2)

        clock.advance(by: 61)
        validToken.withLock { $0 = "new-3" }
        let later = await session.request(route("/me")).response()
        XCTAssertEqual(later.statusCode, 200, "a new window allows a refresh again")
        XCTAssertEqual(refreshes.value, 3)
        XCTAssertEqual(issued.withLock { $0 }, 3)
    }

    func testAMissingCredentialFailsBeforeSending() async {
        let auth = interceptor(credential: nil)
        let response = await session(auth).request(route("/me")).response()
        XCTAssertEqual(response.error, .missingCredential)
        XCTAssertTrue(server.recordedRequests(path: "/me").isEmpty)
        XCTAssertEqual(refreshes.value, 0)
    }

    func testA401ForAnOlderCredentialIsReplayedWithoutRefreshing() async {
        // The app signs in again while a request sent with the old token is on its way back.
        let auth = interceptor()
        let release = Locked(false)
        server.route("/slow-me") { [validToken] request in
            blockUntil { release.withLock { $0 } }
            return request.header("Authorization") == "Bearer " + validToken.withLock { $0 }
                ? .text("me") : .text("expired", status: 401)
        }
        let session = session(auth)
        let route = route("/slow-me")
        let pending = Task { await session.request(route).response() }
        await waitUntil { server.recordedRequests(path: "/slow-me").count == 1 }
        auth.credential = AuthCredential(accessToken: "new")
        release.withLock { $0 = true }
        let response = await pending.value
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(refreshes.value, 0)
        XCTAssertEqual(
            server.recordedRequests(path: "/slow-me").map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
    }
}
