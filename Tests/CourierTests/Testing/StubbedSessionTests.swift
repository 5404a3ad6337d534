import Courier
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Session.stubbed`: canned responses through the real pipeline, without sockets.
final class StubbedSessionTests: XCTestCase {
    struct SignIn: Decodable, Sendable, Equatable { var name: String }

    enum StubAPI: Router {
        case signIn(email: String)
        var baseURL: String { "https://api.example.test" }
        var path: String { "/auth/signin" }
        var method: HTTPMethod { .post }
        var parameters: RequestParams {
            switch self {
            case .signIn(let email): return .body(["email": email])
            }
        }
    }

    final class StubAuthService: BaseService, @unchecked Sendable {
        override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        func signIn(email: String) async -> NetworkResult<SignIn> {
            await request(StubAPI.signIn(email: email))
        }
    }

    func testRequestsReachTheResponderAndResultsFlowThroughSerializers() async throws {
        let seen = Recorder()
        let session = Session.stubbed { request in
            seen.record(request)
            return .json(#"{"name":"Ada"}"#)
        }
        let value = try await session.request(StubAPI.signIn(email: "ada@example.com")).validate().decodable(
            SignIn.self)
        XCTAssertEqual(value, SignIn(name: "Ada"))
        let request = try XCTUnwrap(seen.requests.first)
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.httpBody, Data(#"{"email":"ada@example.com"}"#.utf8))
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "Courier/\(CourierInfo.version)")
    }

    func testServicesMapStubbedStatusesAndFailures() async {
        let session = Session.stubbed { request in
            guard let body = request.httpBody, let text = String(data: body, encoding: .utf8) else { return .empty() }
            if text.contains("ada@") {
                return .json(#"{"status":200,"success":true,"message":"ok","data":{"name":"Ada"}}"#)
            }
            if text.contains("nobody@") {
                return .json(#"{"status":404,"success":false,"message":"no such user"}"#, statusCode: 404)
            }
            return .failure(.timedOut(.request))
        }
        let service = StubAuthService(session: session)
        let ok = await service.signIn(email: "ada@example.com")
        XCTAssertEqual(ok.value, SignIn(name: "Ada"))
        guard case .requestErr(let failure) = await service.signIn(email: "nobody@example.com") else {
            return XCTFail("expected requestErr")
        }
        XCTAssertEqual(failure.statusCode, 404)
        XCTAssertEqual(failure.message, "no such user")
        guard case .networkFail(let offline) = await service.signIn(email: "grace@example.com") else {
            return XCTFail("expected networkFail")
        }
        XCTAssertSameError(offline.error, .timedOut(.request))
    }

    func testValidationAndLimitsStillApply() async {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 4
        let session = Session.stubbed(configuration: configuration) { request in
            request.url.path == "/big" ? .text("too large") : .empty(statusCode: 503)
        }
        let unavailable = await session.request("https://stub.test/down").validate().response()
        XCTAssertSameError(unavailable.error, .unacceptableStatusCode(503))
        let big = await session.request("https://stub.test/big").response()
        XCTAssertSameError(big.error, .responseTooLarge(limit: 4))
    }

    func testDelayedStubsCanBeCancelledAndCompleteOnce() async throws {
        let session = Session.stubbed { _ in StubResponse.text("late").delayed(by: 30) }
        let request = session.request("https://stub.test/slow")
        let (done, calls) = expectCancellation(of: request)
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(calls.value, 1)
    }

    func testDownloadsWriteTheStubBody() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stub-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let session = Session.stubbed { _ in .text("file contents") }
        let response = await session.download("https://stub.test/file", to: file).validate().response()
        XCTAssertEqual(response.fileURL, file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "file contents")
    }
}

/// Collects requests from any thread.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [HTTPRequest] = []
    func record(_ request: HTTPRequest) { lock.lock(); stored.append(request); lock.unlock() }
    var requests: [HTTPRequest] { lock.lock(); defer { lock.unlock() }; return stored }
}
