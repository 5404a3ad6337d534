import Courier
import CourierSync
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubTransport`: stubs per matcher and router case, sequences, sample data, behaviours,
/// transport errors and loud failures for unmatched requests, all through the real pipeline.
final class StubTransportTests: XCTestCase {
    struct Profile: Codable, Sendable, Equatable { var name: String }

    enum ProfileAPI: Router {
        case me, profile(id: Int), rename(id: Int, name: String), search(term: String, page: Int), noSample
        var baseURL: String { "https://api.example.test/v1" }
        var path: String {
            switch self {
            case .me: return "/me"
            case .profile(let id), .rename(let id, _): return "/profiles/\(id)"
            case .search: return "/search"
            case .noSample: return "/plain"
            }
        }
        var method: HTTPMethod {
            if case .rename = self { return .put }
            return .get
        }
        var parameters: RequestParams {
            switch self {
            case .rename(_, let name): return .body(["name": name])
            case let .search(term, page): return .query(["q": term, "page": page])
            default: return .requestPlain
            }
        }
        var sampleData: Data {
            switch self {
            case .me, .profile: return Data(#"{"name":"Sample"}"#.utf8)
            case .rename, .search, .noSample: return Data()
            }
        }
        var sampleStatusCode: Int {
            if case .rename = self { return 204 }
            return 200
        }
        var sampleHeaders: HTTPHeaders {
            if case .me = self { return [.contentType("application/json"), HTTPHeader(name: "X-Sample", value: "yes")] }
            return sampleData.isEmpty ? HTTPHeaders() : [.contentType("application/json")]
        }
    }

    final class ProfileService: BaseService, @unchecked Sendable {
        func me() async -> NetworkResult<Profile> { await request(ProfileAPI.me) }
        func profile(_ id: Int) async -> NetworkResult<Profile> { await request(ProfileAPI.profile(id: id)) }
    }

    // MARK: Sample data

    func testRoutersSampleDataStatusAndHeadersAreTheDefault() async throws {
        let stubs = StubTransport()
        let session = Session(transport: stubs)
        let me = await session.request(ProfileAPI.me).validate(contentType: ["application/json"]).response()
        XCTAssertEqual(me.statusCode, 200)
        XCTAssertEqual(me.headers["X-Sample"], "yes")
        XCTAssertEqual(try me.result.get(), Data(#"{"name":"Sample"}"#.utf8))
        let renamed = await session.request(ProfileAPI.rename(id: 1, name: "Ada")).response()
        XCTAssertEqual(renamed.statusCode, 204, "a sample status without data is a declared sample")
        let sample = await ProfileService(session: session).profile(7)
        XCTAssertEqual(sample.value, Profile(name: "Sample"))
    }

    func testSampleDataCanBeTurnedOff() async {
        let stubs = StubTransport(sampleData: false)
        let response = await Session(transport: stubs).request(ProfileAPI.me).response()
        guard case .unhandledRequest = response.error else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
    }

    // MARK: Overrides

    func testStubsOverrideSampleDataByCaseAndLaterStubsWin() async throws {
        let stubs = StubTransport()
        stubs.on(.get("/v1/profiles/1"), reply: .json(Profile(name: "first")))
        stubs.on(ProfileAPI.profile(id: 1), reply: .json(Profile(name: "exact case")))
        stubs.on(
            .target(ProfileAPI.self) { if case .profile(let id) = $0 { return id > 100 } else { return false } },
            reply: .json(Profile(name: "big id")))
        let service = ProfileService(session: Session(transport: stubs))
        let exact = await service.profile(1), big = await service.profile(101)
        let sampled = await service.profile(2), me = await service.me()
        XCTAssertEqual(exact.value, Profile(name: "exact case"))
        XCTAssertEqual(big.value, Profile(name: "big id"))
        XCTAssertEqual(sampled.value, Profile(name: "Sample"), "no stub: the sample answers")
        XCTAssertEqual(me.value, Profile(name: "Sample"))
    }

    func testMatchersLookAtMethodPathQueryHeadersAndBody() async throws {
        let stubs = StubTransport(sampleData: false)
        stubs.on(.get("/v1/search").query("page", "2"), reply: .text("page two"))
        stubs.on(.get("/v1/search").query("q", "cats").query("page", "1"), reply: .text("cats"))
        stubs.on(.put("/v1/profiles/1").jsonBody(["name": "Ada"]), reply: .text("renamed Ada"))
        stubs.on(.put("/v1/profiles/1").jsonBody(Profile.self) { $0.name.hasPrefix("G") }, reply: .text("a G name"))
        stubs.on(.put("/v1/profiles/1").body("an empty body") { $0.isEmpty }, reply: .text("empty"))
        stubs.on(.method(.delete).header("X-Confirm", "yes"), reply: .empty())
        let session = Session(transport: stubs)
        func text(_ target: any URLRequestConvertible) async -> String? {
            try? await session.request(target).validate().string()
        }
        let two = await text(ProfileAPI.search(term: "dogs", page: 2))
        let cats = await text(ProfileAPI.search(term: "cats", page: 1))
        let ada = await text(ProfileAPI.rename(id: 1, name: "Ada"))
        let grace = await text(ProfileAPI.rename(id: 1, name: "Grace"))
        XCTAssertEqual(two, "page two")
        XCTAssertEqual(cats, "cats")
        XCTAssertEqual(ada, "renamed Ada")
        XCTAssertEqual(grace, "a G name")
        var delete = URLRequest(url: URL(string: "https://api.example.test/v1/profiles/1")!)
        delete.httpMethod = "DELETE"
        let unconfirmed = await session.request(delete).response()
        guard case .unhandledRequest = unconfirmed.error else { return XCTFail("expected unhandledRequest") }
        delete.setValue("yes", forHTTPHeaderField: "X-Confirm")
        let confirmed = await session.request(delete).response()
        XCTAssertEqual(confirmed.statusCode, 204)
    }

    // MARK: Sequences and transport errors

    func testSequencesAnswerInOrderThenRepeatTheLast() async throws {
        let stubs = StubTransport()
        stubs.on(.get("/v1/me"), reply: .empty(statusCode: 401), .json(Profile(name: "Ada")))
        let service = ProfileService(session: Session(transport: stubs))
        guard case .requestErr(let failure) = await service.me() else { return XCTFail("expected requestErr first") }
        XCTAssertEqual(failure.statusCode, 401)
        let second = await service.me(), third = await service.me()
        XCTAssertEqual(second.value, Profile(name: "Ada"))
        XCTAssertEqual(third.value, Profile(name: "Ada"), "the last response repeats")
        XCTAssertEqual(stubs.requests.count, 3)
    }

    func testTransportErrorsReachServicesAsNetworkFail() async {
        let cases: [(StubResponse, CourierError)] = [
            (.timedOut, .timedOut(.request)),
            (.cannotConnect, .cannotConnect(message: "connection refused (stub)")),
            (.cancelled, .cancelled),
            (.tlsFailure, .tlsFailure(message: "certificate verify failed (stub)")),
            (.failure(.dnsFailure(host: "api.example.test")), .dnsFailure(host: "api.example.test"))
        ]
        for (stub, expected) in cases {
            let stubs = StubTransport()
            stubs.on(.any, reply: stub)
            guard case .networkFail(let failure) = await ProfileService(session: Session(transport: stubs)).me() else {
                XCTFail("expected networkFail for \(expected)")
                continue
            }
            XCTAssertEqual(failure.error, expected)
        }
    }

    // MARK: Unmatched requests

    func testUnmatchedRequestsFailLoudlyDescribingTheRequest() async throws {
        var configuration = Session.Configuration()
        configuration.defaultHeaders["X-Api-Key"] = "key-123"
        let stubs = StubTransport()
        stubs.on(.get("/elsewhere"), reply: .empty())
        let session = Session(configuration: configuration, transport: stubs)
        var request = URLRequest(url: URL(string: "https://api.example.test/v1/orders?page=3")!)
        request.httpMethod = "POST"
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"item":"tea"}"#.utf8)
        let response = await session.request(request).response()
        guard case .unhandledRequest(let reason) = response.error else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
        XCTAssertTrue(reason.contains("POST https://api.example.test/v1/orders?page=3"), reason)
        XCTAssertTrue(reason.contains("Authorization: <redacted>"), reason)
        XCTAssertTrue(reason.contains("X-Api-Key: <redacted>"), reason)
        XCTAssertFalse(reason.contains("secret-token"), reason)
        XCTAssertFalse(reason.contains("key-123"), reason)
        XCTAssertTrue(reason.contains(#"body: {"item":"tea"}"#), reason)
        XCTAssertTrue(reason.contains("GET /elsewhere"), "lists the stubs tried: \(reason)")
        XCTAssertEqual(stubs.unmatchedRequests.map(\.path), ["/v1/orders"])

        let plain = await session.request(ProfileAPI.noSample).response()
        guard case .unhandledRequest(let noSample) = plain.error else {
            return XCTFail("a router without sample data must fail")
        }
        XCTAssertTrue(noSample.contains("ProfileAPI.noSample declares no sampleData"), noSample)
    }

    func testAnUnmatchedRequestIsANetworkFailForServices() async {
        let stubs = StubTransport(sampleData: false)
        guard case .networkFail(let failure) = await ProfileService(session: Session(transport: stubs)).me() else {
            return XCTFail("expected networkFail")
        }
        guard case .unhandledRequest = failure.error else { return XCTFail("expected unhandledRequest") }
    }

    // MARK: Behaviours

    func testDelayedStubsWaitForVirtualTime() async throws {
        let clock = TestClock(mode: .manual)
        let stubs = StubTransport(behavior: .delayed(seconds: 5), clock: clock)
        let session = Session(transport: stubs)
        let finished = Counter()
        let task = Task {
            let response = await session.request(ProfileAPI.me).response()
            finished.increment()
            return response
        }
        try await clock.waitUntilPending()
        clock.advance(by: 4.9)
        XCTAssertEqual(clock.pendingCount, 1, "not due yet")
        XCTAssertEqual(finished.value, 0)
        clock.advance(by: 0.1)
        XCTAssertEqual(clock.pendingCount, 0)
        let response = await task.value
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(finished.value, 1)
    }

    func testDelayedStubsAnswerInDueOrder() async throws {
        let clock = TestClock(mode: .manual)
        let stubs = StubTransport(clock: clock)
        stubs.on(.get("/v1/profiles/1"), reply: StubResponse.json(Profile(name: "slow")).delayed(by: 3))
        stubs.on(.get("/v1/profiles/2"), reply: StubResponse.json(Profile(name: "fast")).delayed(by: 1))
        let session = Session(transport: stubs)
        let order = Locked<[String]>([])
        let slow = Task {
            let value = await ProfileService(session: session).profile(1).value;
            order.withLock { $0.append(value?.name ?? "?") }
        }
        try await clock.waitUntilPending(count: 1)
        let fast = Task {
            let value = await ProfileService(session: session).profile(2).value;
            order.withLock { $0.append(value?.name ?? "?") }
        }
        try await clock.waitUntilPending(count: 2)
        clock.advance(by: 1)
        await fast.value
        XCTAssertEqual(order.withLock { $0 }, ["fast"])
        clock.advance(by: 2)
        await slow.value
        XCTAssertEqual(order.withLock { $0 }, ["fast", "slow"])
    }

    func testNeverAnsweringStubsCompleteOnceWhenCancelled() async throws {
        let stubs = StubTransport(behavior: .never)
        let session = Session(transport: stubs)
        let calls = Counter()
        let request = session.request(ProfileAPI.me)
        let done = expectation(description: "completed")
        request.response { response in
            XCTAssertEqual(response.error, .cancelled)
            calls.increment()
            done.fulfill()
        }
        while stubs.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        request.cancel()
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(calls.value, 1)
    }

    func testSwiftTaskCancellationEndsANeverStub() async throws {
        let stubs = StubTransport()
        stubs.on(.get("/v1/me"), reply: .never)
        let session = Session(transport: stubs)
        let task = Task { await session.request(ProfileAPI.me).response() }
        while stubs.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let response = await task.value
        XCTAssertEqual(response.error, .cancelled)
    }

    // MARK: The pipeline above the transport

    func testRetriesAreSeparateRecordedCalls() async throws {
        var configuration = Session.Configuration()
        configuration.retryPolicy = RetryPolicy(maxRetries: 2, baseDelay: 0.001, maxDelay: 0.01)
        let stubs = StubTransport()
        stubs.on(
            .get("/v1/me"), reply: .empty(statusCode: 503), .failure(.timedOut(.connect)), .json(Profile(name: "Ada")))
        let response = await Session(configuration: configuration, transport: stubs)
            .request(ProfileAPI.me).validate().decodableResponse(of: Profile.self)
        XCTAssertEqual(try response.result.get(), Profile(name: "Ada"))
        XCTAssertEqual(response.metrics?.retryCount, 2)
        XCTAssertEqual(
            stubs.requests.map(\.requestLine), Array(repeating: "GET https://api.example.test/v1/me", count: 3))
        XCTAssertEqual(stubs.requests.map(\.index), [0, 1, 2])
    }

    func testPluginsAndInterceptorsRunAroundStubs() async throws {
        struct Stamp: Plugin {
            let seen: Locked<[String]>
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                var request = request
                request.setValue("attempt-\(context.attempt)", forHTTPHeaderField: "X-Attempt")
                return request
            }
            func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
                seen.withLock {
                    $0.append("\(context.router.map { RecordedRequestName.of($0) } ?? "?") \(response.statusCode ?? 0)")
                }
            }
        }
        let token = Interceptor(
            adapt: { request, _ in
                var request = request
                request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
                return request
            },
            retry: { _, response, context in
                response.statusCode == 503 && context.attempt == 0 ? .retry(after: 0) : .doNotRetry
            })
        let seen = Locked<[String]>([])
        var configuration = Session.Configuration()
        configuration.plugins = [Stamp(seen: seen)]
        configuration.interceptors = [token]
        let stubs = StubTransport()
        stubs.on(.get("/v1/me"), reply: .empty(statusCode: 503), .json(Profile(name: "Ada")))
        let result = await ProfileService(session: Session(configuration: configuration, transport: stubs)).me()
        XCTAssertEqual(result.value, Profile(name: "Ada"))
        XCTAssertEqual(stubs.requests.map { $0.header("X-Attempt") }, ["attempt-0", "attempt-1"])
        XCTAssertEqual(stubs.requests.map { $0.header("Authorization") }, ["Bearer t", "Bearer t"])
        XCTAssertEqual(seen.withLock { $0 }, ["me 503", "me 200"])
    }

    func testStreamsAndEventStreamsReadStubbedBodies() async throws {
        enum Feed: Router {
            case events
            var baseURL: String { "https://api.example.test" }
            var path: String { "/events" }
            var method: HTTPMethod { .get }
            var sampleData: Data { Data("data: first\n\ndata: second\n\n".utf8) }
            var sampleHeaders: HTTPHeaders { [.contentType("text/event-stream")] }
        }
        let stubs = StubTransport()
        stubs.on(.get("/lines"), reply: .text("one\ntwo\n"))
        let session = Session(transport: stubs)
        var lines: [String] = []
        for try await line in session.streamRequest("https://api.example.test/lines").lines(maximumLineLength: 100) {
            lines.append(line)
        }
        XCTAssertEqual(lines, ["one", "two"])
        var events: [String] = []
        for try await event in session.streamRequest(Feed.events).events {
            events.append(event.data)
        }
        XCTAssertEqual(events, ["first", "second"], "from the router's sample")
        XCTAssertTrue(stubs.requests.last?.target is Feed)
    }

    func testValidationSeesStubbedStatuses() async {
        let stubs = StubTransport()
        stubs.on(.get("/v1/me"), reply: .json(#"{"error":"boom"}"#, statusCode: 500))
        let response = await Session(transport: stubs).request(ProfileAPI.me).validate().response()
        XCTAssertEqual(response.error, .unacceptableStatusCode(500))
    }

    // MARK: Recorder

    func testTheRecorderShowsWhatWasSentInOrder() async throws {
        let stubs = StubTransport()
        stubs.on(.any, reply: .empty())
        var configuration = Session.Configuration()
        configuration.defaultHeaders["X-Client"] = "tests"
        let session = Session(configuration: configuration, transport: stubs)
        _ = await session.request(ProfileAPI.rename(id: 4, name: "Grace")).response()
        _ = await session.request(ProfileAPI.search(term: "tea cups", page: 2)).response()

        let sent = stubs.requests
        XCTAssertEqual(sent.map(\.method), ["PUT", "GET"])
        XCTAssertEqual(sent[0].url?.absoluteString, "https://api.example.test/v1/profiles/4")
        XCTAssertEqual(sent[0].header("content-type"), "application/json")
        XCTAssertEqual(sent[0].header("X-Client"), "tests")
        XCTAssertEqual(sent[0].json, ["name": "Grace"])
        XCTAssertEqual(try sent[0].decodeJSON(Profile.self), Profile(name: "Grace"))
        XCTAssertEqual(sent[0].bodyText, #"{"name":"Grace"}"#)
        guard case .rename(let id, _) = sent[0].target(as: ProfileAPI.self) else { return XCTFail("target kept") }
        XCTAssertEqual(id, 4)
        XCTAssertEqual(sent[1].path, "/v1/search")
        XCTAssertEqual(sent[1].query("q"), "tea cups")
        XCTAssertEqual(sent[1].query("page"), "2")
        XCTAssertEqual(sent[1].json, nil)
        XCTAssertEqual(stubs.requests(matching: .put("/v1/profiles/4")).count, 1)
        stubs.clearRequests()
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testDownloadsAndSizeLimitsBehaveAsWithTheEngine() async throws {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 8
        let stubs = StubTransport()
        stubs.on(.get("/big"), reply: .text("far too large"))
        stubs.on(.get("/file"), reply: .text("file"))
        let session = Session(configuration: configuration, transport: stubs)
        let big = await session.request("https://stub.test/big").response()
        XCTAssertEqual(big.error, .responseTooLarge(limit: 8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stubs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = await session.download("https://stub.test/file", to: file).validate().response()
        XCTAssertEqual(download.fileURL, file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "file")
    }
}

/// The case name of a router value, for compact assertions.
enum RecordedRequestName {
    static func of(_ router: any Router) -> String {
        Mirror(reflecting: router).children.first?.label ?? String(describing: router)
    }
}
