import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import Courier

/// ``HTTPHeaders``, ``HTTPHeader`` and ``HTTPMethod``.
final class HTTPHeadersTests: XCTestCase {
    func testDictionaryLiteralKeepsOrderAndLooksUpCaseInsensitively() {
        let headers: HTTPHeaders = ["X-B": "2", "X-A": "1", "Content-Type": "text/plain"]
        XCTAssertEqual(headers.map(\.name), ["X-B", "X-A", "Content-Type"])
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers.value(for: "CONTENT-TYPE"), "text/plain")
        XCTAssertNil(headers["missing"])
        XCTAssertEqual(headers.count, 3)
    }

    func testUpdateReplacesInPlaceWhateverTheCase() {
        var headers: HTTPHeaders = ["Accept": "text/html", "X-Trace": "1"]
        headers.update(name: "accept", value: "application/json")
        headers.add(HTTPHeader(name: "User-Agent", value: "Courier/1.0"))
        XCTAssertEqual(
            headers.map(\.description), ["accept: application/json", "X-Trace: 1", "User-Agent: Courier/1.0"])
        headers["x-trace"] = nil
        headers["X-New"] = "n"
        XCTAssertEqual(headers.map(\.name), ["accept", "User-Agent", "X-New"])
        headers["USER-AGENT"] = nil
        XCTAssertEqual(headers.description, "accept: application/json\nX-New: n")
    }

    func testDuplicateLiteralKeysKeepTheLastValue() {
        let headers: HTTPHeaders = ["A": "1", "a": "2"]
        XCTAssertEqual(Array(headers), [HTTPHeader(name: "a", value: "2")])
    }

    func testArrayLiteralMergingAndEquality() {
        let base: HTTPHeaders = [
            HTTPHeader(name: "Accept", value: "application/json"), HTTPHeader(name: "User-Agent", value: "x")
        ]
        let merged = base.merging([HTTPHeader(name: "Accept", value: "text/csv"), .authorization("Token t")])
        XCTAssertEqual(merged.dictionary, ["Accept": "text/csv", "User-Agent": "x", "Authorization": "Token t"])
        XCTAssertEqual(HTTPHeaders(["b": "2", "a": "1"]).map(\.name), ["a", "b"])
        XCTAssertEqual(HTTPHeaders(["X": "1"]), HTTPHeaders(["x": "1"]))
        // The coalescing key hashes headers the way they compare: names without case.
        let url = URL(string: "https://a.example/x")!
        let keys = [HTTPHeaders(["X": "1"]), HTTPHeaders(["x": "1"])].compactMap {
            CoalescingKey(method: .get, url: url, headers: $0, hasBody: false)
        }
        XCTAssertEqual(Set(keys).count, 1)
        XCTAssertNotEqual(HTTPHeaders(["X": "1"]), HTTPHeaders(["X": "2"]))
    }

    /// Printing a header never shows a secret: `print(request.headers)` in a log is safe.
    func testDescriptionRedactsSecretHeaders() {
        XCTAssertEqual(HTTPHeader.authorization(bearerToken: "abc").description, "Authorization: <redacted>")
        let headers: HTTPHeaders = [
            HTTPHeader(name: "cookie", value: "session=s1"), HTTPHeader(name: "X-Api-Key", value: "k-1"),
            HTTPHeader(name: "Accept", value: "text/csv")
        ]
        XCTAssertEqual(headers.description, "cookie: <redacted>\nX-Api-Key: <redacted>\nAccept: text/csv")
        XCTAssertEqual("\(headers[0])", "cookie: <redacted>")
    }

    func testConveniences() {
        XCTAssertEqual(HTTPHeader.authorization(bearerToken: "abc").value, "Bearer abc")
        XCTAssertEqual(
            HTTPHeader.authorization(username: "Aladdin", password: "open sesame").value,
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        XCTAssertEqual(HTTPHeader.contentType("application/json").description, "Content-Type: application/json")
        XCTAssertEqual(HTTPHeader(name: "Accept-Language", value: "nb-NO").description, "Accept-Language: nb-NO")
        XCTAssertEqual(HTTPHeaders.routerDefault.dictionary, ["Accept": "application/json"])
    }

    /// A router's request skips checking its headers when they are the shared defaults themselves,
    /// which holds only because those defaults are valid, and only for unchanged copies.
    func testTheSharedRouterDefaultsAreValidAndRecognisedOnlyUnchanged() throws {
        XCTAssertNoThrow(try HTTPHeaders.routerDefault.validated())
        let copy = HTTPHeaders.routerDefault
        XCTAssertTrue(copy.sharesStorage(with: .routerDefault))
        XCTAssertTrue(copy.merging(HTTPHeaders()).sharesStorage(with: .routerDefault))
        var changed = HTTPHeaders.routerDefault
        changed.update(HTTPHeader(name: "Accept", value: "text/csv\r\nEvil: 1"))
        XCTAssertFalse(changed.sharesStorage(with: .routerDefault))
        let rebuilt: HTTPHeaders = ["Accept": "application/json"]
        XCTAssertFalse(rebuilt.sharesStorage(with: .routerDefault), "equal contents, other storage")
        XCTAssertTrue(rebuilt.isIdentical(to: .routerDefault))
        XCTAssertFalse(HTTPHeaders().sharesStorage(with: HTTPHeaders()))
        // The flag a request reads (`isRouterDefault`): the defaults and unchanged copies only.
        XCTAssertTrue(HTTPHeaders.routerDefault.isRouterDefault)
        XCTAssertTrue(copy.isRouterDefault)
        XCTAssertTrue(copy.merging(HTTPHeaders()).isRouterDefault)
        XCTAssertFalse(copy.merging(["X-A": "1"]).isRouterDefault)
        XCTAssertFalse(changed.isRouterDefault)
        var removed = HTTPHeaders.routerDefault
        removed.remove(name: "Accept")
        XCTAssertFalse(removed.isRouterDefault)
        var reassigned = HTTPHeaders.routerDefault
        reassigned["Accept"] = "application/json"
        XCTAssertFalse(reassigned.isRouterDefault, "a change, even to the same value, clears it")
        XCTAssertFalse(rebuilt.isRouterDefault, "equal contents are not the defaults themselves")
    }

    func testValidationRejectsInjection() {
        let cases: [(HTTPHeader, String)] = [
            (HTTPHeader(name: "X-A", value: "ok\r\nEvil: 1"), "the value contains CR"),
            (HTTPHeader(name: "X-A", value: "ok\nEvil: 1"), "the value contains LF"),
            (HTTPHeader(name: "X-A", value: "a\u{0}b"), "the value contains NUL"),
            (
                HTTPHeader(name: "X-A\r\nEvil", value: "v"),
                "the name contains CR, which is not allowed in a header name"
            ),
            (
                HTTPHeader(name: "Bad Name", value: "v"),
                "the name contains a space, which is not allowed in a header name"
            ),
            (HTTPHeader(name: "Bad:Name", value: "v"), "the name contains ':', which is not allowed in a header name"),
            (HTTPHeader(name: "", value: "v"), "the name is empty")
        ]
        for (header, reason) in cases {
            XCTAssertThrowsError(try header.validate()) { error in
                XCTAssertSameError(error as? CourierError, .invalidHeader(name: header.name, reason: reason))
            }
            XCTAssertThrowsError(try HTTPHeaders([header]).validate())
        }
        XCTAssertNoThrow(try HTTPHeader(name: "X-Ok_1!#$%&'*+.^`|~", value: "tab\tand ünïcode").validate())
    }

    func testSetHeadersOnURLRequest() throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://a.test")))
        try request.setHeaders(["Accept": "a", "X-Y": "z"])
        XCTAssertEqual(request.value(forHTTPHeaderField: "accept"), "a")
        XCTAssertEqual(request.courierHeaders["x-y"], "z")
        XCTAssertThrowsError(try request.setHeaders(["X-Bad": "a\rb"]))
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Bad"))
    }

    func testHTTPMethods() {
        let all: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, .connect, .query]
        XCTAssertEqual(
            all.map(\.rawValue),
            ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "QUERY"])
        XCTAssertEqual(Set(all).count, 10)
        let purge: HTTPMethod = "PURGE"
        XCTAssertEqual(purge, HTTPMethod(rawValue: "PURGE"))
        XCTAssertEqual(purge.description, "PURGE")
        XCTAssertTrue(purge.isValidToken)
        XCTAssertFalse(HTTPMethod(rawValue: "GE T").isValidToken)
        XCTAssertFalse(HTTPMethod(rawValue: "").isValidToken)
        XCTAssertFalse(HTTPMethod(rawValue: "GET\r\n").isValidToken)
        XCTAssertEqual(all.filter(\.encodesParametersInURL), [.get, .head, .delete])
    }
}
