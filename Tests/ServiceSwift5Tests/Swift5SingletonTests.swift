// This target is compiled in Swift 5 language mode (see Package.swift): the same service code
// that compiles warning-free in Swift 6 mode must compile there too.
import Courier
import CourierTestServer
import XCTest

struct Profile: Codable, Sendable, Equatable {
    let name: String
}

final class ProfileService: BaseService, @unchecked Sendable {
    static let shared = ProfileService()

    private init() { super.init() }

    override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    func profile(url: URL) async -> NetworkResult<Profile> {
        await request(.url(url))
    }

    func profile(url: URL, completion: @escaping @Sendable (NetworkResult<Profile>) -> Void) {
        request(.url(url), completion: completion)
    }
}

/// The compiler-checked style: a final class adopting `Service`, no `@unchecked Sendable`.
final class CheckedProfileService: Service {
    static let shared = CheckedProfileService()
    static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    private init() {}

    func profile(url: URL) async -> NetworkResult<Profile> {
        await request(.url(url))
    }
}

final class Swift5SingletonTests: XCTestCase {
    func testSingletonJudgesStatus() {
        let body = Data(#"{"status":200,"success":true,"message":"ok","data":{"name":"Ada"}}"#.utf8)
        let result = ProfileService.shared.judgeStatus(by: 200, body, type: Profile.self)
        XCTAssertEqual(result, .success(Profile(name: "Ada")))
        switch ProfileService.shared.judgeStatus(by: 404, Data(), type: Profile.self) {
        case .requestErr: break
        case .success, .pathErr, .serverErr, .networkFail: XCTFail("expected requestErr")
        }
    }

    func testSingletonOverLoopback() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        server.route("GET", "/me") { _ in
            .jsonString(#"{"status":200,"success":true,"message":"ok","data":{"name":"Grace"}}"#)
        }
        let result = await ProfileService.shared.profile(url: server.url("/me"))
        XCTAssertEqual(result, .success(Profile(name: "Grace")))

        let done = expectation(description: "completion")
        ProfileService.shared.profile(url: server.url("/me")) { result in
            XCTAssertEqual(result.value?.name, "Grace")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)

        // The compiler-checked style works the same way.
        let checked = await CheckedProfileService.shared.profile(url: server.url("/me"))
        XCTAssertEqual(checked, .success(Profile(name: "Grace")))
    }
}
