@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where each ``AuthorizationType`` puts the credential, without sockets.
final class AuthorizationTypeTests: XCTestCase {
    /// Where each authorization type puts a token, as a table: the placement, the request it
    /// makes of `https://api.example.com/v1/items?page=2` with a cookie already set, and the value
    /// read back from that request (what a 401's replay compares with the current credential).
    func testAuthorizationPlacements() throws {
        let basic = AuthCredential.basic(username: "ada", password: "pw").accessToken
        let rows: [(AuthorizationType, token: String, AuthorizationType.Placement?, url: String, cookie: String)] = [
            (.none, "t", nil, "https://api.example.com/v1/items?page=2", "theme=dark"),
            (
                .bearer, "t", .header(name: "Authorization", value: "Bearer t"),
                "https://api.example.com/v1/items?page=2", "theme=dark"
            ),
            (
                .basic, basic, .header(name: "Authorization", value: "Basic YWRhOnB3"),
                "https://api.example.com/v1/items?page=2", "theme=dark"
            ),
            (
                .custom(header: "X-Auth-Token"), "t", .header(name: "X-Auth-Token", value: "t"),
                "https://api.example.com/v1/items?page=2", "theme=dark"
            ),
            (
                .custom(header: "Authorization", scheme: "Token"), "t",
                .header(name: "Authorization", value: "Token t"),
                "https://api.example.com/v1/items?page=2", "theme=dark"
            ),
            (
                .query(name: "api_key"), "a+b/c=", .query(name: "api_key", value: "a+b/c="),
                "https://api.example.com/v1/items?page=2&api_key=a%2Bb/c%3D", "theme=dark"
            ),
            (
                .query(name: "page"), "t 1", .query(name: "page", value: "t 1"),
                "https://api.example.com/v1/items?page=t%201", "theme=dark"
            ),
            (
                .cookie(name: "sid"), "a+b/c=", .cookie(name: "sid", value: "a+b/c="),
                "https://api.example.com/v1/items?page=2",
                "theme=dark; sid=a+b/c="
            ),
            (
                .cookie(name: "theme"), "x; y=\"é\"%", .cookie(name: "theme", value: "x%3B%20y=%22%C3%A9%22%25"),
                "https://api.example.com/v1/items?page=2", "theme=x%3B%20y=%22%C3%A9%22%25"
            )
        ]
        for (kind, token, placement, url, cookie) in rows {
            XCTAssertEqual(kind.placement(of: token), placement, "\(kind)")
            var request = URLRequest(url: try XCTUnwrap(URL(string: "https://api.example.com/v1/items?page=2")))
            request.setValue("theme=dark", forHTTPHeaderField: "Cookie")
            let sent = kind.applying(token, to: request)
            XCTAssertEqual(sent.url?.absoluteString, url, "\(kind)")
            XCTAssertEqual(sent.value(forHTTPHeaderField: "Cookie"), cookie, "\(kind)")
            if case .header(let name, let value)? = placement {
                XCTAssertEqual(sent.value(forHTTPHeaderField: name), value, "\(kind)")
            }
            XCTAssertEqual(kind.sentValue(in: sent), kind.placedValue(of: token), "\(kind)")
            if kind != .none {
                XCTAssertNotEqual(kind.sentValue(in: sent), kind.placedValue(of: "other"), "\(kind)")
            }
        }
    }
}
