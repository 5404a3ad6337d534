import Courier
import CourierTestServer
import CourierTesting
import DemoServer
import ExampleServices
import Foundation
import XCTest

/// The sign-in service of the examples, tested the three ways docs/testing.md shows: stubs from
/// the router's sample data, a sequence through the token refresh, and record and replay. The
/// singleton is used as the app uses it; `ServiceSession.using` points it at the test's session.
final class AuthServiceTestingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        AuthService.shared.signOut()
    }

    override func tearDown() {
        AuthService.shared.signOut()
        super.tearDown()
    }

    /// A session over `transport` with the service's authentication, as the service's own has.
    private func session(over transport: any Transport) -> Session {
        var configuration = Session.Configuration()
        configuration.interceptors = [AuthService.shared.authentication]
        return Session(configuration: configuration, transport: transport)
    }

    // MARK: The guide's code

    /// docs/testing.md, "Testing your services", statement for statement.
    func testTheTestingGuidesCode() async throws {
        func testSession(over transport: any Transport) -> Session {
            var configuration = Session.Configuration()
            configuration.interceptors = [AuthService.shared.authentication]
            return Session(configuration: configuration, transport: transport)
        }
        let authStubs = StubTransport()
        authStubs.on(
            .request(.post, "/auth/signin").jsonBody(["email": "ada@example.com", "pw": "wrong"]),
            reply: .json(#"{"status":409,"success":false,"message":"wrong password"}"#, statusCode: 409))
        let (signedIn, refused) = await ServiceSession.using(testSession(over: authStubs)) {
            (
                await AuthService.shared.signIn(email: "ada@example.com", pw: "lovelace"),  // the sample
                await AuthService.shared.signIn(email: "ada@example.com", pw: "wrong")
            )  // the override
        }
        XCTAssertEqual(signedIn.value?.accessToken, "sample-access-1")
        XCTAssertEqual(refused.failure?.message, "wrong password")
        XCTAssertEqual(authStubs.requests[0].json, ["email": "ada@example.com", "pw": "lovelace"])

        let expiring = StubTransport()
        expiring.on(
            .target(AuthRouter.self) { if case .me = $0 { true } else { false } },
            reply: .json(#"{"status":401,"success":false,"message":"access token expired"}"#, statusCode: 401),
            StubResponse(statusCode: 200, headers: [.contentType("application/json")], body: AuthRouter.me.sampleData))
        let refreshed = await ServiceSession.using(testSession(over: expiring)) { () -> NetworkResult<Profile> in
            _ = await AuthService.shared.signIn(email: "ada@example.com", pw: "lovelace")
            return await AuthService.shared.profile()
        }
        XCTAssertEqual(refreshed.value?.email, "ada@example.com")
        XCTAssertEqual(
            expiring.requests.map { "\($0.method) \($0.path)" },
            ["POST /auth/signin", "GET /auth/me", "POST /auth/refresh", "GET /auth/me"])
        XCTAssertEqual(expiring.requests[1].header("Authorization"), "Bearer sample-access-1")
        XCTAssertEqual(expiring.requests[2].json, ["refreshToken": "sample-refresh-1"])
        XCTAssertEqual(expiring.requests[3].header("Authorization"), "Bearer sample-access-2")

        let authFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/auth")
        let fixtureMode = ReplayMode.fromEnvironment(default: .replay)
        let demo = fixtureMode == .replay ? nil : try DemoServer()  // only when recording
        let replaying = ReplayTransport(fixtures: authFixtures, mode: fixtureMode)
        let replayedProfile = await DemoAPI.$baseURL.withValue(demo?.baseURL.absoluteString ?? "http://127.0.0.1:9") {
            await ServiceSession.using(testSession(over: replaying)) { () -> NetworkResult<Profile> in
                _ = await AuthService.shared.signUp(email: "ada@example.com", name: "Ada", pw: "lovelace")
                _ = await AuthService.shared.signIn(email: "ada@example.com", pw: "lovelace")
                _ = await AuthService.shared.profile()
                let _: NetworkResult<Empty> = await AuthService.shared.request(AuthRouter.demoExpireTokens)
                return await AuthService.shared.profile()  // 401, refresh, 200
            }
        }
        XCTAssertEqual(replayedProfile.value?.email, "ada@example.com")
        demo?.shutdown()
    }

    // MARK: 1. Stubs from sampleData, with overrides

    func testSignInFromSampleDataAndPerTestOverrides() async throws {
        let stubs = StubTransport()
        stubs.on(
            .request(.post, "/auth/signin").jsonBody(["email": "ada@example.com", "pw": "wrong"]),
            reply: .json(#"{"status":409,"success":false,"message":"wrong password"}"#, statusCode: 409))
        stubs.on(
            .router(AuthRouter.signIn(email: "nobody@example.com", pw: "x")),
            reply: .json(#"{"status":404,"success":false,"message":"no user with that email"}"#, statusCode: 404))
        stubs.on(
            .router(AuthRouter.signUp(email: "down@example.com", name: "Down", pw: "pw")),
            reply: .failure(.cannotConnect(message: "connection refused (stub)")))

        let (signUp, signIn, wrong, unknown, offline) = await ServiceSession.using(session(over: stubs)) {
            (
                await AuthService.shared.signUp(email: "ada@example.com", name: "Ada", pw: "lovelace"),
                await AuthService.shared.signIn(email: "ada@example.com", pw: "lovelace"),
                await AuthService.shared.signIn(email: "ada@example.com", pw: "wrong"),
                await AuthService.shared.signIn(email: "nobody@example.com", pw: "x"),
                await AuthService.shared.signUp(email: "down@example.com", name: "Down", pw: "pw")
            )
        }
        XCTAssertEqual(signUp.value?.name, "Ada", "the sample, with its 201")
        XCTAssertEqual(signUp.value?.userId, 1)
        XCTAssertEqual(signIn.value?.accessToken, "sample-access-1")
        XCTAssertEqual(AuthService.shared.authentication.credential?.accessToken, "sample-access-1")
        guard case .requestErr(let refused) = wrong, case .requestErr(let missing) = unknown,
            case .networkFail(let down) = offline
        else {
            return XCTFail("expected 409, 404 and a network failure: \(wrong), \(unknown), \(offline)")
        }
        XCTAssertEqual(refused.statusCode, 409)
        XCTAssertEqual(refused.message, "wrong password")
        XCTAssertEqual(missing.statusCode, 404)
        XCTAssertSameError(down.error, .cannotConnect(message: "connection refused (stub)"))

        // What was sent: the bodies, and no token on sign-in (AuthRouter declares none).
        let sent = stubs.requests
        XCTAssertEqual(
            sent.map { "\($0.method) \($0.request.url.absoluteString)" },
            [
                "POST http://127.0.0.1:8080/auth/signup", "POST http://127.0.0.1:8080/auth/signin",
                "POST http://127.0.0.1:8080/auth/signin", "POST http://127.0.0.1:8080/auth/signin",
                "POST http://127.0.0.1:8080/auth/signup"
            ])
        XCTAssertEqual(sent[1].json, ["email": "ada@example.com", "pw": "lovelace"])
        XCTAssertTrue(sent.allSatisfy { $0.header("Authorization") == nil })
    }

    // MARK: 2. A sequence through the token refresh

    func testAnExpiredTokenIsRefreshedOnceAndTheCallReplayed() async throws {
        let stubs = StubTransport()
        stubs.on(
            .target(AuthRouter.self) { if case .me = $0 { true } else { false } },
            reply: .json(#"{"status":401,"success":false,"message":"access token expired"}"#, statusCode: 401),
            StubResponse(statusCode: 200, headers: [.contentType("application/json")], body: AuthRouter.me.sampleData))
        let profile = await ServiceSession.using(session(over: stubs)) { () -> NetworkResult<Profile> in
            _ = await AuthService.shared.signIn(email: "ada@example.com", pw: "lovelace")
            return await AuthService.shared.profile()
        }
        XCTAssertEqual(profile.value?.email, "ada@example.com")

        // The recorder sees every transport call: the 401, the refresh, and the replay.
        let sent = stubs.requests
        XCTAssertEqual(
            sent.map { "\($0.method) \($0.path)" },
            ["POST /auth/signin", "GET /auth/me", "POST /auth/refresh", "GET /auth/me"])
        XCTAssertEqual(sent[1].header("Authorization"), "Bearer sample-access-1")
        XCTAssertNil(sent[2].header("Authorization"), "the refresh call carries no access token")
        XCTAssertEqual(sent[2].json, ["refreshToken": "sample-refresh-1"])
        XCTAssertEqual(sent[3].header("Authorization"), "Bearer sample-access-2")
        XCTAssertEqual(AuthService.shared.authentication.credential?.refreshToken, "sample-refresh-2")
    }

    // MARK: 3. Record and replay

    /// The calls the record and replay tests make, as an app would: sign up, sign in, read the
    /// profile, let the token expire, read it again (through a refresh).
    private func signInJourney() async -> [String] {
        let service = AuthService.shared
        var seen: [String] = []
        seen.append(outcome(await service.signUp(email: "ada@example.com", name: "Ada", pw: "lovelace")) { $0.name })
        seen.append(outcome(await service.signIn(email: "ada@example.com", pw: "lovelace")) { $0.name })
        seen.append(outcome(await service.profile()) { $0.email })
        let expired: NetworkResult<Empty> = await service.request(AuthRouter.demoExpireTokens)
        seen.append(outcome(expired) { _ in "expired" })
        seen.append(outcome(await service.profile()) { $0.email })
        return seen
    }

    /// What a step gave: the value's summary, or the whole failure (so a missing fixture is named).
    private func outcome<T>(_ result: NetworkResult<T>, _ summary: (T) -> String) -> String {
        result.value.map(summary) ?? "\(result)"
    }

    private let journey = ["Ada", "Ada", "ada@example.com", "expired", "ada@example.com"]

    func testRecordAgainstTheDemoServerThenReplayWithItGone() async throws {
        let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-auth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fixtures) }
        let server = try DemoServer()
        let recorder = ReplayTransport(fixtures: fixtures, mode: .record)
        let live = await DemoAPI.$baseURL.withValue(server.baseURL.absoluteString) {
            await ServiceSession.using(session(over: recorder)) { await signInJourney() }
        }
        XCTAssertEqual(live, journey)
        server.shutdown()
        AuthService.shared.signOut()

        let replayer = ReplayTransport(fixtures: fixtures, mode: .replay)
        let offline = await DemoAPI.$baseURL.withValue("http://127.0.0.1:9") {
            await ServiceSession.using(session(over: replayer)) { await signInJourney() }
        }
        XCTAssertEqual(offline, journey)
        XCTAssertEqual(
            replayer.requests.map { "\($0.method) \($0.path)" }, recorder.requests.map { "\($0.method) \($0.path)" })
        XCTAssertEqual(replayer.requests.filter { $0.path == "/auth/refresh" }.count, 1)
    }

    /// The fixtures committed next to this file, replayed offline. Re-record them with
    /// `COURIER_FIXTURES=record swift test --filter AuthServiceTestingTests` (a demo server is
    /// started for it).
    func testCommittedFixturesReplayOffline() async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/auth")
        let mode = ReplayMode.fromEnvironment(default: .replay)
        let server = mode == .replay ? nil : try DemoServer()
        defer { server?.shutdown() }
        let replay = ReplayTransport(fixtures: fixtures, mode: mode)
        let seen = await DemoAPI.$baseURL.withValue(server?.baseURL.absoluteString ?? "http://127.0.0.1:9") {
            await ServiceSession.using(session(over: replay)) { await signInJourney() }
        }
        XCTAssertEqual(seen, journey, "replayed from \(fixtures.path)")
    }
}
