import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the test server's `/cookies` route (and httpbin's) answers.
struct CookieEchoBody: Decodable {
    var cookie: String?
    var cookies: [String: String]
}

extension TestHTTPServer {
    /// A route answering with `setCookies` as `Set-Cookie` lines, and a redirect to `location`
    /// when given.
    func routeSettingCookies(_ path: String, _ setCookies: [String], location: String? = nil) {
        route(path) { _ in
            var headers: [(String, String)] = setCookies.map { ("Set-Cookie", $0) }
            if let location { headers.append(("Location", location)) }
            return TestHTTPResponse(status: location == nil ? 200 : 302, headers: headers, body: Data("ok".utf8))
        }
    }
}

extension Session {
    /// The `Cookie` header `url` (a `/cookies` route) received; nil when none was sent.
    func cookieHeaderSent(to url: URL) async throws -> String? {
        try await request(.url(url)).validate().decodable(CookieEchoBody.self).cookie
    }

    /// Checks the `Cookie` header `url` (a `/cookies` route) receives.
    func expectCookie(
        _ url: URL, _ expected: String?, _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let sent = try await cookieHeaderSent(to: url)
        XCTAssertEqual(sent, expected, message, file: file, line: line)
    }

    /// The cookie names `url` (a `/cookies` route) receives, in the order sent.
    func cookieNamesSent(to url: URL) async throws -> [String] {
        let header = try await cookieHeaderSent(to: url) ?? ""
        return header.split(separator: ";").map {
            String($0.split(separator: "=")[0]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Sends a GET to `url` and checks that it succeeded.
    func get(_ url: URL) async throws {
        _ = try await request(.url(url)).validate().data()
    }

    /// A session whose requests all go through `proxy`, so that any host name reaches the test
    /// server (names matter to cookies: domains, subdomains and public suffixes).
    static func proxied(through proxy: TestHTTPServer, cookies: CookieStorage = .inMemory) -> Session {
        var configuration = Configuration()
        configuration.proxy = .url(proxy.baseURL.absoluteString)
        configuration.cookies = cookies
        return Session(configuration: configuration)
    }
}

func makeURL(_ text: String) throws -> URL {
    try XCTUnwrap(URL(string: text))
}
