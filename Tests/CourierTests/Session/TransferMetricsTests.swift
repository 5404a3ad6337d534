import XCTest

@testable import Courier

/// `TransferMetrics` keeps the server's address as bytes (`IPAddress`): what reads back.
final class TransferMetricsTests: XCTestCase {
    func testAddressesReadBackInTheirStandardForm() {
        let cases: [(String?, String?)] = [
            ("127.0.0.1", "127.0.0.1"),
            ("255.255.255.255", "255.255.255.255"),
            ("::1", "::1"),
            ("2001:db8:0:0:0:0:0:1", "2001:db8::1"),
            ("::ffff:192.0.2.1", "::ffff:192.0.2.1"),
            ("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
            (nil, nil),
            ("", nil),
            ("example.com", nil),
            ("127.0.0.1 ", nil),
            ("256.0.0.1", nil)
        ]
        for (given, expected) in cases {
            XCTAssertEqual(TransferMetrics(remoteAddress: given).remoteAddress, expected, "\(given ?? "nil")")
            var metrics = TransferMetrics()
            metrics.remoteAddress = given
            XCTAssertEqual(metrics.remoteAddress, expected, "set \(given ?? "nil")")
        }
    }

    func testAddressFromLibcurlsText() {
        XCTAssertEqual(IPAddress(cString: nil), IPAddress(nil))
        XCTAssertTrue(IPAddress(cString: nil).isEmpty)
        "".withCString { XCTAssertTrue(IPAddress(cString: $0).isEmpty) }
        "10.1.2.3".withCString { XCTAssertEqual(IPAddress(cString: $0).text, "10.1.2.3") }
        "fe80::1".withCString { XCTAssertEqual(IPAddress(cString: $0).text, "fe80::1") }
    }

    func testMetricsCompareByAddress() {
        XCTAssertEqual(TransferMetrics(remoteAddress: "::1"), TransferMetrics(remoteAddress: "0::1"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "::1"), TransferMetrics(remoteAddress: "::2"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "0.0.0.0"), TransferMetrics(remoteAddress: "::"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "0.0.0.0"), TransferMetrics())
    }
}
