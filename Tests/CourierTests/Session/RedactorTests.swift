@testable import Courier
import Foundation
import XCTest

/// What `Redactor.body` prints for each kind of body, as a table: the secret values are gone
/// whatever their shape, and a body without secrets is printed as it was written.
final class RedactorTests: XCTestCase {
    func testBodiesAreRedactedByTheirKind() {
        let redactor = Redactor(security: SecurityPolicy(), authorization: .query(name: "appid"))
        let rows: [(body: String, type: String?, printed: String)] = [
            (#"{"b": 1, "a": "x/y"}"#, "application/json", #"{"b": 1, "a": "x/y"}"#),
            (
                #"{"token":["t-S1","t-S2"],"user":{"password":{"x":"p-S3"},"name":"Ada"}}"#, "application/json",
                #"{"token":"<redacted>","user":{"name":"Ada","password":"<redacted>"}}"#
            ),
            (#"[{"appid":"k-S4"},{"n":2}]"#, nil, #"[{"appid":"<redacted>"},{"n":2}]"#),
            (
                "user=ada&pw=f-S5&appid=k-S6", "application/x-www-form-urlencoded; charset=utf-8",
                "user=ada&pw=<redacted>&appid=<redacted>"
            ),
            (
                "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nm-S7\r\n--b--\r\n",
                "multipart/form-data; boundary=b", "<a multipart body of 69 bytes>"
            ),
            (
                #"not json, "token": "x-S8" and secret=y-S9"#, "text/plain",
                #"not json, "token": "<redacted>" and secret=<redacted>"#
            )
        ]
        for row in rows {
            XCTAssertEqual(redactor.body(row.body, contentType: row.type), row.printed, row.body)
        }
    }
}
