@testable import Courier
import Foundation
import XCTest

/// `Cache-Control` directives, delta-seconds and HTTP-dates, as tables.
final class CacheControlTests: XCTestCase {
    func testDirectives() {
        let rows: [(lines: [String], expected: CacheControl)] = [
            ([], CacheControl()),
            (
                ["max-age=60"],
                {
                    var c = CacheControl(); c.maxAge = 60; return c
                }()
            ),
            (
                ["MaX-AgE=60"],
                {
                    var c = CacheControl(); c.maxAge = 60; return c
                }()
            ),
            (
                ["max-age=\"60\""],
                {
                    var c = CacheControl(); c.maxAge = 60; return c
                }()
            ),
            (["max-age='60'"], CacheControl()),
            (["max-age=-1"], CacheControl()),
            (["max-age=6.5"], CacheControl()),
            (["max-age= 60"], CacheControl()),
            (["max-age =60"], CacheControl()),
            (
                ["max-age=007"],
                {
                    var c = CacheControl(); c.maxAge = 7; return c
                }()
            ),
            (
                ["max-age=99999999999"],
                {
                    var c = CacheControl(); c.maxAge = CacheControl.maxDeltaSeconds; return c
                }()
            ),
            (
                ["max-age=1, max-age=1800"],
                {
                    var c = CacheControl(); c.maxAge = 1; return c
                }()
            ),
            (
                ["max-age=1800", "max-age=1"],
                {
                    var c = CacheControl(); c.maxAge = 1800; return c
                }()
            ),
            (
                ["ext=\"max-age=3600\", max-age=1"],
                {
                    var c = CacheControl(); c.maxAge = 1; return c
                }()
            ),
            (
                ["no-cache, no-store"],
                {
                    var c = CacheControl(); c.noCache = true; c.noStore = true; return c
                }()
            ),
            (
                ["no-cache=\"Set-Cookie, A\""],
                {
                    var c = CacheControl(); c.noCache = true; return c
                }()
            ),
            (
                ["private, public"],
                {
                    var c = CacheControl(); c.isPrivate = true; c.isPublic = true; return c
                }()
            ),
            (
                ["must-revalidate"],
                {
                    var c = CacheControl(); c.mustRevalidate = true; return c
                }()
            ),
            (
                ["max-stale"],
                {
                    var c = CacheControl(); c.maxStale = Int.max; return c
                }()
            ),
            (
                ["max-stale=30, min-fresh=5"],
                {
                    var c = CacheControl(); c.maxStale = 30; c.minFresh = 5; return c
                }()
            ),
            (
                ["only-if-cached"],
                {
                    var c = CacheControl(); c.onlyIfCached = true; return c
                }()
            ),
            (
                [" , ,max-age=5,, "],
                {
                    var c = CacheControl(); c.maxAge = 5; return c
                }()
            )
        ]
        for row in rows {
            XCTAssertEqual(CacheControl(fieldValues: row.lines), row.expected, "\(row.lines)")
        }
    }

    func testListSplittingKeepsQuotedCommas() {
        XCTAssertEqual(CacheControl.splitList("a, \"b, c\" ,d"), ["a", "\"b, c\"", "d"])
        XCTAssertEqual(CacheControl.splitList(" , "), [])
        XCTAssertEqual(CacheControl.splitList("\"a\\\", b\", c"), ["\"a\\\", b\"", "c"])
    }

    func testHTTPDates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let rows: [(String, Date?)] = [
            ("Sun, 06 Nov 1994 08:49:37 GMT", expected),
            ("SUN, 06 NOV 1994 08:49:37 gmt", expected),
            ("Sunday, 06-Nov-94 08:49:37 GMT", expected),
            ("Sun Nov  6 08:49:37 1994", expected),
            ("Thursday, 18-Aug-50 02:01:18 GMT", Date(timeIntervalSince1970: 2_544_400_878)),
            ("Sun, 06 Nov 1994 08:49:37 UTC", nil),
            ("Sun, 06 Nov 94 08:49:37 GMT", nil),
            ("Sun 06 Nov 1994 08:49:37 GMT", nil),
            ("Sun, 06  Nov  1994 08:49:37 GMT", nil),
            ("Sun, 06-Nov-1994 08:49:37 GMT", nil),
            ("Sun, 06 Nov 1994 08.49.37 GMT", nil),
            ("Sun, 06 Nov 1994 8:49:37 GMT", nil),
            ("Sun Nov 6 08:49:37 1994", nil),
            ("0", nil),
            ("", nil)
        ]
        for (text, date) in rows {
            XCTAssertEqual(HTTPDate.parse(text), date, text)
        }
    }

    func testHTTPDateFormatRoundTrips() {
        for seconds in [0, 784_111_777, 951_782_400, 2_147_483_648, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            XCTAssertEqual(HTTPDate.parse(HTTPDate.format(date)), date, HTTPDate.format(date))
        }
        XCTAssertEqual(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)), "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
