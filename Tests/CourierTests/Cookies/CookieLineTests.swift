@testable import Courier
import Foundation
import XCTest

/// libcurl's Netscape cookie lines to ``Session/Cookie`` and back, as a table without sockets.
final class CookieLineTests: XCTestCase {
    func testParsesLibcurlsLines() {
        let table: [(line: String, cookie: Session.Cookie?)] = [
            (
                "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc",
                Session.Cookie(name: "sid", value: "abc", domain: "127.0.0.1")
            ),
            (
                ".example.com\tTRUE\t/api\tTRUE\t4102444800\tt\tv=1",
                Session.Cookie(
                    name: "t", value: "v=1", domain: "example.com", includesSubdomains: true, path: "/api",
                    expires: Date(timeIntervalSince1970: 4_102_444_800), isSecure: true)
            ),
            (
                "#HttpOnly_app.example.com\tFALSE\t/\tFALSE\t0\th\t",
                Session.Cookie(name: "h", value: "", domain: "app.example.com", isHTTPOnly: true)
            ),
            ("# Netscape HTTP Cookie File", nil),
            ("example.com\tFALSE\t/\tFALSE\tsoon\ta\t1", nil),
            ("example.com\tFALSE\t/", nil),
            ("\tFALSE\t/\tFALSE\t0\ta\t1", nil)
        ]
        for (line, expected) in table {
            XCTAssertEqual(Session.Cookie(netscapeLine: line), expected, line)
        }
    }

    func testWritesLinesThatReadBack() throws {
        let cookies = [
            Session.Cookie(name: "sid", value: "abc", domain: "127.0.0.1"),
            Session.Cookie(
                name: "t", value: "a b", domain: "example.com", includesSubdomains: true, path: "/api",
                expires: Date(timeIntervalSince1970: 4_102_444_800), isSecure: true, isHTTPOnly: true)
        ]
        for cookie in cookies {
            let line = try cookie.netscapeLine.get()
            XCTAssertEqual(Session.Cookie(netscapeLine: line), cookie, line)
        }
        let old = Session.Cookie(name: "a", value: "", domain: "x.org", expires: Date(timeIntervalSince1970: -5))
        XCTAssertEqual(try old.netscapeLine.get(), "x.org\tFALSE\t/\tFALSE\t1\ta\t", "before 1970 is still expired")
    }
}
