import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's cookie jar over real sockets: what is stored, and where it is sent.
final class CookieJarTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.shutdown()
    }

    func testLoginCookieIsSentOnTheNextRequest() async throws {
        let session = Session()
        try await session.expectCookie(server.url("/cookies"), nil, "an empty jar sends nothing")
        try await session.get(server.url("/set-cookie?sid=abc123"))
        try await session.expectCookie(server.url("/cookies"), "sid=abc123")
        let stored = await session.cookies()
        XCTAssertEqual(stored.map(\.name), ["sid"])
        XCTAssertEqual(stored.first?.domain, "127.0.0.1")
        XCTAssertEqual(stored.first?.includesSubdomains, false)
        await session.shutdown()
    }

    func testCookieSetOnARedirectHopIsSentToTheNextHop() async throws {
        server.routeSettingCookies("/login", ["hop=1; Path=/"], location: "/cookies")
        let echo = try await Session().request(.url(server.url("/login"))).validate().decodable(CookieEchoBody.self)
        XCTAssertEqual(echo.cookie, "hop=1")
        XCTAssertEqual(server.recordedRequests(path: "/cookies").count, 1)
    }

    func testCookieIsNotSentToAnotherHost() async throws {
        let session = Session()
        try await session.get(server.url("/set-cookie?sid=1"))
        // `localhost` is the same server under another host name: another origin for cookies.
        try await session.expectCookie(server.localhostURL.appendingPathComponent("cookies"), nil)
        // Cookies are not isolated by port (RFC 6265 §8.5): another port on the same host gets it.
        let other = try TestHTTPServer()
        defer { other.shutdown() }
        try await session.expectCookie(other.url("/cookies"), "sid=1")
    }

    func testCrossOriginRedirectDropsTheCallersCookieHeaderButNotTheJarsCookies() async throws {
        let session = Session()
        let other = try TestHTTPServer()
        defer { other.shutdown() }
        // The jar holds a cookie for `localhost`, set by the other server.
        try await session.get(
            other.localhostURL.appendingPathComponent("set-cookie").appending(queryItems: [
                URLQueryItem(name: "jar", value: "1")
            ]))
        let target = other.localhostURL.appendingPathComponent("cookies").absoluteString
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var request = URLRequest(url: server.url("/redirect?to=\(encoded)&status=302"))
        request.setValue("mine=1", forHTTPHeaderField: "Cookie")
        let echo = try await session.request(.urlRequest(request)).validate().decodable(CookieEchoBody.self)
        XCTAssertEqual(echo.cookie, "jar=1", "the caller's Cookie header stays with its origin; the jar's is added")
        XCTAssertEqual(server.recordedRequests(path: "/redirect").first?.header("Cookie"), "mine=1")
    }

    func testCallersCookieHeaderIsSentInTheSameLineAsTheJars() async throws {
        let session = Session()
        try await session.get(server.url("/set-cookie?jar=1"))
        var request = URLRequest(url: server.url("/cookies"))
        request.setValue("mine=2", forHTTPHeaderField: "Cookie")
        let echo = try await session.request(.urlRequest(request)).validate().decodable(CookieEchoBody.self)
        XCTAssertEqual(echo.cookies, ["jar": "1", "mine": "2"])
        XCTAssertEqual(server.recordedRequests(path: "/cookies").last?.headers.values("Cookie").count, 1)
        // The next request on the (recycled) handle does not carry the caller's cookie.
        try await session.expectCookie(server.url("/cookies"), "jar=1")
    }

    func testJarOffStoresAndSendsNothing() async throws {
        var configuration = Session.Configuration()
        configuration.cookies = .off
        let session = Session(configuration: configuration)
        try await session.get(server.url("/set-cookie?sid=1"))
        try await session.expectCookie(server.url("/cookies"), nil)
        let stored = await session.cookies()
        XCTAssertEqual(stored, [])
        try await session.setCookie(Session.Cookie(name: "a", value: "1", domain: "127.0.0.1"))
        try await session.expectCookie(server.url("/cookies"), nil, "writes are ignored too")
        var request = URLRequest(url: server.url("/cookies"))
        request.setValue("mine=1", forHTTPHeaderField: "Cookie")
        let echo = try await session.request(.urlRequest(request)).validate().decodable(CookieEchoBody.self)
        XCTAssertEqual(echo.cookie, "mine=1", "a Cookie header the caller sets is still sent")
    }

    func testEachSessionHasItsOwnJar() async throws {
        let first = Session()
        try await first.get(server.url("/set-cookie?sid=1"))
        try await Session().expectCookie(server.url("/cookies"), nil)
    }

    func testExpiredAndMaxAgeZeroCookiesAreRemoved() async throws {
        let session = Session()
        server.routeSettingCookies("/set", ["keep=1", "gone=1", "old=1; Expires=Wed, 01 Jan 2020 00:00:00 GMT"])
        try await session.get(server.url("/set"))
        let names = try await session.cookieNamesSent(to: server.url("/cookies"))
        XCTAssertEqual(Set(names), ["keep", "gone"], "the expired cookie is not stored")
        server.routeSettingCookies("/unset", ["gone=; Max-Age=0"])
        try await session.get(server.url("/unset"))
        try await session.expectCookie(server.url("/cookies"), "keep=1")
        let future = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        server.routeSettingCookies("/later", ["later=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT"])
        try await session.get(server.url("/later"))
        let later = await session.cookies().first { $0.name == "later" }
        XCTAssertEqual(later?.expires, future)
    }
}
