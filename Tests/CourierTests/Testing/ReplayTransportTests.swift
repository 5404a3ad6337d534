import Courier
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ReplayTransport`: record against the in-process server, shut it down, replay offline.
final class ReplayTransportTests: XCTestCase {
    struct Greeting: Codable, Sendable, Equatable { var text: String; var count: Int }

    private var directory: URL!

    override func setUp() {
        super.setUp()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-fixtures-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func makeServer() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.route("POST", "/greet") { request in
            let name = (try? JSONDecoder().decode([String: String].self, from: request.body))?["name"] ?? "?"
            return TestHTTPResponse.json(Greeting(text: "hello \(name)", count: 1))
                .adding("Set-Cookie", "session=abc123")
                .adding("X-Request-Id", "r-1")
        }
        server.route("GET", "/plain") { _ in .text("just text") }
        server.route("GET", "/binary") { _ in .data(Data([0, 159, 146, 150, 255])) }
        let calls = CallCounter()
        server.route("GET", "/flaky") { _ in
            calls.next() == 0 ? .jsonString(#"{"error":"expired"}"#, status: 401) : .jsonString(#"{"ok":true}"#)
        }
        return server
    }

    private func greet(_ session: Session, base: URL, name: String) async -> DataResponse<Greeting> {
        await session.request(
            base.appendingPathComponent("greet").absoluteString, method: .post,
            parameters: .body(["name": name]), headers: [.authorization(bearerToken: "secret-token")]
        )
        .validate().decodableResponse(of: Greeting.self)
    }

    func testRecordThenReplayWithTheServerGone() async throws {
        let server = try makeServer()
        let recorder = ReplayTransport(fixtures: directory, mode: .record)
        let recording = Session(transport: recorder)
        let live = await greet(recording, base: server.baseURL, name: "Ada")
        XCTAssertEqual(try live.result.get(), Greeting(text: "hello Ada", count: 1))
        let text = try await recording.request(.url(server.url("/plain"))).validate().string()
        let bytes = try await recording.request(.url(server.url("/binary"))).validate().data()
        XCTAssertEqual(server.requestsServed, 3)
        server.shutdown()

        let replayer = ReplayTransport(fixtures: directory, mode: .replay)
        let offline = Session(transport: replayer)
        // Any host and port: the key is method, path, query and body.
        let replayed = await greet(offline, base: URL(string: "http://127.0.0.1:9")!, name: "Ada")
        XCTAssertEqual(try replayed.result.get(), Greeting(text: "hello Ada", count: 1))
        XCTAssertEqual(replayed.headers["X-Request-Id"], "r-1")
        XCTAssertEqual(replayed.statusCode, 200)
        let replayedText = try await offline.request(.url("http://127.0.0.1:9/plain")).validate().string()
        let replayedBytes = try await offline.request(.url("http://127.0.0.1:9/binary")).validate().data()
        XCTAssertEqual(replayedText, text)
        XCTAssertEqual(replayedBytes, bytes)
        XCTAssertEqual(replayer.requests.map(\.path), ["/greet", "/plain", "/binary"])
    }

    func testFixturesAreReadableJSONWithSecretsRedacted() async throws {
        let server = try makeServer()
        defer { server.shutdown() }
        let transport = ReplayTransport(fixtures: directory, mode: .record)
        _ = await greet(Session(transport: transport), base: server.baseURL, name: "Ada")
        var request = URLRequest(url: server.url("/greet"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"Ada"}"#.utf8)
        let file = transport.fixtureURL(for: HTTPRequest(testing: request))
        XCTAssertTrue(file.lastPathComponent.hasPrefix("POST_greet_"), file.lastPathComponent)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(text.contains("secret-token"), text)
        XCTAssertFalse(text.contains("abc123"), text)
        let json = try XCTUnwrap(JSONValue(data: Data(text.utf8)))
        XCTAssertEqual(json["request"]?["method"], "POST")
        XCTAssertEqual(json["request"]?["path"], "/greet")
        XCTAssertEqual(json["request"]?["bodyJSON"], ["name": "Ada"])
        let headers = json["request"]?["headers"]
        XCTAssertTrue(headersContain(headers, "Authorization", "<redacted>"), text)
        let response = json["responses"]?[0]
        XCTAssertEqual(response?["status"], 200)
        XCTAssertEqual(response?["bodyJSON"], ["count": 1, "text": "hello Ada"])
        XCTAssertTrue(headersContain(response?["headers"], "Set-Cookie", "<redacted>"), text)
        XCTAssertTrue(headersContain(response?["headers"], "X-Request-Id", "r-1"), text)
        XCTAssertFalse(text.contains("Content-Length"), "framing headers are not stored: \(text)")
        XCTAssertTrue(text.contains("\n"), "pretty-printed")
    }

    /// The request summary hides the values of secret keys in the URL and the body; the fixture
    /// still matches the request as sent.
    func testFixturesRedactSecretKeysAndStillMatch() async throws {
        let server = try makeServer()
        let sign = { (session: Session, base: URL) in
            await session.request(
                base.appendingPathComponent("greet").absoluteString + "?token=tok-S1&lang=nb", method: .post,
                parameters: .body(["name": "Ada", "password": "pw-S2"])
            ).validate().decodableResponse(of: Greeting.self)
        }
        let recorded = await sign(
            Session(transport: ReplayTransport(fixtures: directory, mode: .record)), server.baseURL)
        XCTAssertEqual(try recorded.result.get(), Greeting(text: "hello Ada", count: 1))
        server.shutdown()

        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        let text = try String(contentsOf: try XCTUnwrap(files.first), encoding: .utf8)
        XCTAssertEqual(files.count, 1)
        XCTAssertFalse(text.contains("tok-S1") || text.contains("pw-S2"), text)
        let json = try XCTUnwrap(JSONValue(data: Data(text.utf8)))
        XCTAssertEqual(json["request"]?["bodyJSON"], ["name": "Ada", "password": "<redacted>"])
        XCTAssertEqual(json["request"]?["query"], "lang=nb&token=<redacted>")
        XCTAssertTrue(json["request"]?["url"]?.stringValue?.hasSuffix("/greet?token=<redacted>&lang=nb") == true, text)

        let offline = Session(transport: ReplayTransport(fixtures: directory, mode: .replay))
        let replayed = await sign(offline, URL(string: "http://127.0.0.1:9")!)
        XCTAssertEqual(try replayed.result.get(), Greeting(text: "hello Ada", count: 1))
    }

    /// The query parameter an endpoint declares as its credential (`.query(name:)`) is redacted in
    /// the fixture too, though the policy does not name it.
    func testFixturesRedactTheRoutersQueryCredential() async throws {
        struct Keyed: Router {
            let baseURL: String
            var path: String { "/plain" }
            var method: HTTPMethod { .get }
            var parameters: RequestParams { .query(["appid": "k-S3", "lang": "nb"]) }
            var authorization: AuthorizationType { .query(name: "appid") }
        }
        let server = try makeServer()
        defer { server.shutdown() }
        let session = Session(transport: ReplayTransport(fixtures: directory, mode: .record))
        _ = try await session.request(Keyed(baseURL: server.baseURL.absoluteString)).validate().string()
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        let text = try String(contentsOf: try XCTUnwrap(files.first), encoding: .utf8)
        XCTAssertFalse(text.contains("k-S3"), text)
        XCTAssertEqual(JSONValue(data: Data(text.utf8))?["request"]?["query"], "appid=<redacted>&lang=nb")
    }

    private func headersContain(_ headers: JSONValue?, _ name: String, _ value: String) -> Bool {
        guard case .array(let lines)? = headers else { return false }
        return lines.contains { $0.stringValue?.lowercased() == "\(name): \(value)".lowercased() }
    }

    func testAMissingFixtureInReplayModeFailsNamingTheRequest() async throws {
        let session = Session(transport: ReplayTransport(fixtures: directory, mode: .replay))
        let response = await session.request(
            "http://127.0.0.1:9/nothing/here?page=2", method: .post,
            parameters: .body(["q": "tea"])
        ).response()
        guard let failure_ = response.error, failure_ == .unhandledRequest, let reason = failure_.reason else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
        XCTAssertTrue(reason.contains("POST http://127.0.0.1:9/nothing/here?page=2"), reason)
        XCTAssertTrue(reason.contains("POST_nothing-here_"), "names the file it looked for: \(reason)")
        XCTAssertTrue(reason.contains(#"body: {"q":"tea"}"#), reason)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path), "replay mode writes nothing")
    }

    func testAnUnreadableFixtureFailsNamingTheFile() async throws {
        let transport = ReplayTransport(fixtures: directory, mode: .replay)
        let request = HTTPRequest(testing: URL(string: "http://example.test/broken")!)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: transport.fixtureURL(for: request))
        let response = await Session(transport: transport).request(.urlRequest(request.urlRequest)).response()
        guard let failure_ = response.error, failure_ == .unhandledRequest, let reason = failure_.reason else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
        XCTAssertTrue(reason.contains("cannot be read"), reason)
        XCTAssertTrue(reason.contains(transport.fixtureURL(for: request).lastPathComponent), reason)
    }

    func testBodiesOfEveryKindReplayExactly() async throws {
        let server = try makeServer()
        server.route("GET", "/null") { _ in .jsonString("null") }
        server.route("GET", "/spaced") { _ in .data(Data(#"{ "a" : 1 }"#.utf8), contentType: "text/plain") }
        let recording = Session(transport: ReplayTransport(fixtures: directory, mode: .record))
        var live: [Data] = []
        for path in ["/null", "/spaced", "/binary", "/plain"] {
            live.append(try await recording.request(.url(server.url(path))).validate().data())
        }
        server.shutdown()
        let offline = Session(transport: ReplayTransport(fixtures: directory, mode: .replay))
        for (path, bytes) in zip(["/null", "/spaced", "/binary", "/plain"], live) {
            let replayed = try await offline.request(.url("http://example.test\(path)")).validate().data()
            XCTAssertEqual(replayed, bytes, path)
        }
    }

    func testSequencesReplayInRecordedOrder() async throws {
        let server = try makeServer()
        let recording = Session(transport: ReplayTransport(fixtures: directory, mode: .record))
        let first = await recording.request(.url(server.url("/flaky"))).response()
        let second = await recording.request(.url(server.url("/flaky"))).response()
        XCTAssertEqual([first.statusCode, second.statusCode], [401, 200])
        server.shutdown()

        let offline = Session(transport: ReplayTransport(fixtures: directory, mode: .replay))
        var statuses: [Int?] = []
        for _ in 0..<3 {
            statuses.append(await offline.request(.url("http://example.test/flaky")).response().statusCode)
        }
        XCTAssertEqual(statuses, [401, 200, 200], "in order, then the last repeats")
    }

    func testRecordModeReRecordsAndRecordMissingKeepsExistingFixtures() async throws {
        let server = try makeServer()
        defer { server.shutdown() }
        let counter = CallCounter()
        server.route("GET", "/counter") { _ in .text("call \(counter.next())") }
        let url = server.url("/counter")

        let first = Session(transport: ReplayTransport(fixtures: directory, mode: .recordMissing))
        let recorded = try await first.request(.url(url)).string()
        XCTAssertEqual(recorded, "call 0")
        let kept = Session(transport: ReplayTransport(fixtures: directory, mode: .recordMissing))
        let fromFixture = try await kept.request(.url(url)).string()
        XCTAssertEqual(fromFixture, "call 0", "record-missing replays what exists")
        XCTAssertEqual(server.recordedRequests(path: "/counter").count, 1)

        let again = Session(transport: ReplayTransport(fixtures: directory, mode: .record))
        let reRecorded = try await again.request(.url(url)).string()
        XCTAssertEqual(reRecorded, "call 1")
        let replayed = try await Session(transport: ReplayTransport(fixtures: directory, mode: .replay)).request(
            .url(url)
        )
        .string()
        XCTAssertEqual(replayed, "call 1", "record replaced the fixture")
    }

    func testFixtureKeysAreDeterministic() throws {
        func request(_ url: String, method: String = "GET", body: String? = nil) -> HTTPRequest {
            var request = URLRequest(url: URL(string: url)!)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            return HTTPRequest(testing: request)
        }
        let key = FixtureKey(
            request("http://a.test:1/search?b=2&a=1&a=0", method: "post", body: #"{"x":1,"y":[true]}"#))
        XCTAssertEqual(key.method, "POST")
        XCTAssertEqual(key.path, "/search")
        XCTAssertEqual(key.query, "a=1&a=0&b=2", "sorted by name, repeated names keep their order")
        XCTAssertEqual(key.bodyHash.count, 16)
        XCTAssertEqual(
            key,
            FixtureKey(request("https://b.test/search?a=1&b=2&a=0", method: "POST", body: #"{ "y": [true], "x": 1 }"#)),
            "host, item order and JSON key order do not matter")
        XCTAssertNotEqual(
            key, FixtureKey(request("http://a.test/search?a=1&a=0&b=2", method: "POST", body: #"{"x":2,"y":[true]}"#)))
        XCTAssertNotEqual(
            key, FixtureKey(request("http://a.test/search?a=0&a=1&b=2", method: "POST", body: #"{"x":1,"y":[true]}"#)))
        XCTAssertEqual(FixtureKey(request("http://a.test/")).bodyHash, "")
        XCTAssertEqual(
            key.fileName,
            FixtureKey(request("http://c.test/search?a=1&a=0&b=2", method: "POST", body: #"{"x":1,"y":[true]}"#))
                .fileName)
        XCTAssertTrue(key.fileName.hasPrefix("POST_search_"), key.fileName)
    }

    func testTheModeCanComeFromTheEnvironment() {
        XCTAssertEqual(
            ReplayMode.fromEnvironment("COURIER_TEST_UNSET_VARIABLE", default: .recordMissing), .recordMissing)
        for (text, mode) in [("replay", ReplayMode.replay), ("record", .record), ("record-missing", .recordMissing)] {
            setenv("COURIER_TEST_REPLAY_MODE", text, 1)
            XCTAssertEqual(ReplayMode.fromEnvironment("COURIER_TEST_REPLAY_MODE", default: .replay), mode, text)
        }
        setenv("COURIER_TEST_REPLAY_MODE", "recordmissing", 1)
        XCTAssertEqual(ReplayMode.fromEnvironment("COURIER_TEST_REPLAY_MODE", default: .record), .record)
        unsetenv("COURIER_TEST_REPLAY_MODE")
    }
}

/// Counts calls from any thread, returning the count before each call.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.lock(); defer { count += 1; lock.unlock() }; return count }
}
