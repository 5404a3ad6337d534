@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class SecurityPolicyTests: XCTestCase {
    func testAlwaysSecretHeadersCannotBeConfiguredAway() {
        let policy = SecurityPolicy(secretHeaders: [])
        for name in ["authorization", "PROXY-AUTHORIZATION", "Cookie", "set-cookie"] {
            XCTAssertTrue(policy.isSecret(header: name), name)
        }
        XCTAssertFalse(policy.isSecret(header: "X-Api-Key"))
        XCTAssertFalse(policy.isSecret(header: "Accept"))
    }

    func testConfiguredSecretsMatchWithoutRegardToCase() {
        var policy = SecurityPolicy()
        XCTAssertTrue(policy.isSecret(header: "x-api-key"))
        policy.secretHeaders.insert("X-Session")
        XCTAssertTrue(policy.isSecret(header: "x-SESSION"))
        XCTAssertEqual(policy.printable(header: "X-Session", value: "abc"), "<redacted>")
        XCTAssertEqual(policy.printable(header: "Accept", value: "text/plain"), "text/plain")
    }

    func testSecretNamesGivenInAnyCaseMatchAnyCase() {
        let policy = SecurityPolicy(secretHeaders: ["x-a"])
        XCTAssertTrue(policy.isSecret(header: "X-A"))
        XCTAssertTrue(policy.isSecret(header: "x-a"))
        XCTAssertFalse(policy.isSecret(header: "X-B"))
    }

    func testOneSetFeedsRedirectsAndCURLDescription() {
        var configuration = Session.Configuration()
        configuration.security.secretHeaders = ["X-Trace-Secret"]
        var request = URLRequest(url: URL(string: "http://a.example/x")!)
        request.setValue("s3cr3t", forHTTPHeaderField: "X-Trace-Secret")
        let text = CURLCommand.render(
            HTTPRequest(testing: request), redactor: Redactor(security: configuration.security))
        XCTAssertFalse(text.contains("s3cr3t"), text)
        let decision = RedirectDecision.decide(
            current: HTTPRequest(testing: request), status: 302, location: "http://b.example/y",
            redirectsSoFar: 0, policy: .follow(max: 5),
            security: configuration.security)
        guard case .follow(let next) = decision else { return XCTFail("expected a redirect, got \(decision)") }
        XCTAssertNil(next.value(forHTTPHeaderField: "X-Trace-Secret"))
    }

    /// Secret keys compare without regard to case, `_` or `-`; secret header names count as keys
    /// (a body echoing `"authorization": …`).
    func testSecretKeys() {
        var policy = SecurityPolicy()
        for key in ["password", "PW", "access_token", "Access-Token", "api_key", "Authorization", "cookie"] {
            XCTAssertTrue(policy.isSecret(key: key), key)
        }
        for key in ["email", "client_id", "page", "tokens"] {
            XCTAssertFalse(policy.isSecret(key: key), key)
        }
        policy.secretKeys.insert("clientID")
        XCTAssertTrue(policy.isSecret(key: "client_id"))
        policy.secretKeys = []
        XCTAssertFalse(policy.isSecret(key: "password"))
        XCTAssertTrue(policy.isSecret(key: "authorization"))
    }

    func testDefaultsAreSafe() {
        let policy = Session.Configuration().security
        XCTAssertFalse(policy.allowsInsecureRedirects)
        XCTAssertEqual(policy.maxResponseSize, 64 << 20, "a finite default for bodies held in memory")
        XCTAssertEqual(SecurityPolicy.defaultMaxResponseSize, 64 << 20)
        XCTAssertEqual(
            policy.maxDownloadSize, 8 << 30, "a finite default for downloads too: a hostile server cannot fill the disk"
        )
        var changed = policy
        changed.maxResponseSize = nil
        XCTAssertNil(changed.maxResponseSize)
        XCTAssertEqual(policy.maxResponseSize, 64 << 20, "a copy: the session's policy is unchanged")
    }

    func testBodyLimitFollowsTheDestination() {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 10
        configuration.security.maxDownloadSize = 20
        let session = Session(configuration: configuration)
        var options = session.transferOptions(for: HTTPRequest(testing: URL(string: "http://h/")!))
        XCTAssertEqual(options.bodyLimit, 10)
        options.destination = URL(fileURLWithPath: "/tmp/x")
        XCTAssertEqual(options.bodyLimit, 20)
    }
}
