import Courier
import CourierTestServer
import Foundation
import XCTest

/// The third-party RFC 6265 parser cases (../shared/data/http-state beside the clone, when
/// present): each case's `Set-Cookie` lines go through the jar for its URL, and the `Cookie`
/// header then sent to its `location` is compared with the expected one.
final class CookieParserCaseTests: XCTestCase {
    private struct Case: Decodable {
        var name: String
        var disabled: Bool
        var url: String
        var location: String
        var set_cookie: [String]
        var expected_cookie: String?
    }

    /// How many of the enabled cases libcurl 7.88.1 passes (measured; the failures are listed,
    /// with their reasons, in docs/cookies-and-cache.md). A floor: more is fine, fewer is a regression.
    static let passingFloor = 201
    /// How many pass when the order of the cookies in the header is not compared.
    static let passingInAnyOrderFloor = 210

    func testParserCases() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
        let data = root.appendingPathComponent("../shared/data/http-state/cases.json").standardized
        guard FileManager.default.fileExists(atPath: data.path) else {
            throw XCTSkip("../shared/data/http-state is not beside the clone")
        }
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: data)).filter { !$0.disabled }
        let proxy = try TestHTTPServer()
        defer { proxy.shutdown() }
        let byName = Dictionary(uniqueKeysWithValues: cases.map { ($0.name, $0) })
        proxy.route("/cookie-parser") { request in
            let name = request.rawTarget.split(separator: "?").last.map(String.init) ?? ""
            let lines = byName[name]?.set_cookie ?? []
            return TestHTTPResponse(status: 200, headers: lines.map { ("Set-Cookie", $0) })
        }
        proxy.route("/cookie-parser-result") { _ in .text("ok") }
        let session = Session.proxied(through: proxy)
        var failures: [String] = []
        var failuresInAnyOrder = 0
        for item in cases {
            await session.removeAllCookies()
            proxy.clearRecordedRequests()
            let url = try makeURL(item.url)
            let location = try XCTUnwrap(URL(string: item.location, relativeTo: url)?.absoluteURL)
            _ = try await session.request(.url(url)).validate().data()
            // Some locations name other paths: whatever the answer, the request's Cookie header counts.
            _ = await session.request(.url(location)).response()
            XCTAssertEqual(proxy.recordedRequests.count, 2, item.name)
            // The test server reads header bytes as Latin-1: read them back as the UTF-8 they are.
            let sent = proxy.recordedRequests.last?.header("Cookie").map { latin1 in
                latin1.data(using: .isoLatin1).flatMap { String(data: $0, encoding: .utf8) } ?? latin1
            }
            if Self.pairs(sent) != Self.pairs(item.expected_cookie) { failuresInAnyOrder += 1 }
            if sent != item.expected_cookie {
                failures.append(
                    "\(item.name): sent \(sent ?? "nothing"), expected \(item.expected_cookie ?? "nothing")")
            }
        }
        let passed = cases.count - failures.count
        let passedInAnyOrder = cases.count - failuresInAnyOrder
        print("RFC 6265 parser cases: \(passed) of \(cases.count) pass, \(passedInAnyOrder) in any order")
        for failure in failures { print("  failing \(failure)") }
        XCTAssertGreaterThanOrEqual(passed, Self.passingFloor, failures.joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(passedInAnyOrder, Self.passingInAnyOrderFloor)
        await session.shutdown()
    }

    /// The `name=value` pairs of a `Cookie` header, in any order.
    private static func pairs(_ header: String?) -> [String] {
        (header ?? "").components(separatedBy: "; ").filter { !$0.isEmpty }.sorted()
    }
}
