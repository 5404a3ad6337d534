import DemoServer
import ExampleServices
import XCTest

/// The five example scenarios, run against the embedded demo server.
final class ScenarioTests: XCTestCase {
    private var server: DemoServer?

    private func baseURL() throws -> String {
        let server = try DemoServer()
        self.server = server
        return server.baseURL.absoluteString
    }

    override func tearDown() {
        server?.shutdown()
        server = nil
        super.tearDown()
    }

    func testOrderTrackingFollowsTheEventStreamAcrossAReconnection() async throws {
        let outcome = await OrderTrackingScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertTrue(outcome.succeeded, outcome.transcript.description)
        XCTAssertEqual(
            outcome.steps.map(\.status),
            ["received", "confirmed", "packed", "shipped", "out for delivery", "delivered"])
        let requests = server?.testServer.recordedRequests(path: "/orders/42/events") ?? []
        XCTAssertEqual(requests.map { $0.header("Last-Event-ID") }, [nil, "3", "6"])
    }

    func testAuth() async throws {
        let outcome = await AuthScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertTrue(outcome.succeeded, outcome.transcript.description)
        XCTAssertEqual(outcome.signIn?.value?.name, "Ada")
        XCTAssertEqual(outcome.unknownUserMessage, "no user with that email")
        XCTAssertEqual(outcome.wrongPasswordMessage, "wrong password")
        XCTAssertEqual(outcome.profile?.value?.name, "Ada")
        XCTAssertEqual(
            outcome.profilesAfterExpiry.map { $0.value?.email }, Array(repeating: "ada@example.com", count: 3))
        XCTAssertEqual(outcome.refreshes, 1, "three concurrent 401s, one refresh")
        // The first token once, the expired one by whichever calls were sent before the refresh
        // began (the others waited for it), then the new token by all three.
        let me =
            server?.testServer.recordedRequests(path: "/auth/me").map { $0.header("Authorization") ?? "none" } ?? []
        let tokens = me.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        XCTAssertEqual(tokens.count, 2, "\(me)")
        XCTAssertEqual(me.filter { $0 == tokens.last }.count, 3, "\(me)")
        XCTAssertTrue((2...4).contains(me.filter { $0 == tokens.first }.count), "\(me)")
        XCTAssertEqual(server?.testServer.recordedRequests(path: "/auth/refresh").count, 1)
        XCTAssertEqual(
            server?.testServer.recordedRequests(path: "/auth/signin").map { $0.header("Authorization") },
            [nil, nil, nil, nil], "sign-in is never sent with a token")
    }

    func testMusicHome() async throws {
        let outcome = await MusicHomeScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertTrue(outcome.succeeded, outcome.transcript.description)
        XCTAssertEqual(outcome.bannerCount, 2)
        XCTAssertEqual(outcome.popular.map(\.title), ["Blue Hour", "Hype Boy", "Love Dive"])
        XCTAssertEqual(outcome.unknownUser?.appCode, "USER404")
        XCTAssertEqual(outcome.unknownUser?.message, "unknown user")
        // Every request went through the service's NetworkLogger: a request and a response line each.
        XCTAssertEqual(
            outcome.networkLog.filter { $0.hasPrefix("  → #") }.count, 5, outcome.networkLog.joined(separator: "\n"))
        XCTAssertEqual(outcome.networkLog.filter { $0.hasPrefix("  ← #") && $0.contains(" 200 GET ") }.count, 5)
        XCTAssertTrue(outcome.networkLog.contains { $0.contains("/home/personalized?userId=999 · ") })
    }

    func testTravel() async throws {
        let outcome = await TravelScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertTrue(outcome.succeeded, outcome.transcript.description)
        XCTAssertEqual(outcome.firstPage?.trips.map(\.id), [11, 12])
        XCTAssertEqual(outcome.firstPage?.total, 3)
        XCTAssertEqual(outcome.secondPage?.trips.map(\.id), [13])
        XCTAssertEqual(outcome.invalidFilterMessage, "at least one adult must travel")
        // The composite request really carried paging in the query and the filter in the body.
        let sent = server?.testServer.recordedRequests(path: "/travel/trips/search").first
        XCTAssertEqual(sent?.query["page"], "1")
        XCTAssertEqual(sent?.query["size"], "2")
        XCTAssertEqual(
            sent.map { String(decoding: $0.body, as: UTF8.self) },
            #"{"adults":2,"city":"Lisbon","maxPrice":900}"#)
    }

    func testLoginWithStatus() async throws {
        let outcome = await LoginStatusScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertEqual(outcome.destinations, [.onboarding, .home], outcome.transcript.description)
        XCTAssertEqual(outcome.invalidEmail?.statusCode, 400)
        XCTAssertEqual(outcome.invalidEmail?.appCode, "INVALID_EMAIL")
    }

    func testDogs() async throws {
        let outcome = await DogsScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertTrue(outcome.succeeded, outcome.transcript.description)
        XCTAssertEqual(outcome.breeds, ["akita", "hound", "shiba"])
        XCTAssertEqual(outcome.image?.breed, "akita")
        XCTAssertEqual(outcome.missingBreed?.message, "Breed not found (unicorn)")
    }

    func testTranscriptsAreReadable() async throws {
        let outcome = await AuthScenario.run(baseURL: try baseURL(), echo: false)
        XCTAssertEqual(
            outcome.transcript.lines.first, "== Auth: sign up, sign in, refresh an expired token, handle 404 and 409 =="
        )
        XCTAssertTrue(outcome.transcript.lines.contains("409 for ada@example.com: wrong password → ask again"))
    }
}
