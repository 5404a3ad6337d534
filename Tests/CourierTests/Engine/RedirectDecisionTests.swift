@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The redirect policy as a pure function: no sockets.
final class RedirectDecisionTests: XCTestCase {
    private func request(
        _ url: String, method: String = "GET", headers: [String: String] = [:],
        body: String? = nil
    ) -> HTTPRequest {
        var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return HTTPRequest(testing: request)
    }

    private func decide(
        _ current: HTTPRequest, _ status: Int, _ location: String?, soFar: Int = 0,
        policy: Session.RedirectPolicy = .follow(max: 10),
        sensitive: Set<String> = ["X-Api-Key"]
    ) -> RedirectDecision {
        RedirectDecision.decide(
            current: current, status: status, location: location, redirectsSoFar: soFar,
            policy: policy, security: SecurityPolicy(secretHeaders: sensitive))
    }

    func testSecretsAreDroppedOnlyWhenTheOriginChanges() throws {
        let secrets = [
            "Authorization": "Bearer t", "Cookie": "c=1", "Proxy-Authorization": "p",
            "X-Api-Key": "k", "X-Other": "kept"
        ]
        let current = request("http://127.0.0.1:8080/a", headers: secrets)
        for (location, crosses) in [
            ("/b", false), ("http://127.0.0.1:8080/c", false),
            ("http://localhost:8080/c", true), ("http://127.0.0.1:9090/c", true),
            ("https://127.0.0.1:8080/c", true)
        ] {
            guard case .follow(let next) = decide(current, 302, location) else {
                return XCTFail("expected to follow \(location)")
            }
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key"] {
                XCTAssertEqual(next.value(forHTTPHeaderField: name) == nil, crosses, "\(name) → \(location)")
            }
            XCTAssertEqual(next.value(forHTTPHeaderField: "X-Other"), "kept")
        }
    }

    func testMethodRewriting() {
        let post = request("http://h/a", method: "POST", headers: ["Content-Type": "application/json"], body: "{}")
        for (status, expectedMethod, keepsBody) in [
            (301, "GET", false), (302, "GET", false), (303, "GET", false),
            (307, "POST", true), (308, "POST", true)
        ] {
            guard case .follow(let next) = decide(post, status, "/b") else { return XCTFail("\(status)") }
            XCTAssertEqual(next.httpMethod, expectedMethod, "\(status)")
            XCTAssertEqual(next.httpBody != nil, keepsBody, "\(status)")
            XCTAssertEqual(next.value(forHTTPHeaderField: "Content-Type") != nil, keepsBody, "\(status)")
        }
        let put = request("http://h/a", method: "PUT", body: "x")
        guard case .follow(let next) = decide(put, 302, "/b") else { return XCTFail("302 PUT") }
        XCTAssertEqual(next.httpMethod, "PUT", "only POST becomes GET on 301/302")
        guard case .follow(let head) = decide(request("http://h/a", method: "HEAD"), 303, "/b") else {
            return XCTFail()
        }
        XCTAssertEqual(head.httpMethod, "HEAD")
    }

    func testLimitsSchemesAndNonRedirects() {
        let current = request("http://h/a")
        XCTAssertEqual(decide(current, 302, "/b", soFar: 10), .fail(.tooManyRedirects(limit: 10)))
        XCTAssertEqual(decide(current, 302, "/b", policy: .doNotFollow), .deliver)
        XCTAssertEqual(
            decide(current, 302, "file:///etc/passwd"), .fail(.redirectRefused(location: "file:///etc/passwd")))
        XCTAssertEqual(decide(current, 301, "gopher://h/"), .fail(.redirectRefused(location: "gopher://h/")))
        // The error names the target with its secrets redacted, as every printed URL.
        guard case .fail(let refused) = decide(current, 302, "ftp://ada:pw-S1@h/f?token=tok-S2&v=1"),
            case .fail(let insecure) = decide(request("https://h/a"), 302, "http://h/next?api_key=key-S3")
        else { return XCTFail("expected both redirects refused") }
        for error in [refused, insecure] {
            XCTAssertFalse(["pw-S1", "tok-S2", "key-S3"].contains { error.description.contains($0) }, error.description)
        }
        XCTAssertEqual(refused.subject, "ftp://ada:redacted@h/f?token=<redacted>&v=1")
        XCTAssertEqual(insecure.subject, "http://h/next?api_key=<redacted>")
        XCTAssertEqual(decide(current, 304, "/b"), .deliver)
        XCTAssertEqual(decide(current, 300, "/b"), .deliver)
        XCTAssertEqual(decide(current, 302, nil), .deliver)
        XCTAssertEqual(decide(current, 302, ""), .deliver)
        guard case .follow(let next) = decide(request("http://h/dir/a?x=1"), 302, "b?y=2") else { return XCTFail() }
        XCTAssertEqual(next.url.absoluteString, "http://h/dir/b?y=2")
    }

    func testDowngradeFromHTTPSToHTTPIsRefusedUnlessAllowed() {
        let post = request("https://h/pay", method: "POST", headers: ["X-Api-Key": "k"], body: "card=4111")
        for (status, location) in [
            (301, "http://h/b"), (302, "http://other/b"), (307, "HTTP://h:8080/b"), (308, "http://h/b")
        ] {
            XCTAssertEqual(
                decide(post, status, location),
                .fail(.insecureRedirect(location: URL(string: location)!.absoluteString)), "\(status) \(location)")
        }
        var allowing = SecurityPolicy()
        allowing.allowsInsecureRedirects = true
        let decision = RedirectDecision.decide(
            current: post, status: 307, location: "http://h/b", redirectsSoFar: 0,
            policy: .follow(max: 10), security: allowing)
        guard case .follow(let next) = decision else { return XCTFail("expected to follow, got \(decision)") }
        XCTAssertEqual(next.httpMethod, "POST")
        XCTAssertNil(next.value(forHTTPHeaderField: "X-Api-Key"), "secrets never cross to http")
        // Same scheme, or an upgrade, is not a downgrade.
        guard case .follow = decide(request("https://h/a"), 302, "https://other/b"),
            case .follow = decide(request("http://h/a"), 302, "https://h/b"),
            case .follow = decide(request("https://h/a"), 302, "/relative")
        else {
            return XCTFail("https → https, http → https and relative redirects are followed")
        }
    }
}
