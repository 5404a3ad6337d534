@testable import Courier
import XCTest

/// The engine's cache of parsed URLs as a table: which request of a URL gets a parse, and which
/// URLs it remembers.
final class URLHandleCacheTests: XCTestCase {
    func testAURLIsParsedAtItsSecondRequestAndTheParseIsShared() {
        var cache = URLHandleCache()
        let url = "http://127.0.0.1:8080/items?page=2"
        XCTAssertNil(cache.handle(for: url), "a first request sends its text")
        let second = cache.handle(for: url)
        XCTAssertNotNil(second, "the second request gets a parse")
        XCTAssertTrue(cache.handle(for: url) === second, "later requests share it")
    }

    func testTheLeastRecentlyRequestedURLIsForgottenWhenTheCacheIsFull() {
        var cache = URLHandleCache()
        let urls = (0...7).map { "http://127.0.0.1:8080/\($0)" }
        XCTAssertEqual(URLHandleCache.capacity, 4, "the table below is written for four entries")
        // Each row: the URL requested, and whether it gets a parse.
        let table: [(url: String, parsed: Bool)] = [
            (urls[0], false), (urls[0], true), (urls[1], false), (urls[2], false), (urls[3], false),
            // Remembered, most recent first: 3, 2, 1, 0. A fifth URL forgets the least recent, 0.
            (urls[4], false), (urls[0], false), (urls[0], true),
            // 0 came back in place of 1; 2 is still remembered, and gets its parse now.
            (urls[2], true), (urls[1], false),
            // An endpoint in steady use stays while passing URLs come and go.
            (urls[0], true), (urls[5], false), (urls[6], false), (urls[0], true), (urls[7], false),
            (urls[3], false), (urls[0], true)
        ]
        for (row, step) in table.enumerated() {
            XCTAssertEqual(cache.handle(for: step.url) != nil, step.parsed, "row \(row): \(step.url)")
        }
    }

    func testAURLLibcurlRejectsIsNeverParsedAndStaysText() {
        var cache = URLHandleCache()
        // A space in the host: libcurl's parser refuses it; the transfer then sets the text and
        // libcurl reports its own error, as it always has.
        let rejected = "http://bad host/"
        XCTAssertNil(CurlURLHandle(rejected))
        XCTAssertNil(cache.handle(for: rejected))
        XCTAssertNil(cache.handle(for: rejected))
        XCTAssertNotNil(CurlURLHandle("https://example.com/a?b=c"))
    }
}
