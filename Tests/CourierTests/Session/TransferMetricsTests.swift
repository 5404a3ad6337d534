import Foundation
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

    /// Counts and ports are stored narrow (32 and 16 bits): what fits reads back as set, the
    /// rest as documented.
    func testCountsAndPortsReadBackAsSetOrAsDocumented() {
        var metrics = TransferMetrics(redirectCount: 3, remotePort: 443, localPort: 50123)
        XCTAssertEqual(metrics.redirectCount, 3)
        XCTAssertEqual(metrics.remotePort, 443)
        XCTAssertEqual(metrics.localPort, 50123)
        XCTAssertEqual(metrics.retryCount, 0)
        metrics.retryCount = 2
        XCTAssertEqual(metrics.retryCount, 2)
        XCTAssertEqual(metrics.attempts, 3)
        metrics.redirectCount = Int(UInt32.max) + 7
        XCTAssertEqual(metrics.redirectCount, Int(UInt32.max))
        metrics.retryCount = -1
        XCTAssertEqual(metrics.retryCount, 0)
        for (port, expected) in [(1, 1), (65535, 65535), (0, nil), (65536, nil), (-80, nil)] as [(Int, Int?)] {
            metrics.remotePort = port
            metrics.localPort = port
            XCTAssertEqual(metrics.remotePort, expected, "\(port)")
            XCTAssertEqual(metrics.localPort, expected, "\(port)")
        }
        metrics.remotePort = nil
        XCTAssertNil(metrics.remotePort)
        XCTAssertNil(TransferMetrics().localPort)
    }

    func testAddressFromLibcurlsText() {
        XCTAssertEqual(IPAddress(cString: nil), IPAddress(nil))
        XCTAssertTrue(IPAddress(cString: nil).isEmpty)
        "".withCString { XCTAssertTrue(IPAddress(cString: $0).isEmpty) }
        "10.1.2.3".withCString { XCTAssertEqual(IPAddress(cString: $0).text, "10.1.2.3") }
        "fe80::1".withCString { XCTAssertEqual(IPAddress(cString: $0).text, "fe80::1") }
    }

    /// The dotted quads read without `inet_pton` give the same bytes as `inet_pton`, and what it
    /// refuses, or what is not a plain quad, is left to it.
    func testDottedQuadsReadAsInetPtonReadsThem() {
        var texts = [
            "0.0.0.0", "127.0.0.1", "255.255.255.255", "10.0.200.9", "1.2.3.4", "192.168.1.254",
            "256.0.0.1", "1.256.0.1", "1.2.3.256", "1000.1.1.1", "01.2.3.4", "1.02.3.4", "1.2.3.00",
            "1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.4 ", " 1.2.3.4", "a.b.c.d",
            "1.2.3.4x", "::1", "::ffff:1.2.3.4", "", "0", "0.0.0.0.0", "9.9.9.9"
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let parts = (0..<Int.random(in: 3...5, using: &generator)).map { _ in
                String(Int.random(in: 0...300, using: &generator))
            }
            texts.append(parts.joined(separator: "."))
        }
        for text in texts {
            text.withCString { pointer in
                var expected: UInt32 = 0
                let accepted = inet_pton(AF_INET, pointer, &expected) == 1
                let parsed = IPAddress.dottedQuad(pointer)
                if let parsed {
                    XCTAssertTrue(accepted, "\(text) read as a quad that inet_pton refuses")
                    XCTAssertEqual(parsed, expected, text)
                } else if accepted {
                    // Only text that is not a plain quad may be left to inet_pton.
                    XCTAssertTrue(
                        text.split(separator: ".", omittingEmptySubsequences: false).contains {
                            $0.count > 1 && $0.hasPrefix("0")
                        }, "\(text) is a plain quad that was not read")
                }
                if accepted { XCTAssertEqual(IPAddress(cString: pointer).text, text) }
            }
        }
    }

    func testMetricsCompareByAddress() {
        XCTAssertEqual(TransferMetrics(remoteAddress: "::1"), TransferMetrics(remoteAddress: "0::1"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "::1"), TransferMetrics(remoteAddress: "::2"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "0.0.0.0"), TransferMetrics(remoteAddress: "::"))
        XCTAssertNotEqual(TransferMetrics(remoteAddress: "0.0.0.0"), TransferMetrics())
    }
}
