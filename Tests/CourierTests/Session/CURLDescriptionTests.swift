@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class CURLDescriptionTests: XCTestCase {
    func testSecretsAreRedactedAndShellQuoted() throws {
        var request = try XCTUnwrap(
            URLRequest(url: XCTUnwrap(URL(string: "https://user:pw@api.example.com/v1/items?q=1"))))
        request.httpMethod = "POST"
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        request.setValue("session=abc", forHTTPHeaderField: "Cookie")
        request.setValue("k-123", forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"O'Brien"}"#.utf8)
        let text = CURLCommand.render(
            HTTPRequest(testing: request), security: SecurityPolicy(secretHeaders: ["x-api-key"]))
        XCTAssertFalse(text.contains("secret-token"))
        XCTAssertFalse(text.contains("session=abc"))
        XCTAssertFalse(text.contains("k-123"))
        XCTAssertFalse(text.contains(":pw@"))
        XCTAssertTrue(text.contains("-H 'Authorization: <redacted>'"))
        XCTAssertTrue(text.contains("-H 'Content-Type: application/json'"))
        XCTAssertTrue(text.contains(#"--data-binary '{"name":"O'\''Brien"}'"#))
        XCTAssertTrue(text.hasPrefix("curl"))
        XCTAssertTrue(text.contains("-X POST"))
    }

    func testSessionRendersDefaultHeaders() {
        let request = Session().request("http://127.0.0.1:1/x")
        XCTAssertTrue(request.cURLDescription().contains("User-Agent: Courier/\(CourierInfo.version)"))
        XCTAssertTrue(Session().request("not a url").cURLDescription().contains("could not be built"))
    }
}
