import CourierTestServer
import Foundation
import XCTest

/// The stored-block gzip/zlib encoders, checksums, and the `/gzip` and `/deflate` routes.
final class EncodingTests: XCTestCase {
    func testChecksumKnownAnswers() {
        XCTAssertEqual(StoredCompression.crc32(Data("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(StoredCompression.crc32(Data()), 0)
        XCTAssertEqual(StoredCompression.adler32(Data("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(StoredCompression.adler32(Data()), 1)
        XCTAssertEqual(
            TestHTTPServer.checksum(Data("abc".utf8)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            TestHTTPServer.checksum(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            TestHTTPServer.checksum(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testGzipRouteDecodesWithSystemGzip() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/gzip")
        let small = try client.readResponse()
        XCTAssertEqual(small.header("Content-Encoding"), "gzip")
        XCTAssertEqual(Array(small.body.prefix(3)), [0x1F, 0x8B, 0x08])
        XCTAssertEqual(decodeStoredGzip(small.body), Data(TestHTTPServer.gzipPlainText.utf8))

        client.get("/gzip?size=200000")
        let large = try client.readResponse()
        XCTAssertEqual(decodeStoredGzip(large.body), TestHTTPServer.compressiblePayload(size: 200_000))

        for (body, expected) in [
            (small.body, Data(TestHTTPServer.gzipPlainText.utf8)),
            (large.body, TestHTTPServer.compressiblePayload(size: 200_000))
        ] {
            let path = try temporaryFile(body, suffix: ".gz")
            defer { try? FileManager.default.removeItem(atPath: path) }
            guard let decoded = runTool("/usr/bin/gzip", ["-dc", path]) else {
                throw XCTSkip("/usr/bin/gzip unavailable")
            }
            XCTAssertEqual(decoded, expected)
        }
    }

    func testDeflateRouteIsZlibWrapped() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/deflate?size=150000")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Content-Encoding"), "deflate")
        let bytes = [UInt8](response.body)
        XCTAssertEqual(bytes.first, 0x78)
        XCTAssertEqual((Int(bytes[0]) * 256 + Int(bytes[1])) % 31, 0)
        let expected = TestHTTPServer.compressiblePayload(size: 150_000)
        let payload = decodeStoredBlocks(Data(bytes.dropFirst(2).dropLast(4)))
        XCTAssertEqual(payload, expected)
        let adler = bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        XCTAssertEqual(adler, StoredCompression.adler32(expected))
    }

    func testCurlDecodesGzipAndDeflate() throws {
        let server = try makeServer(self)
        for path in ["/gzip", "/deflate"] {
            guard let output = runTool("/usr/bin/curl", ["-s", "--compressed", server.url(path).absoluteString]) else {
                throw XCTSkip("/usr/bin/curl unavailable")
            }
            XCTAssertEqual(String(decoding: output, as: UTF8.self), TestHTTPServer.gzipPlainText)
        }
    }

    func testCurlReusesOneConnectionForSequentialRequests() throws {
        let server = try makeServer(self)
        let urls = [server.url("/hello").absoluteString, server.url("/echo").absoluteString]
        guard runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-o", "/dev/null"] + urls) != nil else {
            throw XCTSkip("/usr/bin/curl unavailable")
        }
        XCTAssertEqual(server.requestsServed, 2)
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testEmptyInputStillProducesAValidStream() {
        let gzip = StoredCompression.gzip(Data())
        XCTAssertEqual(gzip.count, 10 + 5 + 8)
        XCTAssertEqual(decodeStoredGzip(gzip), Data())
        XCTAssertEqual(StoredCompression.zlib(Data()).count, 2 + 5 + 4)
    }

    /// Decodes a gzip member made of stored blocks, checking CRC-32 and ISIZE; `nil` if invalid.
    private func decodeStoredGzip(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8, bytes[3] == 0 else { return nil }
        guard let payload = decodeStoredBlocks(Data(bytes[10..<(bytes.count - 8)])) else { return nil }
        let trailer = Array(bytes.suffix(8))
        let crc = trailer[0..<4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let size = trailer[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard crc == StoredCompression.crc32(payload), size == UInt32(payload.count) else { return nil }
        return payload
    }

    /// Decodes a raw DEFLATE stream that contains only stored blocks; `nil` if invalid.
    private func decodeStoredBlocks(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        var output = Data()
        var index = 0
        while index + 5 <= bytes.count {
            let header = bytes[index]
            guard header & 0x06 == 0 else { return nil }
            let length = Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8
            let complement = Int(bytes[index + 3]) | Int(bytes[index + 4]) << 8
            guard length ^ complement == 0xFFFF, index + 5 + length <= bytes.count else { return nil }
            output.append(contentsOf: bytes[(index + 5)..<(index + 5 + length)])
            index += 5 + length
            if header & 1 == 1 { return index == bytes.count ? output : nil }
        }
        return nil
    }
}
