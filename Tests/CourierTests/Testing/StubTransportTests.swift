import Courier
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubTransport`: what stubs answer. Sample data, stubs per matcher and router case,
/// sequences, transport errors and loud failures for unmatched requests, all through the real
/// pipeline.
final class StubTransportTests: XCTestCase {
    typealias Profile = StubFixtures.Profile
    typealias ProfileAPI = StubFixtures.ProfileAPI
    typealias ProfileService = StubFixtures.ProfileService

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
        guard response.error == .unhandledRequest else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
    }

    // MARK: Overrides

    func testStubsOverrideSampleDataByCaseAndLaterStubsWin() async throws {
        let stubs = StubTransport()
        stubs.on(.request(.get, "/v1/profiles/1"), reply: .json(Profile(name: "first")))
        stubs.on(.router(ProfileAPI.profile(id: 1)), reply: .json(Profile(name: "exact case")))
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
        stubs.on(.request(.get, "/v1/search").query("page", "2"), reply: .text("page two"))
        stubs.on(.request(.get, "/v1/search").query("q", "cats").query("page", "1"), reply: .text("cats"))
        stubs.on(.request(.put, "/v1/profiles/1").jsonBody(["name": "Ada"]), reply: .text("renamed Ada"))
        stubs.on(
            .request(.put, "/v1/profiles/1").jsonBody(Profile.self) { $0.name.hasPrefix("G") }, reply: .text("a G name")
        )
        stubs.on(.request(.put, "/v1/profiles/1").body("an empty body") { $0.isEmpty }, reply: .text("empty"))
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
        let unconfirmed = await session.request(.urlRequest(delete)).response()
        guard unconfirmed.error == .unhandledRequest else { return XCTFail("expected unhandledRequest") }
        delete.setValue("yes", forHTTPHeaderField: "X-Confirm")
        let confirmed = await session.request(.urlRequest(delete)).response()
        XCTAssertEqual(confirmed.statusCode, 204)
    }

    // MARK: Sequences and transport errors

    func testSequencesAnswerInOrderThenRepeatTheLast() async throws {
        let stubs = StubTransport()
        stubs.on(.request(.get, "/v1/me"), reply: .empty(statusCode: 401), .json(Profile(name: "Ada")))
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
            (.failure(.timedOut(.request)), .timedOut(.request)),
            (
                .failure(.cannotConnect(message: "connection refused (stub)")),
                .cannotConnect(message: "connection refused (stub)")
            ),
            (.failure(.cancelled), .cancelled),
            (
                .failure(.tlsFailure(message: "certificate verify failed (stub)")),
                .tlsFailure(message: "certificate verify failed (stub)")
            ),
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
        stubs.on(.request(.get, "/elsewhere"), reply: .empty())
        let session = Session(configuration: configuration, transport: stubs)
        var request = URLRequest(url: URL(string: "https://api.example.test/v1/orders?page=3&api_key=key-456")!)
        request.httpMethod = "POST"
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"item":"tea","password":"pw-789"}"#.utf8)
        let response = await session.request(.urlRequest(request)).response()
        guard let failure_ = response.error, failure_ == .unhandledRequest, let reason = failure_.reason else {
            return XCTFail("expected unhandledRequest, got \(response.result)")
        }
        XCTAssertTrue(reason.contains("POST https://api.example.test/v1/orders?page=3&api_key=<redacted>"), reason)
        XCTAssertTrue(reason.contains("Authorization: <redacted>"), reason)
        XCTAssertTrue(reason.contains("X-Api-Key: <redacted>"), reason)
        XCTAssertFalse(reason.contains("secret-token"), reason)
        for secret in ["key-123", "key-456", "pw-789"] {
            XCTAssertFalse(reason.contains(secret), reason)
        }
        XCTAssertTrue(reason.contains(#"body: {"item":"tea","password":"<redacted>"}"#), reason)
        XCTAssertTrue(reason.contains("GET /elsewhere"), "lists the stubs tried: \(reason)")
        XCTAssertEqual(stubs.unmatchedRequests.map(\.path), ["/v1/orders"])

        let plain = await session.request(ProfileAPI.noSample).response()
        guard let failure_ = plain.error, failure_ == .unhandledRequest, let noSample = failure_.reason else {
            return XCTFail("a router without sample data must fail")
        }
        XCTAssertTrue(noSample.contains("ProfileAPI.noSample declares no sampleData"), noSample)
    }

    func testAnUnmatchedRequestIsANetworkFailForServices() async {
        let stubs = StubTransport(sampleData: false)
        guard case .networkFail(let failure) = await ProfileService(session: Session(transport: stubs)).me() else {
            return XCTFail("expected networkFail")
        }
        guard failure.error == .unhandledRequest else { return XCTFail("expected unhandledRequest") }
    }
}
