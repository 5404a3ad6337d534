import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The code of docs/testing.md, run: each test is one section of the guide, kept the same.

private struct User: Codable, Sendable, Equatable {
    var name: String
}

private struct Item: Codable, Sendable, Equatable {
    var id: Int
}

private enum ProfileAPI: Router {
    case me, rename(name: String), search(query: String, page: Int)
    var baseURL: String { "https://api.example.com" }
    var path: String {
        switch self {
        case .me, .rename: return "/me"
        case .search: return "/search"
        }
    }
    var method: HTTPMethod {
        if case .rename = self { return .put }
        return .get
    }
    var parameters: RequestParams {
        switch self {
        case .me: return .requestPlain
        case .rename(let name): return .body(["name": name])
        case let .search(query, page): return .query(["q": query, "page": page])
        }
    }
    var sampleData: Data {
        switch self {
        case .me: return Data(#"{"name":"Ada"}"#.utf8)
        case .rename, .search: return Data()
        }
    }
    var sampleStatusCode: Int {
        if case .rename = self { return 204 }
        return 200
    }
}

private final class ProfileService: BaseService, @unchecked Sendable {
    func me() async -> NetworkResult<User> { await request(ProfileAPI.me) }
    func rename(to name: String) async -> NetworkResult<Empty> { await request(ProfileAPI.rename(name: name)) }
}

private final class FaultInjector: Transport {
    struct Token: TransportCancellable { func cancel() {} }
    private let engine: any Transport
    init(wrapping engine: any Transport) { self.engine = engine }

    func execute(
        _ request: HTTPRequest, options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        guard request.url.path == "/flaky" else {
            return engine.execute(request, options: options, completion: completion)
        }
        DispatchQueue.global().async { completion(TransportResult(request: request, error: .timedOut(.request))) }
        return Token()
    }
}

final class TestingGuideTests: XCTestCase {
    func testStubs() async throws {
        let stubs = StubTransport()
        let service = ProfileService(session: Session(transport: stubs))
        let me = await service.me()
        XCTAssertEqual(me.value, User(name: "Ada"))

        stubs.on(.router(ProfileAPI.rename(name: "Grace")), reply: .json(#"{"message":"name taken"}"#, statusCode: 409))
        stubs.on(.target(ProfileAPI.self) { if case .search = $0 { true } else { false } }, reply: .json([Item(id: 1)]))
        stubs.on(.request(.get, "/search").query("page", "2"), reply: .json([Item(id: 2)]))
        stubs.on(.request(.put, "/me").header("If-Match").jsonBody(["name": "Lin"]), reply: .empty(statusCode: 204))
        stubs.on(
            .request(.post, "/upload").body("a large body") { $0.count > 1_000_000 }, reply: .empty(statusCode: 413))

        guard case .requestErr(let taken) = await service.rename(to: "Grace") else { return XCTFail("expected 409") }
        XCTAssertEqual(taken.statusCode, 409)
        XCTAssertEqual(taken.message, "name taken")
        let session = Session(transport: stubs)
        let firstPage = try await session.request(ProfileAPI.search(query: "tea", page: 1)).decodable([Item].self)
        let secondPage = try await session.request(ProfileAPI.search(query: "tea", page: 2)).decodable([Item].self)
        XCTAssertEqual(firstPage, [Item(id: 1)])
        XCTAssertEqual(secondPage, [Item(id: 2)])
        var lin = try ProfileAPI.rename(name: "Lin").asURLRequest()
        lin.setValue("\"v1\"", forHTTPHeaderField: "If-Match")
        let linResponse = await session.request(.urlRequest(lin)).response()
        XCTAssertEqual(linResponse.statusCode, 204)
        let ada = await service.rename(to: "Ada")
        XCTAssertNil(ada.failure, "the sample: 204")

        stubs.on(.request(.get, "/me"), reply: .empty(statusCode: 401), .json(User(name: "Ada")))
        let expired = await service.me(), renewed = await service.me()
        guard case .requestErr(let unauthorized) = expired else { return XCTFail("expected 401") }
        XCTAssertEqual(unauthorized.statusCode, 401)
        XCTAssertEqual(renewed.value, User(name: "Ada"))

        stubs.on(.request(.get, "/search"), reply: .timedOut())
        stubs.on(.request(.put, "/me"), reply: .failure(.cannotConnect(message: "connection refused (stub)")))
        stubs.on(.request(.get, "/me").header("X-Cancel"), reply: .failure(.cancelled))
        stubs.on(.request(.get, "/secure"), reply: .failure(.tlsFailure(message: "certificate verify failed (stub)")))
        stubs.on(.request(.get, "/nowhere"), reply: .failure(.dnsFailure(host: "api.example.com")))
        guard case .networkFail(let offline) = await service.rename(to: "Grace") else { return XCTFail("networkFail") }
        XCTAssertSameError(offline.error, .cannotConnect(message: "connection refused (stub)"))
    }

    func testVirtualTimeAndNever() async throws {
        let clock = TestClock(mode: .manual)
        let slow = StubTransport(behavior: .delayed(seconds: 5), clock: clock)
        let pending = Task { await ProfileService(session: Session(transport: slow)).me() }
        try await clock.waitUntilPending()
        clock.advance(by: 5)
        let answered = await pending.value
        XCTAssertEqual(answered.value, User(name: "Ada"))

        let hanging = StubTransport(behavior: .never)
        let request = Session(transport: hanging).request(ProfileAPI.me)
        let cancelled = Task { await request.response() }
        while hanging.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        request.cancel()
        let outcome = await cancelled.value
        XCTAssertEqual(outcome.error, .cancelled)

        let quick = Session.stubbed { request in
            request.url.path == "/me" ? .json(User(name: "Ada")) : .empty(statusCode: 404)
        }
        let quickMe = try await quick.request(ProfileAPI.me).decodable(User.self)
        XCTAssertEqual(quickMe, User(name: "Ada"))
    }

    func testRecorder() async throws {
        var retrying = Session.Configuration()
        retrying.retryPolicy = .default
        retrying.clock = TestClock()
        let flaky = StubTransport()
        flaky.on(.request(.get, "/me"), reply: .empty(statusCode: 503), .json(User(name: "Ada")))
        _ = await ProfileService(session: Session(configuration: retrying, transport: flaky)).me()
        _ = await ProfileService(session: Session(configuration: retrying, transport: flaky)).rename(to: "Grace")

        let sent = flaky.requests
        XCTAssertEqual(
            sent.map { "\($0.method) \($0.path)" },
            ["GET /me", "GET /me", "PUT /me"])
        XCTAssertEqual(sent[2].json, ["name": "Grace"])
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: sent[2].body), ["name": "Grace"])
        XCTAssertEqual(sent[2].header("Content-Type"), "application/json")
        guard case .rename(let name)? = sent[2].target as? ProfileAPI else { return XCTFail("target") }
        XCTAssertEqual(name, "Grace")
        XCTAssertEqual(flaky.requests(matching: .request(.get, "/me")).count, 2)
    }

    func testRecordAndReplay() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-guide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let server = try TestHTTPServer()
        server.route("GET", "/me") { _ in .json(User(name: "Ada")) }
        // Record once against the server, as `COURIER_FIXTURES=record-missing` would...
        let recording = ReplayTransport(fixtures: fixtures, mode: .recordMissing)
        let live = try await Session(transport: recording).request(.url(server.url("/me"))).decodable(User.self)
        XCTAssertEqual(live, User(name: "Ada"))
        server.shutdown()
        // ...then offline, as the guide's `.fromEnvironment(default: .replay)` does.
        let replay = ReplayTransport(
            fixtures: fixtures, mode: .fromEnvironment("COURIER_GUIDE_UNSET", default: .replay))
        let recorded = ProfileService(session: Session(transport: replay))
        let replayed = await recorded.me()
        XCTAssertEqual(replayed.value, User(name: "Ada"))
    }

    func testTransportsOfYourOwn() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let faulty = Session { engine in FaultInjector(wrapping: engine) }
        let flaky = await faulty.request(.url(server.url("/flaky"))).response()
        let hello = await faulty.request(.url(server.url("/hello"))).response()
        XCTAssertSameError(flaky.error, .timedOut(.request))
        XCTAssertEqual(hello.statusCode, 200)

        let checked = StubTransport()
        checked.on(.request(.get, "/ping"), reply: .text("pong"))
        checked.on(.request(.get, "/hang"), reply: StubResponse(behavior: .never))
        let report = await TransportConformance(
            transport: checked,
            answered: HTTPRequest(testing: URL(string: "https://api.example.com/ping")!),
            pending: HTTPRequest(testing: URL(string: "https://api.example.com/hang")!)
        ).run()
        XCTAssertTrue(report.failures.isEmpty, report.description)
    }

    func testARealServerOnLoopback() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        server.route("POST", "/auth/signin") { request in
            request.header("Content-Type") == "application/json" ? .json(User(name: "Ada")) : .text("bad", status: 400)
        }
        server.route("GET", "/me", responses: [.empty(status: 401), .json(User(name: "Ada"))])
        server.failNext(2, path: "/search", with: .closeBeforeHeaders)
        server.failNext(path: "/me", with: .empty(status: 503))
        let delayed = server.url("/delay?ms=500")
        let onServer = Session()
        let first = await onServer.request(.url(server.url("/me"))).response()
        let arrived = await server.waitForRequests(count: 1, path: "/me")
        let signIns = server.recordedRequests(path: "/auth/signin")
        XCTAssertEqual(first.statusCode, 503, "the queued fault comes first")
        let second = await onServer.request(.url(server.url("/me"))).response()
        XCTAssertEqual(second.statusCode, 401, "then the sequence")
        XCTAssertTrue(arrived)
        XCTAssertTrue(signIns.isEmpty)
        XCTAssertEqual(delayed.path, "/delay")
        let search = await onServer.request(.url(server.url("/search"))).response()
        XCTAssertNotNil(search.error, "closed before headers")
    }

    func testComingFromMoya() async {
        let moyaStyle = StubTransport(behavior: .immediate)
        moyaStyle.on(.target(ProfileAPI.self), reply: .empty(statusCode: 401))
        let provider = ProfileService(session: Session(transport: moyaStyle))
        guard case .requestErr(let failure) = await provider.me() else { return XCTFail("expected 401") }
        XCTAssertEqual(failure.statusCode, 401)
    }
}
