@testable import Courier
import Foundation
import XCTest

/// The origin whose HTTP/2 connection a transfer may share: only https URLs, in any case, and
/// only when the session allows HTTP/2.
final class MultiplexOriginTests: XCTestCase {
    func testOnlyHTTPSURLsHaveAMultiplexOrigin() {
        let options = TransferOptions(configuration: Session.Configuration())
        let table: [(String, String?)] = [
            ("https://api.example.com/v1", "https://api.example.com:443"),
            ("HTTPS://API.Example.com:8443/x", "https://api.example.com:8443"),
            ("http://api.example.com/v1", nil),
            ("http://https.example.com/", nil)
        ]
        for (text, expected) in table {
            let request = HTTPRequest(testing: URL(string: text)!)
            XCTAssertEqual(
                CurlTransfer.multiplexOrigin(of: request.url, text: request.url.absoluteString, options: options),
                expected, text)
        }
    }

    func testNoMultiplexOriginWithoutHTTP2() {
        var configuration = Session.Configuration()
        configuration.maxHTTPVersion = .http1_1
        let request = HTTPRequest(testing: URL(string: "https://api.example.com/")!)
        XCTAssertNil(
            CurlTransfer.multiplexOrigin(
                of: request.url, text: request.url.absoluteString,
                options: TransferOptions(configuration: configuration)))
    }

    func testTheSchemeTestReadsSixBytesInAnyCase() {
        let table: [(String, Bool)] = [
            ("https://x", true), ("hTTpS:", true), ("https", false), ("http://x", false), ("", false),
            ("httpx://x", false)
        ]
        for (text, isHTTPS) in table {
            XCTAssertEqual(CurlTransfer.isHTTPS(text), isHTTPS, text)
        }
    }
}
