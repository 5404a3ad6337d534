@testable import Courier
import CourierTesting
import CourierTestServer
import Foundation
import XCTest

/// Upload and download progress: monotonic, totals when known, throttled, ending at completion.
final class ProgressTests: TransferTestCase {
    private func assertWellFormed(
        _ values: [TransferProgress], final expected: Int64, total: Int64?,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let last = values.last else { return XCTFail("no progress reported", file: file, line: line) }
        XCTAssertTrue(last.isFinished, file: file, line: line)
        XCTAssertEqual(values.filter(\.isFinished).count, 1, "exactly one final value", file: file, line: line)
        XCTAssertEqual(last.completedBytes, expected, file: file, line: line)
        XCTAssertEqual(last.totalBytes, expected, file: file, line: line)
        XCTAssertEqual(last.fractionCompleted, 1, file: file, line: line)
        for (earlier, later) in zip(values, values.dropFirst()) {
            XCTAssertLessThanOrEqual(earlier.completedBytes, later.completedBytes, "monotonic", file: file, line: line)
        }
        for value in values.dropLast() {
            XCTAssertEqual(value.totalBytes, total, file: file, line: line)
            XCTAssertLessThanOrEqual(value.completedBytes, expected, file: file, line: line)
        }
    }

    func testDownloadProgressAsClosureAndSequence() async throws {
        let size = 8 << 20
        let closure = Collector<TransferProgress>()
        let request = Session().request(.url(server.url("/bytes?size=\(size)")))
            .downloadProgress(every: .zero) { closure.append($0) }
        let sequence = request.downloadProgress(every: .zero)
        let reader = Task { () -> [TransferProgress] in
            var values: [TransferProgress] = []
            for await value in sequence { values.append(value) }
            return values
        }
        let data = try await request.validate().data()
        XCTAssertEqual(data.count, size)
        try await assertBothWellFormed(sequence: await reader.value, closure: closure, size: size)
    }

    /// The values of a sequence and of a closure observing one `size`-byte download.
    private func assertBothWellFormed(
        sequence: [TransferProgress], closure: Collector<TransferProgress>, size: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        assertWellFormed(sequence, final: Int64(size), total: Int64(size), file: file, line: line)
        // Closures run on a serial queue after the response is delivered: wait for the final one.
        await waitUntil { closure.values.last?.isFinished ?? false }
        assertWellFormed(closure.values, final: Int64(size), total: Int64(size), file: file, line: line)
        XCTAssertGreaterThan(closure.values.count, 1, "a large body reports along the way", file: file, line: line)
    }

    func testUploadProgressOfAFile() async throws {
        let size = 6 << 20
        let (file, _) = try scratch.file(named: "up.bin", size: size, seed: 2)
        let request = Session().upload(.file(file), to: .url(server.url("/upload/digest")))
        let sequence = request.uploadProgress(every: .zero)
        let downloads = request.downloadProgress()
        let reader = Task { () -> [TransferProgress] in
            var values: [TransferProgress] = []
            for await value in sequence { values.append(value) }
            return values
        }
        let summary = try await request.validate().decodable(TestHTTPUploadSummary.self)
        XCTAssertEqual(summary.bytes, size)
        assertWellFormed(await reader.value, final: Int64(size), total: Int64(size))
        var lastDownload: TransferProgress?
        for await value in downloads { lastDownload = value }
        XCTAssertEqual(lastDownload?.isFinished, true)
        XCTAssertGreaterThan(lastDownload?.completedBytes ?? 0, 0, "the JSON summary came back")
    }

    func testUnknownTotalIsKnownAtTheEnd() async throws {
        let request = Session().request(.url(server.url("/chunked?chunks=200&size=5000")))
        let sequence = request.downloadProgress(every: .zero)
        let reader = Task { () -> [TransferProgress] in
            var values: [TransferProgress] = []
            for await value in sequence { values.append(value) }
            return values
        }
        _ = try await request.data()
        assertWellFormed(await reader.value, final: 1_000_000, total: nil)
    }

    func testAFailedTransferStillEndsTheSequence() async throws {
        let request = Session().request(.url(server.url("/truncated?send=30000&declared=100000")))
        let sequence = request.downloadProgress(every: .zero)
        let response = await request.response()
        guard response.error == .truncatedResponse else {
            return XCTFail("got \(String(describing: response.error))")
        }
        var values: [TransferProgress] = []
        for await value in sequence { values.append(value) }
        let last = try XCTUnwrap(values.last)
        XCTAssertTrue(last.isFinished)
        XCTAssertEqual(last.totalBytes, 100_000)
        XCTAssertLessThanOrEqual(last.completedBytes, 30_000)
    }

    func testThrottledObserversSeeFewValues() async throws {
        let request = Session().request(.url(server.url("/bytes?size=\(16 << 20)")))
        let sequence = request.downloadProgress(every: .seconds(3600))
        _ = try await request.data()
        var values: [TransferProgress] = []
        for await value in sequence { values.append(value) }
        XCTAssertLessThanOrEqual(values.count, 2, "at most one value per interval, plus the final one")
        XCTAssertEqual(values.last?.completedBytes, 16 << 20)
    }

    func testObservingAfterCompletionGivesTheFinalValue() async throws {
        let request = Session().request(.url(server.url("/bytes?size=1000")))
        _ = request.downloadProgress { _ in }
        _ = try await request.data()
        var values: [TransferProgress] = []
        for await value in request.downloadProgress() { values.append(value) }
        XCTAssertEqual(values, [TransferProgress(completedBytes: 1000, totalBytes: 1000, isFinished: true)])
    }

    func testStubbedSessionsEndProgressToo() async throws {
        let session = Session.stubbed { _ in .json("{\"ok\":true}") }
        let request = session.request(.url("https://example.test/x"))
        let sequence = request.downloadProgress()
        _ = try await request.data()
        var values: [TransferProgress] = []
        for await value in sequence { values.append(value) }
        XCTAssertEqual(values, [TransferProgress(completedBytes: 11, totalBytes: 11, isFinished: true)])
    }

    // MARK: Stream requests

    private static func collect(_ sequence: AsyncStream<TransferProgress>) async -> [TransferProgress] {
        var values: [TransferProgress] = []
        for await value in sequence { values.append(value) }
        return values
    }

    func testStreamDownloadProgressAsClosureAndSequence() async throws {
        let size = 8 << 20
        let closure = Collector<TransferProgress>()
        let stream = Session().streamRequest(.url(server.url("/bytes?size=\(size)")), bufferSize: 256 << 10)
            .downloadProgress(every: .zero) { closure.append($0) }
        let sequence = stream.downloadProgress(every: .zero)
        let reader = Task { () -> [TransferProgress] in
            var values: [TransferProgress] = []
            for await value in sequence { values.append(value) }
            return values
        }
        var received = 0
        for try await chunk in stream.validate().bytes { received += chunk.count }
        XCTAssertEqual(received, size)
        try await assertBothWellFormed(sequence: await reader.value, closure: closure, size: size)
    }

    func testStreamProgressEndsWhenTheReaderBreaksOut() async throws {
        let size = 32 << 20
        let stream = Session().streamRequest(.url(server.url("/bytes?size=\(size)")), bufferSize: 64 << 10)
        let sequence = stream.downloadProgress(every: .zero)
        for try await _ in stream.bytes { break }
        let values = await Self.collect(sequence)
        let last = try XCTUnwrap(values.last)
        XCTAssertTrue(last.isFinished)
        XCTAssertEqual(values.filter(\.isFinished).count, 1, "exactly one final value")
        XCTAssertEqual(last.totalBytes, Int64(size))
        XCTAssertLessThan(last.completedBytes, Int64(size), "the transfer stopped early")
        for (earlier, later) in zip(values, values.dropFirst()) {
            XCTAssertLessThanOrEqual(earlier.completedBytes, later.completedBytes, "monotonic")
        }
    }

    func testStreamProgressIsThrottled() async throws {
        let stream = Session().streamRequest(.url(server.url("/bytes?size=\(16 << 20)")))
        let sequence = stream.downloadProgress(every: .seconds(3600))
        for try await _ in stream.bytes {}
        let values = await Self.collect(sequence)
        XCTAssertLessThanOrEqual(values.count, 2, "at most one value per interval, plus the final one")
        XCTAssertEqual(values.last, TransferProgress(completedBytes: 16 << 20, totalBytes: 16 << 20, isFinished: true))
    }

    func testObservingAStreamAfterCompletionGivesTheFinalValue() async throws {
        let stream = Session().streamRequest(.url(server.url("/bytes?size=1000")))
        for try await _ in stream.bytes {}
        _ = await stream.completion()
        let values = await Self.collect(stream.downloadProgress())
        XCTAssertEqual(values, [TransferProgress(completedBytes: 1000, totalBytes: 1000, isFinished: true)])
    }

    func testStubbedStreamRequestsEndProgressToo() async throws {
        let session = Session.stubbed { _ in .json("{\"ok\":true}") }
        let stream = session.streamRequest(.url("https://example.test/x"))
        let sequence = stream.downloadProgress()
        var received = 0
        for try await chunk in stream.bytes { received += chunk.count }
        XCTAssertEqual(received, 11)
        let values = await Self.collect(sequence)
        XCTAssertEqual(values, [TransferProgress(completedBytes: 11, totalBytes: 11, isFinished: true)])
    }
}
