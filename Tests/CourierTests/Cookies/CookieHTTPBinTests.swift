import Courier
import Foundation
import XCTest

/// The jar against the third-party httpbin: `/cookies/set` answers with a `Set-Cookie` on a 302
/// to `/cookies`, which echoes the cookies received.
final class CookieHTTPBinTests: XCTestCase {
    private struct Cookies: Decodable { var cookies: [String: String] }

    func testCookiesSetOnARedirectAreEchoedAndDeleted() async throws {
        let session = Session()
        let set = try await session.request(.url(HTTPBin.url("/cookies/set?sid=abc&theme=dark"))).validate()
            .decodable(Cookies.self)
        XCTAssertEqual(set.cookies, ["sid": "abc", "theme": "dark"], "the redirect's cookies reach its target")
        let later = try await session.request(.url(HTTPBin.url("/cookies"))).validate().decodable(Cookies.self)
        XCTAssertEqual(later.cookies, ["sid": "abc", "theme": "dark"])
        let deleted = try await session.request(.url(HTTPBin.url("/cookies/delete?sid"))).validate().decodable(
            Cookies.self)
        XCTAssertEqual(deleted.cookies, ["theme": "dark"], "an expired Set-Cookie removes the cookie")
        let stored = await session.cookies()
        XCTAssertEqual(stored.map(\.name), ["theme"])
        await session.shutdown()
    }

    func testJarOffSendsNoCookies() async throws {
        var configuration = Session.Configuration()
        configuration.cookies = .off
        let session = Session(configuration: configuration)
        let set = try await session.request(.url(HTTPBin.url("/cookies/set?sid=abc"))).validate().decodable(
            Cookies.self)
        XCTAssertEqual(set.cookies, [:])
        await session.shutdown()
    }
}
