import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The NetworkLogger plugin against the in-process server: lines, levels, ordering, redaction.
final class NetworkLoggerTests: XCTestCase {
    var server: TestHTTPServer!
    let entries = Locked<[NetworkLogger.Entry]>([])

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    private var messages: [String] { entries.withLock { $0.map(\.message) } }

    private func logger(_ level: NetworkLogger.Level, maxBodyLength: Int = 4096) -> NetworkLogger {
        let entries = self.entries
        return NetworkLogger(level: level, maxBodyLength: maxBodyLength) { entry in
            entries.withLock { $0.append(entry) }
        }
    }

    private func session(
        _ level: NetworkLogger.Level, configure: (inout Session.Configuration) -> Void = { _ in }
    )
        -> Session
    {
        var configuration = Session.Configuration()
        configuration.plugins = [logger(level)]
        configure(&configuration)
        return Session(configuration: configuration)
    }

    func testBasicLevelWritesARequestLineAndAResponseLine() async {
        let session = session(.basic)
        _ = await session.request(.url(server.url("/hello"))).response()
        _ = await session.request(.url(server.url("/hello"))).response()
        let lines = messages
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines[0], "→ #1 GET \(server.url("/hello").absoluteString)")
        XCTAssertTrue(lines[1].hasPrefix("← #1 200 GET \(server.url("/hello").absoluteString) · "), lines[1])
        XCTAssertTrue(lines[1].contains(" ms · 14 B · HTTP/1.1 · new connection"), lines[1])
        XCTAssertTrue(lines[3].contains("reused connection"), lines[3])
        XCTAssertEqual(entries.withLock { $0.map(\.kind) }, [.request, .response, .request, .response])
        XCTAssertFalse(lines.joined().contains("Hello, Courier"), "no body at .basic")
    }

    func testTheResponseLineIsWrittenBeforeTheCallerSeesTheResult() async {
        let session = session(.basic)
        let url = server.url("/hello")
        let entries = self.entries
        let seenByHandler = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            session.request(.url(url)).response { _ in continuation.resume(returning: entries.withLock { $0.count }) }
        }
        XCTAssertEqual(seenByHandler, 2, "request and response lines were written before the completion handler ran")
        _ = await session.request(.url(url)).response()
        XCTAssertEqual(messages.count, 4, "and before the await returned")
    }

    func testFailuresAreLoggedWithTheirKind() async {
        let session = session(.basic)
        _ = await session.request(.url("http://127.0.0.1:\(Loopback.closedPort())/")).response()
        XCTAssertEqual(entries.withLock { $0.last?.kind }, .failure)
        XCTAssertTrue(messages.last?.hasPrefix("✕ #1 GET http://127.0.0.1:") == true, messages.last ?? "")
        XCTAssertTrue(messages.last?.contains("cannotConnect: Cannot connect") == true, messages.last ?? "")
    }

    func testEachAttemptIsLogged() async {
        let calls = Counter()
        server.route("/flaky") { _ in
            calls.increment()
            return calls.value == 1
                ? TestHTTPResponse.text("busy", status: 503).adding("Retry-After", "0") : .text("ok")
        }
        let session = session(.basic) {
            $0.retryPolicy = RetryPolicy(maxRetries: 1)
            $0.clock = TestClock()
        }
        _ = await session.request(.url(server.url("/flaky"))).response()
        let lines = messages
        XCTAssertEqual(lines.count, 4)
        XCTAssertTrue(lines[1].hasPrefix("← #1 503 "), lines[1])
        XCTAssertTrue(lines[2].hasSuffix(" · attempt 2"), lines[2])
        XCTAssertTrue(lines[3].hasPrefix("← #1 200 ") && lines[3].hasSuffix(" · attempt 2"), lines[3])
    }

    func testOffLogsNothing() async {
        let session = session(.off)
        _ = await session.request(.url(server.url("/hello"))).response()
        _ = await session.request(.url(server.url("/hello"))).plugin(logger(.off)).response()
        XCTAssertEqual(messages, [])
    }

    func testHeadersAndBodyLevels() async {
        server.route("/item") { _ in .jsonString(#"{"id":1,"name":"Ada"}"#).adding("X-Trace", "abc") }
        var request = URLRequest(url: server.url("/item"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"title":"new"}"#.utf8)
        _ = await session(.headers).request(.urlRequest(request)).response()
        let headers = messages.joined(separator: "\n")
        XCTAssertTrue(headers.contains("    Content-Type: application/json"), headers)
        XCTAssertTrue(headers.contains("    X-Trace: abc"), headers)
        XCTAssertFalse(headers.contains("Ada"), "no body at .headers")

        entries.withLock { $0 = [] }
        _ = await session(.body).request(.urlRequest(request)).response()
        let bodies = messages.joined(separator: "\n")
        XCTAssertTrue(bodies.contains("    {\n      \"title\" : \"new\"\n    }"), bodies)
        XCTAssertTrue(bodies.contains("\"name\" : \"Ada\""), bodies)
    }

    func testLargeBodiesAreTruncatedAndBinaryOnesSummarised() async {
        server.route("/long") { _ in .text(String(repeating: "x", count: 10_000)) }
        var configuration = Session.Configuration()
        configuration.plugins = [logger(.body, maxBodyLength: 100)]
        let session = Session(configuration: configuration)
        _ = await session.request(.url(server.url("/long"))).response()
        _ = await session.request(.url(server.url("/bytes?size=2000"))).response()
        let text = messages.joined(separator: "\n")
        XCTAssertTrue(text.contains(String(repeating: "x", count: 100) + "… (truncated; 10000 bytes in all)"), text)
        XCTAssertFalse(text.contains(String(repeating: "x", count: 101)))
        XCTAssertTrue(text.contains("<2000 bytes of binary data, application/octet-stream>"), text)
    }

    /// Secrets everywhere a log line could pick them up; none may appear in any line.
    func testNoSecretAppearsInAnyLine() async throws {
        let secrets = [
            "bearer-S1", "cookie-S2", "apikey-S3", "custom-S4", "urlpw-S5", "query-S6", "jsonpw-S7",
            "nested-S8", "form-S9", "setcookie-S10", "access-S11", "refresh-S12", "error-S13",
            "redirect-S14", "broken-S15", "echoed-S16", "location-S17"
        ]
        server.route("/login") { _ in
            TestHTTPResponse.jsonString(
                #"{"user":{"name":"Ada","accessToken":"access-S11"},"refresh_token":"refresh-S12"}"#
            )
            .adding("Set-Cookie", "session=setcookie-S10; HttpOnly")
        }
        server.route("/denied") { _ in
            .jsonString(
                #"{"error":"expired","details":{"token":"error-S13"},"authorization":"echoed-S16"}"#, status: 401)
        }
        server.route("/broken") { _ in .jsonString(#"{"password": "broken-S15", "cut"#) }
        server.route("/moved") { _ in
            TestHTTPResponse(status: 302, headers: ["Location": "/next?token=location-S17&page=2"])
        }

        let session = session(.body) { $0.security.secretHeaders.insert("X-Session") }
        var login = URLRequest(
            url: try XCTUnwrap(
                URL(
                    string:
                        "http://ada:urlpw-S5@127.0.0.1:\(server.port)/login?access_token=query-S6&page=2")))
        login.httpMethod = "POST"
        login.setValue("Bearer bearer-S1", forHTTPHeaderField: "Authorization")
        login.setValue("sid=cookie-S2", forHTTPHeaderField: "Cookie")
        login.setValue("apikey-S3", forHTTPHeaderField: "X-Api-Key")
        login.setValue("custom-S4", forHTTPHeaderField: "X-Session")
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data(
            #"{"email":"ada@example.com","password":"jsonpw-S7","device":{"pushToken":"x","Token":"nested-S8"}}"#.utf8)
        _ = await session.request(.urlRequest(login)).response()

        var form = URLRequest(url: server.url("/hello"))
        form.httpMethod = "POST"
        form.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        form.httpBody = Data("user=ada&pw=form-S9".utf8)
        _ = await session.request(.urlRequest(form)).response()

        _ = await session.request(.url(server.url("/denied"))).response()
        _ = await session.request(.url(server.url("/broken"))).response()
        let redirected = await session.request(.url(server.url("/redirect?to=/hello%3Faccess_token%3Dredirect-S14")))
            .response()
        XCTAssertEqual(redirected.metrics?.redirectCount, 1)
        var configuration = Session.Configuration()
        configuration.plugins = [logger(.headers)]
        configuration.redirectPolicy = .doNotFollow
        _ = await Session(configuration: configuration).request(.url(server.url("/moved"))).response()

        let lines = messages.flatMap { $0.split(separator: "\n").map(String.init) }
        for secret in secrets {
            for line in lines {
                XCTAssertFalse(line.contains(secret), "\(secret) leaked: \(line)")
            }
        }
        let text = lines.joined(separator: "\n")
        for visible in [
            "page=2", "\"name\" : \"Ada\"", "\"email\" : \"ada@example.com\"", "user=ada", "<redacted>",
            "after 1 redirect", "\"error\" : \"expired\"", "Location: /next?token=<redacted>&page=2"
        ] {
            XCTAssertTrue(text.contains(visible), "expected \(visible) in the log")
        }
    }

    /// A server that echoes the request's headers as `[name, value]` pairs (keys a key-based
    /// redactor cannot see) must not get the sent secrets into the log.
    func testSecretHeaderValuesAreHiddenWhereverTheyAreEchoed() async throws {
        server.route("/echo-pairs") { request in
            let pairs = request.headers.fields.map { "[\"\($0.name)\", \"\($0.value)\"]" }
            return .jsonString("[" + pairs.joined(separator: ", ") + "]", status: 401)
        }
        let session = session(.body) { $0.security.secretHeaders.insert("X-Api-Key") }
        var request = URLRequest(url: server.url("/echo-pairs"))
        request.setValue("Bearer echo-S20-token", forHTTPHeaderField: "Authorization")
        request.setValue("apikey-S21", forHTTPHeaderField: "X-Api-Key")
        request.setValue("visible-V1", forHTTPHeaderField: "X-Trace")
        _ = await session.request(.urlRequest(request)).response()
        let text = messages.joined(separator: "\n")
        XCTAssertTrue(text.contains("visible-V1"), text)
        XCTAssertTrue(text.contains("Authorization"), text)
        for secret in ["echo-S20-token", "apikey-S21"] {
            XCTAssertFalse(text.contains(secret), "\(secret) leaked:\n\(text)")
        }
    }
}
