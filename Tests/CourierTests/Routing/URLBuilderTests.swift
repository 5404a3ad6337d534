import Foundation
import XCTest
@testable import Courier

/// Base URL + path joining, base validation and safe path segments.
final class URLBuilderTests: XCTestCase {
    func testSlashJoiningTable() throws {
        let table: [(base: String, path: String, expected: String)] = [
            ("https://api.test", "users", "https://api.test/users"),
            ("https://api.test", "/users", "https://api.test/users"),
            ("https://api.test/", "users", "https://api.test/users"),
            ("https://api.test/", "/users", "https://api.test/users"),
            ("https://api.test/v1", "users/1", "https://api.test/v1/users/1"),
            ("https://api.test/v1/", "/users/1", "https://api.test/v1/users/1"),
            ("https://api.test/v1//", "//users", "https://api.test/v1/users"),
            ("https://api.test/v1", "users/", "https://api.test/v1/users/"),
            ("https://api.test/v1", "", "https://api.test/v1"),
            ("https://api.test/v1/", "", "https://api.test/v1/"),
            ("https://api.test/v1", "/", "https://api.test/v1/"),
            ("http://127.0.0.1:8080", "/ping", "http://127.0.0.1:8080/ping"),
            ("HTTPS://API.test", "/x", "HTTPS://API.test/x")
        ]
        for row in table {
            XCTAssertEqual(
                try URLBuilder.makeURL(base: row.base, path: row.path).absoluteString, row.expected,
                "\(row.base) + \(row.path)")
        }
    }

    func testQueriesInBaseAndPathArePreservedAndExtraQueryAppended() throws {
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test/v1", path: "/search?lang=en").absoluteString,
            "https://api.test/v1/search?lang=en")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test/v1", path: "/search?lang=en", extraQuery: "q=1")
                .absoluteString, "https://api.test/v1/search?lang=en&q=1")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test/v1?key=k", path: "/search?lang=en", extraQuery: "q=1")
                .absoluteString, "https://api.test/v1/search?key=k&lang=en&q=1")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test/v1/", path: "/search?", extraQuery: "q=1")
                .absoluteString, "https://api.test/v1/search?q=1")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/a", extraQuery: "").absoluteString,
            "https://api.test/a")
    }

    func testFragmentInPathStaysLast() throws {
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/doc?x=1#top", extraQuery: "y=2").absoluteString,
            "https://api.test/doc?x=1&y=2#top")
    }

    func testRawSpacesAndNonASCIIInPathAreEscaped() throws {
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/a b/ü?q=x y").absoluteString,
            "https://api.test/a%20b/%C3%BC?q=x%20y")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/already%20escaped").absoluteString,
            "https://api.test/already%20escaped")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/100%/%zz/%4").absoluteString,
            "https://api.test/100%25/%25zz/%254")
        XCTAssertEqual(
            try URLBuilder.makeURL(base: "https://api.test", path: "/p?discount=5%&x=%2F").absoluteString,
            "https://api.test/p?discount=5%25&x=%2F")
    }

    func testInvalidBases() {
        let invalid = [
            "", "api.test/v1", "/relative", "https://", "not a url", "https:///path", "https://api.test#frag"
        ]
        for base in invalid {
            XCTAssertThrowsError(try URLBuilder.makeURL(base: base, path: "/x"), base) { error in
                guard error as? CourierError == .invalidURL else {
                    return XCTFail("\(base): expected invalidURL, got \(error)")
                }
            }
        }
    }

    func testUnsupportedSchemes() {
        let table = [("file:///etc/passwd", "file"), ("ftp://files.test", "ftp"), ("ws://sock.test", "ws")]
        for (base, scheme) in table {
            XCTAssertThrowsError(try URLBuilder.makeURL(base: base, path: "/x")) { error in
                XCTAssertSameError(error as? CourierError, .unsupportedScheme(scheme))
            }
        }
    }

    func testAppendingQueryToExistingURL() throws {
        let table: [(String, String)] = [
            ("https://a.test/p", "https://a.test/p?q=1"),
            ("https://a.test/p?", "https://a.test/p?q=1"),
            ("https://a.test/p?x=0", "https://a.test/p?x=0&q=1"),
            ("https://a.test/p?x=0#f", "https://a.test/p?x=0&q=1#f")
        ]
        for (input, expected) in table {
            let url = try XCTUnwrap(URL(string: input))
            XCTAssertEqual(try URLBuilder.appending(query: "q=1", to: url).absoluteString, expected)
        }
    }

    // MARK: Path segments

    func testPathSegmentEscapingTable() {
        let table: [(String, String)] = [
            ("abc-123_.~", "abc-123_.~"),
            ("a/b", "a%2Fb"),
            ("../admin", "..%2Fadmin"),
            ("..", "%2E%2E"),
            (".", "%2E"),
            ("...", "..."),
            ("x?y=1", "x%3Fy%3D1"),
            ("x#frag", "x%23frag"),
            ("100%", "100%25"),
            ("a b", "a%20b"),
            ("Zoë", "Zo%C3%AB"),
            ("a;b=c@d:e+f&g", "a%3Bb%3Dc%40d%3Ae%2Bf%26g"),
            ("", "")
        ]
        for (input, expected) in table {
            XCTAssertEqual(PathSegment.escape(input), expected, input)
        }
    }

    func testSegmentInterpolation() throws {
        let id = "../../admin?delete=1#x"
        let path = "/users/\(segment: id)/posts"
        XCTAssertEqual(path, "/users/..%2F..%2Fadmin%3Fdelete%3D1%23x/posts")
        let url = try URLBuilder.makeURL(base: "https://api.test/v1", path: path, extraQuery: "page=1")
        XCTAssertEqual(url.absoluteString, "https://api.test/v1/users/..%2F..%2Fadmin%3Fdelete%3D1%23x/posts?page=1")
        XCTAssertEqual(url.host, "api.test")
        XCTAssertEqual(url.query, "page=1")
        XCTAssertNil(url.fragment)
    }

    func testSegmentInterpolationOfNonStrings() {
        XCTAssertEqual(
            "/items/\(segment: 42)/\(segment: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))",
            "/items/42/00000000-0000-0000-0000-000000000001")
    }
}
