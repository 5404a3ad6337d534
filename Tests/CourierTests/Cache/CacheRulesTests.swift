@testable import Courier
import Foundation
import XCTest

/// RFC 9111's rules (``CacheRules``) as tables: no store, no clock, no socket.
final class CacheRulesTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_750_000_000)
    private let url = URL(string: "https://api.example.com/items?page=1#top")!

    private func date(_ offset: TimeInterval) -> String { HTTPDate.format(t0 + offset) }

    private func entry(
        status: Int = 200, _ headers: [(String, String)], received: TimeInterval = 0, sent: TimeInterval? = nil,
        request: [(String, String)] = []
    ) -> CacheEntry {
        let request = CacheRequest(method: "GET", url: url, headers: request.map { CacheHeader($0.0, $0.1) })
        let response = CacheResponse(
            statusCode: status, headers: headers.map { CacheHeader($0.0, $0.1) }, body: Data("body".utf8))
        return CacheRules.makeEntry(
            request, response, requestTime: t0 + (sent ?? received), responseTime: t0 + received)
    }

    func testKeyDropsTheFragment() {
        XCTAssertEqual(CacheRules.key(for: url), "https://api.example.com/items?page=1")
    }

    func testFreshnessLifetime() {
        let rows: [(String, Int, [(String, String)], TimeInterval)] = [
            ("max-age", 200, [("Cache-Control", "max-age=60")], 60),
            (
                "max-age wins over Expires", 200,
                [("Cache-Control", "max-age=60"), ("Expires", date(-100)), ("Date", date(0))], 60
            ),
            ("s-maxage is for shared caches", 200, [("Cache-Control", "s-maxage=600")], 0),
            ("Expires - Date", 200, [("Expires", date(300)), ("Date", date(0))], 300),
            ("Expires in the past", 200, [("Expires", date(-300)), ("Date", date(0))], 0),
            ("invalid Expires is expired", 200, [("Expires", "0"), ("Date", date(0))], 0),
            ("two Expires lines", 200, [("Expires", date(300)), ("Expires", date(600)), ("Date", date(0))], 0),
            ("no Date: response time", 200, [("Expires", date(300))], 300),
            ("heuristic 10%", 200, [("Last-Modified", date(-86_400)), ("Date", date(0))], 8640),
            ("heuristic 404", 404, [("Last-Modified", date(-1000)), ("Date", date(0))], 100),
            ("no heuristic for 201", 201, [("Last-Modified", date(-1000)), ("Date", date(0))], 0),
            (
                "public allows heuristic on 599", 599,
                [("Last-Modified", date(-1000)), ("Date", date(0)), ("Cache-Control", "public")], 100
            ),
            ("Last-Modified after Date", 200, [("Last-Modified", date(100)), ("Date", date(0))], 0),
            ("nothing", 200, [], 0)
        ]
        for (name, status, headers, lifetime) in rows {
            let fields = headers.map { CacheHeader($0.0, $0.1) }
            XCTAssertEqual(
                CacheRules.freshnessLifetime(statusCode: status, headers: fields, responseTime: t0), lifetime, name)
        }
    }

    func testCurrentAge() {
        let rows: [(String, CacheEntry, TimeInterval, TimeInterval)] = [
            ("resident time only", entry([("Date", date(0))]), 10, 10),
            ("Age header", entry([("Date", date(0)), ("Age", "30")]), 10, 40),
            ("Age first value", entry([("Date", date(0)), ("Age", "5, 500")]), 0, 5),
            ("invalid Age ignored", entry([("Date", date(0)), ("Age", "-30")]), 0, 0),
            ("Date in the past: apparent age", entry([("Date", date(-100))]), 0, 100),
            ("request delay counts", entry([("Date", date(5)), ("Age", "10")], received: 5, sent: 0), 5, 15),
            ("Date in the future: no negative age", entry([("Date", date(100))]), 0, 0)
        ]
        for (name, stored, now, age) in rows {
            XCTAssertEqual(CacheRules.currentAge(stored, now: t0 + now), age, name)
        }
    }

    func testStorability() {
        let rows: [(String, String, [(String, String)], Int, [(String, String)], Bool)] = [
            ("GET 200 max-age", "GET", [], 200, [("Cache-Control", "max-age=60")], true),
            ("GET 200 nothing (heuristically cacheable)", "GET", [], 200, [], true),
            ("HEAD", "HEAD", [], 200, [("Cache-Control", "max-age=60")], false),
            ("POST", "POST", [], 200, [("Cache-Control", "max-age=60")], false),
            ("response no-store", "GET", [], 200, [("Cache-Control", "max-age=60, no-store")], false),
            ("request no-store", "GET", [("Cache-Control", "no-store")], 200, [("Cache-Control", "max-age=60")], false),
            ("private is fine here", "GET", [], 200, [("Cache-Control", "private, max-age=60")], true),
            (
                "Authorization is fine here", "GET", [("Authorization", "Bearer x")], 200,
                [("Cache-Control", "max-age=60")], true
            ),
            ("Vary *", "GET", [], 200, [("Cache-Control", "max-age=60"), ("Vary", "Accept, *")], false),
            ("206", "GET", [], 206, [("Cache-Control", "max-age=60")], false),
            ("304", "GET", [], 304, [("Cache-Control", "max-age=60")], false),
            ("201 without freshness", "GET", [], 201, [], false),
            ("201 with max-age", "GET", [], 201, [("Cache-Control", "max-age=60")], true),
            ("599 with Expires", "GET", [], 599, [("Expires", date(60))], true),
            ("1xx", "GET", [], 103, [("Cache-Control", "max-age=60")], false)
        ]
        for (name, method, requestFields, status, responseFields, storable) in rows {
            let request = CacheRequest(method: method, url: url, headers: requestFields.map { CacheHeader($0.0, $0.1) })
            let response = CacheResponse(statusCode: status, headers: responseFields.map { CacheHeader($0.0, $0.1) })
            XCTAssertEqual(CacheRules.isStorable(request, response), storable, name)
        }
    }

    private enum Expected: Equatable {
        case serve, notModified, validate([String]), fetch(Bool), unsatisfiable
    }

    private func kind(_ lookup: CacheLookup) -> Expected {
        switch lookup {
        case .serve: return .serve
        case .notModified: return .notModified
        case .validate(_, let conditions): return .validate(conditions.map { "\($0.name): \($0.value)" })
        case .fetch(let storable): return .fetch(storable)
        case .unsatisfiable: return .unsatisfiable
        }
    }

    func testLookupDecisions() {
        let etag = "\"v1\""
        let fresh = entry([("Cache-Control", "max-age=100"), ("Date", date(0)), ("ETag", etag)])
        let freshNoCache = entry([("Cache-Control", "max-age=100, no-cache"), ("ETag", etag)])
        let stale = entry([
            ("Cache-Control", "max-age=10"), ("Date", date(0)), ("ETag", etag), ("Last-Modified", date(-50))
        ])
        let staleMustRevalidate = entry([("Cache-Control", "max-age=10, must-revalidate"), ("ETag", etag)])
        let staleNoValidator = entry([("Cache-Control", "max-age=10"), ("Date", date(0))])
        let validateBoth = Expected.validate(["If-None-Match: \(etag)", "If-Modified-Since: \(date(-50))"])
        typealias Row = (String, String, [(String, String)], CacheEntry?, Session.CachePolicy, TimeInterval, Expected)
        let rows: [Row] = [
            ("nothing stored", "GET", [], nil, .useProtocol, 0, .fetch(true)),
            ("fresh", "GET", [], fresh, .useProtocol, 50, .serve),
            ("fresh for HEAD", "HEAD", [], fresh, .useProtocol, 50, .serve),
            ("POST never reads", "POST", [], fresh, .useProtocol, 50, .fetch(false)),
            ("stale: both validators", "GET", [], stale, .useProtocol, 50, validateBoth),
            ("stale without validator", "GET", [], staleNoValidator, .useProtocol, 50, .fetch(true)),
            ("response no-cache", "GET", [], freshNoCache, .useProtocol, 1, .validate(["If-None-Match: \(etag)"])),
            (
                "request no-cache", "GET", [("Cache-Control", "no-cache")], fresh, .useProtocol, 1,
                .validate(["If-None-Match: \(etag)"])
            ),
            (
                "Pragma no-cache", "GET", [("Pragma", "no-cache")], fresh, .useProtocol, 1,
                .validate(["If-None-Match: \(etag)"])
            ),
            (
                "Pragma ignored with Cache-Control", "GET", [("Pragma", "no-cache"), ("Cache-Control", "max-stale")],
                fresh, .useProtocol, 1, .serve
            ),
            ("request no-store", "GET", [("Cache-Control", "no-store")], fresh, .useProtocol, 1, .fetch(false)),
            (
                "request max-age exceeded", "GET", [("Cache-Control", "max-age=20")], fresh, .useProtocol, 30,
                .validate(["If-None-Match: \(etag)"])
            ),
            ("request max-age met", "GET", [("Cache-Control", "max-age=40")], fresh, .useProtocol, 30, .serve),
            (
                "min-fresh not met", "GET", [("Cache-Control", "min-fresh=80")], fresh, .useProtocol, 30,
                .validate(["If-None-Match: \(etag)"])
            ),
            ("min-fresh met", "GET", [("Cache-Control", "min-fresh=60")], fresh, .useProtocol, 30, .serve),
            ("max-stale covers", "GET", [("Cache-Control", "max-stale=60")], stale, .useProtocol, 50, .serve),
            ("max-stale too short", "GET", [("Cache-Control", "max-stale=20")], stale, .useProtocol, 50, validateBoth),
            ("max-stale any", "GET", [("Cache-Control", "max-stale")], stale, .useProtocol, 5000, .serve),
            (
                "must-revalidate beats max-stale", "GET", [("Cache-Control", "max-stale")], staleMustRevalidate,
                .useProtocol, 50, .validate(["If-None-Match: \(etag)"])
            ),
            ("only-if-cached fresh", "GET", [("Cache-Control", "only-if-cached")], fresh, .useProtocol, 1, .serve),
            (
                "only-if-cached stale", "GET", [("Cache-Control", "only-if-cached")], stale, .useProtocol, 50,
                .unsatisfiable
            ),
            (
                "only-if-cached nothing", "GET", [("Cache-Control", "only-if-cached")], nil, .useProtocol, 0,
                .unsatisfiable
            ),
            ("policy revalidate", "GET", [], fresh, .revalidate, 1, .validate(["If-None-Match: \(etag)"])),
            ("policy reload", "GET", [], fresh, .reloadIgnoringCache, 1, .fetch(true)),
            ("policy only-if-cached serves stale", "GET", [], stale, .onlyIfCached, 5000, .serve),
            ("policy only-if-cached nothing", "GET", [], nil, .onlyIfCached, 0, .unsatisfiable),
            ("Range bypasses", "GET", [("Range", "bytes=0-1")], fresh, .useProtocol, 1, .fetch(false)),
            (
                "caller's If-None-Match matches", "GET", [("If-None-Match", "\"x\", W/\"v1\"")], fresh, .useProtocol, 1,
                .notModified
            ),
            ("caller's If-None-Match differs", "GET", [("If-None-Match", "\"x\"")], fresh, .useProtocol, 1, .serve),
            (
                "caller's If-None-Match on stale goes out", "GET", [("If-None-Match", etag)], stale, .useProtocol, 50,
                .fetch(true)
            ),
            (
                "caller's If-Modified-Since", "GET", [("If-Modified-Since", date(-40))], stale, .useProtocol, 5,
                .notModified
            ),
            (
                "caller's If-Modified-Since older", "GET", [("If-Modified-Since", date(-60))], stale, .useProtocol, 5,
                .serve
            )
        ]
        for (name, method, fields, stored, policy, now, expected) in rows {
            let request = CacheRequest(method: method, url: url, headers: fields.map { CacheHeader($0.0, $0.1) })
            XCTAssertEqual(
                kind(CacheRules.lookup(request, stored: stored, policy: policy, now: t0 + now)), expected, name)
        }
    }

    func testVaryMatching() {
        let response: [(String, String)] = [("Cache-Control", "max-age=100"), ("Vary", "Accept-Language, X-Tenant")]
        let stored = entry(response, request: [("Accept-Language", "en, de"), ("X-Tenant", "a")])
        let rows: [([(String, String)], Bool)] = [
            ([("Accept-Language", "en, de"), ("X-Tenant", "a")], true),
            ([("accept-language", " EN ,de "), ("x-tenant", "a")], true),
            ([("Accept-Language", "en"), ("Accept-Language", "de"), ("X-Tenant", "a")], true),
            ([("Accept-Language", "en, de"), ("X-Tenant", "b")], false),
            ([("Accept-Language", "en, de")], false),
            ([("Accept-Language", "en, de"), ("X-Tenant", "a"), ("Other", "1")], true)
        ]
        for (fields, matches) in rows {
            let request = CacheRequest(method: "GET", url: url, headers: fields.map { CacheHeader($0.0, $0.1) })
            XCTAssertEqual(CacheRules.matchesVariant(stored, request), matches, "\(fields)")
        }
    }

    func testAuthorizationIsPartOfTheSecondaryKey() {
        let stored = entry([("Cache-Control", "max-age=100")], request: [("Authorization", "Bearer alice")])
        XCTAssertTrue(stored.carriesCredentials)
        let alice = CacheRequest(method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer alice")])
        let bob = CacheRequest(method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer bob")])
        let anonymous = CacheRequest(method: "GET", url: url)
        XCTAssertTrue(CacheRules.matchesVariant(stored, alice))
        XCTAssertFalse(CacheRules.matchesVariant(stored, bob))
        XCTAssertFalse(CacheRules.matchesVariant(stored, anonymous))
    }

    func testStoredFieldsDropHopByHopAndConnectionNominated() {
        let stored = entry([
            ("Cache-Control", "max-age=100"), ("Connection", "x-hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"),
            ("Transfer-Encoding", "chunked"), ("Proxy-Authenticate", "Basic"), ("Content-Length", "4"),
            ("X-Kept", "yes")
        ])
        XCTAssertEqual(stored.headers.map(\.name), ["Cache-Control", "Content-Length", "X-Kept"])
    }

    func testFreshenMergesA304() {
        let stored = entry([
            ("Cache-Control", "max-age=10"), ("ETag", "\"v1\""), ("X-A", "old"), ("X-B", "kept"),
            ("Content-Length", "4")
        ])
        let notModified = CacheResponse(
            statusCode: 304,
            headers: [
                CacheHeader("Cache-Control", "max-age=99"), CacheHeader("X-A", "new"),
                CacheHeader("Content-Length", "0"),
                CacheHeader("Connection", "close"), CacheHeader("ETag", "\"v1\"")
            ])
        let merged = CacheRules.freshen(stored, with: notModified, requestTime: t0 + 50, responseTime: t0 + 51)
        XCTAssertEqual(merged?.headers.first("Cache-Control"), "max-age=99")
        XCTAssertEqual(merged?.headers.values("X-A"), ["new"])
        XCTAssertEqual(merged?.headers.first("X-B"), "kept")
        XCTAssertEqual(merged?.headers.first("Content-Length"), "4")
        XCTAssertNil(merged?.headers.first("Connection"))
        XCTAssertEqual(merged?.body, stored.body)
        XCTAssertEqual(merged?.responseTime, t0 + 51)
        // A strong ETag that differs names another representation: not merged.
        let other = CacheResponse(statusCode: 304, headers: [CacheHeader("ETag", "\"v2\"")])
        XCTAssertNil(CacheRules.freshen(stored, with: other, requestTime: t0, responseTime: t0))
    }

    func testInvalidation() {
        let rows: [(String, Int, [(String, String)], [String])] = [
            ("GET", 200, [], []),
            ("POST", 200, [], ["https://api.example.com/items?page=1"]),
            (
                "DELETE", 204, [("Location", "/items/2"), ("Content-Location", "https://api.example.com/items/3")],
                [
                    "https://api.example.com/items?page=1", "https://api.example.com/items/2",
                    "https://api.example.com/items/3"
                ]
            ),
            ("PUT", 200, [("Location", "https://other.example.com/x")], ["https://api.example.com/items?page=1"]),
            ("POST", 500, [], []),
            ("M-SEARCH", 200, [], ["https://api.example.com/items?page=1"])
        ]
        for (method, status, fields, keys) in rows {
            let request = CacheRequest(method: method, url: url)
            let response = CacheResponse(statusCode: status, headers: fields.map { CacheHeader($0.0, $0.1) })
            XCTAssertEqual(CacheRules.invalidatedKeys(request, response), keys, "\(method) \(status)")
        }
    }

    func testServedResponsesSetAge() {
        let stored = entry([("Cache-Control", "max-age=100"), ("Age", "3")])
        let served = CacheRules.servedResponse(stored, age: 42, method: "GET")
        XCTAssertEqual(served.headers.values("Age"), ["42"])
        XCTAssertEqual(served.body, Data("body".utf8))
        XCTAssertEqual(CacheRules.servedResponse(stored, age: 1, method: "HEAD").body, Data())
        let notModified = CacheRules.notModifiedResponse(stored, age: 1)
        XCTAssertEqual(notModified.statusCode, 304)
        XCTAssertTrue(notModified.body.isEmpty)
    }
}
