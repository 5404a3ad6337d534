import Courier
import CourierTestServer
import Foundation
import XCTest

/// Progress observed at any time (before, during or after the transfer) ends with the real byte
/// count and total: the engine's own count, not the body held in memory (which is empty for a
/// download to a file).
final class LateProgressTests: TransferTestCase {
    private func expectFinal(
        _ value: TransferProgress?, _ size: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            value, TransferProgress(completedBytes: Int64(size), totalBytes: Int64(size), isFinished: true),
            file: file, line: line)
    }

    /// docs/transfers.md's pattern: subscribe in a `Task`, then await the response.
    func testTheGuidesPatternForADownloadToAFile() async throws {
        let size = 3 << 20
        let session = Session()
        let destination = scratch.path("guide.bin")
        let backup = session.download(server.url("/bytes?size=\(size)"), to: destination)
        let reader = Task {
            var last: TransferProgress?
            for await progress in backup.downloadProgress() { last = progress }
            return last
        }
        let backedUp = await backup.validate().response()
        XCTAssertNil(backedUp.error)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int, size)
        expectFinal(await reader.value, size)
    }

    /// docs/transfers.md's upload example: upload progress as a closure, download progress in a
    /// `Task`, then the response.
    func testTheGuidesPatternForAnUpload() async throws {
        let size = 2 << 20
        let (archive, _) = try scratch.file(named: "archive.bin", size: size, seed: 9)
        let sent = Collector<TransferProgress>()
        let backup = Session().upload(.file(archive), to: server.url("/upload/digest"))
            .uploadProgress { progress in sent.append(progress) }
        let reader = Task {
            var last: TransferProgress?
            for await progress in backup.downloadProgress() { last = progress }
            return last
        }
        let backedUp = await backup.validate().response()
        let body = try XCTUnwrap(backedUp.data)
        expectFinal(await reader.value, body.count)
        await waitUntil { sent.values.last?.isFinished ?? false }
        expectFinal(sent.values.last, size)
    }

    /// An observer that arrives while the body is coming (the engine was not watching) still
    /// ends with the whole count.
    func testObservingDuringADownloadToAFile() async throws {
        let size = 64 << 10
        let session = Session()
        let download = session.download(
            server.url("/trickle?size=\(size)&chunk=4096&interval=10"), to: scratch.path("trickle.bin"))
        let response = Task { await download.response() }
        let started = await server.waitForRequests(count: 1, path: "/trickle")
        XCTAssertTrue(started)
        var last: TransferProgress?
        for await progress in download.downloadProgress() { last = progress }
        let finished = await response.value
        XCTAssertNil(finished.error)
        expectFinal(last, size)
    }

    /// After completion, a download to a file reports the bytes written, not the empty body.
    func testObservingAfterADownloadToAFileCompleted() async throws {
        let size = 100_000
        let download = Session().download(server.url("/bytes?size=\(size)"), to: scratch.path("after.bin"))
        let finished = await download.response()
        XCTAssertNil(finished.error)
        var values: [TransferProgress] = []
        for await progress in download.downloadProgress() { values.append(progress) }
        XCTAssertEqual(values.count, 1)
        expectFinal(values.last, size)
    }

    /// A stream request: progress observed while its body is read, or after it ended, ends with
    /// the bytes received and the declared total.
    func testObservingAStreamDuringAndAfterItsBody() async throws {
        let size = 200_000
        let stream = Session().streamRequest(server.url("/bytes?size=\(size)"))
        let during = Task {
            var last: TransferProgress?
            for await progress in stream.downloadProgress() { last = progress }
            return last
        }
        var received = 0
        for try await chunk in stream.bytes { received += chunk.count }
        XCTAssertEqual(received, size)
        expectFinal(await during.value, size)
        var after: [TransferProgress] = []
        for await progress in stream.downloadProgress() { after.append(progress) }
        XCTAssertEqual(after.count, 1)
        expectFinal(after.last, size)
    }
}
