import Courier
import CourierTestServer
import Foundation
import XCTest

/// Domain, path, `Secure` and public-suffix rules, with real host names: every request goes
/// through the test server acting as a proxy.
final class CookieMatchingTests: XCTestCase {
    var proxy: TestHTTPServer!

    override func setUpWithError() throws {
        proxy = try TestHTTPServer()
    }

    override func tearDown() {
        proxy.shutdown()
    }

    func testDomainAttributeReachesSubdomainsAndHostOnlyCookiesDoNot() async throws {
        let session = Session.proxied(through: proxy)
        proxy.routeSettingCookies("/set", ["wide=1; Domain=example.com", "narrow=1"])
        try await session.get(makeURL("http://www.example.com/set"))
        let names = try await session.cookieNamesSent(to: makeURL("http://www.example.com/cookies"))
        XCTAssertEqual(Set(names), ["wide", "narrow"])
        try await session.expectCookie(makeURL("http://api.example.com/cookies"), "wide=1")
        try await session.expectCookie(makeURL("http://example.com/cookies"), "wide=1")
        try await session.expectCookie(makeURL("http://example.org/cookies"), nil)
        try await session.expectCookie(makeURL("http://notexample.com/cookies"), nil)
    }

    func testDomainOfAnotherSiteIsRefused() async throws {
        let session = Session.proxied(through: proxy)
        proxy.routeSettingCookies("/set", ["evil=1; Domain=example.org"])
        try await session.get(makeURL("http://www.example.com/set"))
        let stored = await session.cookies()
        XCTAssertEqual(stored, [])
        try await session.expectCookie(makeURL("http://example.org/cookies"), nil)
    }

    func testPublicSuffixDomainsAreRefused() async throws {
        let session = Session.proxied(through: proxy)
        proxy.routeSettingCookies("/set", ["suffix=1; Domain=co.uk", "tld=1; Domain=uk", "own=1; Domain=shop.co.uk"])
        try await session.get(makeURL("http://shop.co.uk/set"))
        try await session.expectCookie(makeURL("http://shop.co.uk/cookies"), "own=1")
        try await session.expectCookie(makeURL("http://other.co.uk/cookies"), nil)
        // A public suffix of the private section (github.io): one user's site cannot set a cookie for all.
        proxy.routeSettingCookies("/set2", ["io=1; Domain=github.io"])
        try await session.get(makeURL("http://alice.github.io/set2"))
        try await session.expectCookie(makeURL("http://bob.github.io/cookies"), nil)
    }

    func testPathMatching() async throws {
        let session = Session.proxied(through: proxy)
        proxy.routeSettingCookies("/api/login", ["api=1; Path=/api", "root=1; Path=/", "dflt=1"])
        try await session.get(makeURL("http://app.example.com/api/login"))
        proxy.route("/api/cookies") { request in .json(CookieHeader(cookie: request.header("Cookie"))) }
        proxy.route("/apiary/cookies") { request in .json(CookieHeader(cookie: request.header("Cookie"))) }
        // Longer paths first (RFC 6265 §5.4); `dflt` has the default path /api (the request's directory).
        let api = try await session.request(.url(makeURL("http://app.example.com/api/cookies"))).decodable(
            CookieHeader.self)
        let names = (api.cookie ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Set(names.prefix(2)), ["api=1", "dflt=1"])
        XCTAssertEqual(names.last, "root=1")
        let apiary = try await session.request(.url(makeURL("http://app.example.com/apiary/cookies")))
            .decodable(CookieHeader.self)
        XCTAssertEqual(apiary.cookie, "root=1", "/api does not path-match /apiary")
        try await session.expectCookie(makeURL("http://app.example.com/cookies"), "root=1")
    }

    func testSecureCookiesAreNotSentOverPlainHTTP() async throws {
        let session = Session.proxied(through: proxy)
        // Set over http: refused (a plain-text origin may not set a Secure cookie).
        proxy.routeSettingCookies("/set", ["s=1; Secure", "plain=1"])
        try await session.get(makeURL("http://app.example.com/set"))
        try await session.expectCookie(makeURL("http://app.example.com/cookies"), "plain=1")
        // Written through the API: kept, and still not sent over http.
        try await session.setCookie(Session.Cookie(name: "api", value: "1", domain: "app.example.com", isSecure: true))
        try await session.expectCookie(makeURL("http://app.example.com/cookies"), "plain=1")
        let secure = await session.cookies().filter(\.isSecure).map(\.name)
        XCTAssertEqual(secure, ["api"])
    }

    func testHttpOnlyIsKept() async throws {
        let session = Session.proxied(through: proxy)
        proxy.routeSettingCookies("/set", ["h=1; HttpOnly"])
        try await session.get(makeURL("http://app.example.com/set"))
        try await session.expectCookie(makeURL("http://app.example.com/cookies"), "h=1")
        let stored = await session.cookies()
        XCTAssertEqual(stored.first?.isHTTPOnly, true)
    }

    private struct CookieHeader: Codable {
        var cookie: String?
    }
}
