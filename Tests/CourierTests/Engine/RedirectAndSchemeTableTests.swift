@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One redirect status list and one scheme allow-list, read by every layer: tables, no sockets.
final class RedirectAndSchemeTableTests: XCTestCase {
    /// Every status from 100 to 599, with and without a Location, under both policies.
    func testWillFollowTable() {
        let followed: Set<Int> = [301, 302, 303, 307, 308]
        XCTAssertEqual(RedirectDecision.redirectStatuses, followed)
        for status in 100...599 {
            for location: String? in [nil, "", "/next"] {
                for policy: Session.RedirectPolicy in [.follow(max: 3), .doNotFollow] {
                    let expected = followed.contains(status) && location == "/next" && policy != .doNotFollow
                    XCTAssertEqual(
                        RedirectDecision.willFollow(status: status, location: location, policy: policy), expected,
                        "status \(status), location \(location ?? "nil"), policy \(policy)")
                }
            }
        }
    }

    /// `decide` follows exactly where `willFollow` says a redirect is followed (the engine's early
    /// body decision and the final decision cannot disagree).
    func testDecideAgreesWithWillFollow() {
        let current = HTTPRequest(testing: URL(string: "http://127.0.0.1:8080/a") ?? URL(fileURLWithPath: "/"))
        for status in 300...399 {
            for location: String? in [nil, "", "/next", "http://127.0.0.1:9/x"] {
                for policy: Session.RedirectPolicy in [.follow(max: 3), .doNotFollow] {
                    let decision = RedirectDecision.decide(
                        current: current, status: status, location: location, redirectsSoFar: 0, policy: policy,
                        security: SecurityPolicy())
                    var followed = false
                    if case .follow = decision { followed = true }
                    XCTAssertEqual(
                        followed, RedirectDecision.willFollow(status: status, location: location, policy: policy),
                        "status \(status), location \(location ?? "nil"), policy \(policy)")
                }
            }
        }
    }

    func testSchemeAllowListTable() {
        let table: [(String?, Bool)] = [
            ("http", true), ("https", true), ("HTTP", true), ("HtTpS", true), (nil, false), ("", false),
            ("ftp", false), ("file", false), ("ws", false), ("wss", false), ("httpx", false), ("http ", false),
            ("gopher", false), ("data", false), ("javascript", false), ("htt", false)
        ]
        for (scheme, allowed) in table {
            XCTAssertEqual(SecurityPolicy.allowsScheme(scheme), allowed, "scheme \(scheme ?? "nil")")
        }
        XCTAssertEqual(SecurityPolicy.allowedSchemesForCurl, "http,https")
    }

    /// Each layer refuses what the allow-list refuses, with the same typed error.
    func testEveryLayerReadsTheAllowList() throws {
        for (url, allowed) in [
            ("https://h.example/x", true), ("HTTP://h.example/x", true), ("ftp://h.example/x", false),
            ("file:///etc/passwd", false), ("gopher://h.example/", false)
        ] {
            // A string URL.
            do {
                _ = try url.asURLRequest()
                XCTAssertTrue(allowed, "\(url) was accepted as a string URL")
            } catch {
                XCTAssertFalse(allowed, "\(url) was refused as a string URL")
                XCTAssertEqual((error as? CourierError)?.kind, "unsupportedScheme")
            }
            // A router's base URL.
            do {
                _ = try URLBuilder.validatedBase(url)
                XCTAssertTrue(allowed, "\(url) was accepted as a base URL")
            } catch {
                XCTAssertFalse(allowed, "\(url) was refused as a base URL")
                XCTAssertEqual((error as? CourierError)?.kind, "unsupportedScheme")
            }
            // A redirect target.
            let current = HTTPRequest(testing: URL(string: "http://127.0.0.1:8080/a") ?? URL(fileURLWithPath: "/"))
            let decision = RedirectDecision.decide(
                current: current, status: 302, location: url, redirectsSoFar: 0, policy: .follow(max: 3),
                security: SecurityPolicy(allowsInsecureRedirects: true))
            switch decision {
            case .follow: XCTAssertTrue(allowed, "a redirect to \(url) was followed")
            case .fail(let error):
                XCTAssertFalse(allowed, "a redirect to \(url) was refused")
                XCTAssertEqual("\(error.kind)", "redirectRefused")
            case .deliver: XCTFail("a 302 with a Location is never delivered under .follow")
            }
        }
    }
}
