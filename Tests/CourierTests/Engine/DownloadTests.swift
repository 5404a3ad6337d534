@testable import Courier
import CourierTestServer
import Foundation
import XCTest

/// `Session.download(_:to:)`: the body goes straight to a file, and failures leave none behind.
final class DownloadTests: XCTestCase {
    var server: TestHTTPServer!
    var directory: URL!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func testBodyIsWrittenToTheFileIntact() async throws {
        let size = 5 << 20
        let file = directory.appendingPathComponent("bytes.bin")
        let response = await Session().download(.url(server.url("/bytes?size=\(size)&seed=3")), to: file).validate()
            .response()
        XCTAssertNil(response.error)
        XCTAssertEqual(response.fileURL, file)
        XCTAssertEqual(response.data?.count ?? 0, 0, "nothing is buffered in memory")
        let written = try Data(contentsOf: file)
        XCTAssertEqual(written.count, size)
        XCTAssertEqual(
            TestHTTPServer.checksum(written),
            TestHTTPServer.checksum(TestHTTPServer.deterministicBytes(count: size, seed: 3)))
    }

    func testOnlyTheFinalBodyOfARedirectChainIsKept() async throws {
        let file = directory.appendingPathComponent("echo.json")
        let response = await Session().download(.url(server.url("/redirect-chain?n=3")), to: file).response()
        XCTAssertEqual(response.statusCode, 200)
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: Data(contentsOf: file))
        XCTAssertEqual(echo.path, "/redirect-chain")
        XCTAssertEqual(echo.query["n"], "0")
    }

    func testCompressedBodyIsDecodedIntoTheFile() async throws {
        let file = directory.appendingPathComponent("gzip.txt")
        _ = await Session().download(.url(server.url("/gzip")), to: file).response()
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), TestHTTPServer.gzipPlainText)
    }

    func testFailuresRemoveThePartialFile() async throws {
        let truncated = directory.appendingPathComponent("truncated.bin")
        let cut = await Session().download(.url(server.url("/truncated?send=100&declared=1000")), to: truncated)
            .response()
        guard cut.error == .truncatedResponse else { return XCTFail("got \(String(describing: cut.error))") }
        XCTAssertNil(cut.fileURL)
        XCTAssertFalse(exists(truncated))

        var configuration = Session.Configuration()
        configuration.security.maxDownloadSize = 10_000
        let large = directory.appendingPathComponent("large.bin")
        let tooLarge = await Session(configuration: configuration).download(
            .url(server.url("/chunked?chunks=5&size=5000")), to: large
        ).response()
        XCTAssertSameError(tooLarge.error, .responseTooLarge(limit: 10_000))
        XCTAssertFalse(exists(large))

        let rejected = directory.appendingPathComponent("rejected.json")
        let notFound = await Session().download(.url(server.url("/status/404")), to: rejected).validate().response()
        XCTAssertSameError(notFound.error, .unacceptableStatusCode(404))
        XCTAssertFalse(exists(rejected))

        let cancelled = directory.appendingPathComponent("cancelled.bin")
        let request = Session().download(.url(server.url("/headers-then-stall")), to: cancelled)
        let task = Task { await request.response() }
        let arrived = await server.waitForRequests(path: "/headers-then-stall", timeout: 60)
        XCTAssertTrue(arrived, "the download is in flight when cancelled")
        request.cancel()
        let cancelledResponse = await task.value
        XCTAssertEqual(cancelledResponse.error, .cancelled)
        XCTAssertFalse(exists(cancelled))
    }

    func testUnwritableDestinationIsATypedError() async {
        let file = URL(fileURLWithPath: "/nonexistent-directory-\(UUID().uuidString)/file.bin")
        let session = Session()
        let response = await session.download(.url(server.url("/hello")), to: file).response()
        guard let failure_ = response.error, failure_ == .invalidRequest, let reason = failure_.reason else {
            return XCTFail("expected invalidRequest, got \(String(describing: response.error))")
        }
        XCTAssertTrue(reason.contains("cannot open download destination"), reason)
        XCTAssertEqual(session.liveHandleCount, 0)
        let remote = await session.download(.url(server.url("/hello")), to: server.url("/x")).response()
        guard remote.error == .invalidRequest else { return XCTFail("a non-file destination is refused") }
    }
}
