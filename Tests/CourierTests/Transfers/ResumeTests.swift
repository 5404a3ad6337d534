@testable import Courier
import CourierTestServer
import Foundation
import XCTest

/// Resumable downloads: Range + If-Range after a cut or a cancellation, full download when the
/// server ignores the range or the content changed; the final file byte-identical.
final class ResumeTests: TransferTestCase {
    private let size = 6 << 20
    private var expectedSHA: String { TestHTTPServer.checksum(TestHTTPServer.deterministicBytes(count: size, seed: 5)) }

    private func sha(_ url: URL) throws -> String { TestHTTPServer.checksum(try Data(contentsOf: url)) }

    private func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? -1
    }

    func testACutDownloadResumesAndTheFileIsByteIdentical() async throws {
        let file = scratch.path("cut.bin")
        let endpoint = server.url("/resumable?size=\(size)&seed=5&cut=2000000,4500000")
        let session = Session()
        let first = await session.download(.url(endpoint), to: file).validate().response()
        guard first.error == .truncatedResponse else { return XCTFail("got \(String(describing: first.error))") }
        let resume = try XCTUnwrap(first.resumeData)
        XCTAssertEqual(resume.bytesWritten, 2_000_000)
        XCTAssertEqual(resume.totalBytes, Int64(size))
        XCTAssertEqual(resume.validator, "\"s5-\(size)\"")
        XCTAssertEqual(resume.fileURL, file)
        XCTAssertEqual(fileSize(file), 2_000_000, "the partial file is kept")

        let second = await session.download(.url(endpoint), resumingWith: resume).validate().response()
        let again = try XCTUnwrap(second.resumeData, "cut again at 4500000")
        XCTAssertEqual(again.bytesWritten, 4_500_000)
        XCTAssertEqual(again.totalBytes, Int64(size))

        let third = await session.download(.url(endpoint), resumingWith: again).validate().response()
        XCTAssertNil(third.error)
        XCTAssertNil(third.resumeData)
        XCTAssertEqual(third.statusCode, 206)
        XCTAssertEqual(third.fileURL, file)
        XCTAssertEqual(try sha(file), expectedSHA)

        let requests = server.recordedRequests(path: "/resumable")
        XCTAssertEqual(requests.map { $0.header("Range") }, [nil, "bytes=2000000-", "bytes=4500000-"])
        XCTAssertEqual(requests.map { $0.header("If-Range") }, [nil, resume.validator, resume.validator])
        XCTAssertEqual(
            requests.map { $0.header("Accept-Encoding") == nil }, [false, true, true],
            "a resumption asks for the stored bytes, not a compressed rendering")
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testProgressOfAResumedDownloadCountsTheKeptBytes() async throws {
        let file = scratch.path("progress.bin")
        let endpoint = server.url("/resumable?size=\(size)&seed=5&cut=3000000")
        let first = await Session().download(.url(endpoint), to: file).response()
        let resume = try XCTUnwrap(first.resumeData)
        let request = Session().download(.url(endpoint), resumingWith: resume)
        let progress = request.downloadProgress(every: .zero)
        _ = await request.validate().response()
        var values: [TransferProgress] = []
        for await value in progress { values.append(value) }
        XCTAssertGreaterThanOrEqual(values.first?.completedBytes ?? 0, 3_000_000)
        XCTAssertEqual(values.first?.totalBytes, Int64(size))
        XCTAssertEqual(
            values.last, TransferProgress(completedBytes: Int64(size), totalBytes: Int64(size), isFinished: true))
    }

    func testAServerIgnoringRangesSendsTheWholeBodyAgain() async throws {
        let file = scratch.path("ignored.bin")
        let cut = await Session().download(.url(server.url("/resumable?size=\(size)&seed=5&cut=1000000")), to: file)
            .response()
        let resume = try XCTUnwrap(cut.resumeData)
        let full = await Session().download(
            .url(server.url("/resumable?size=\(size)&seed=5&ignoreRange=1")),
            resumingWith: resume
        ).validate().response()
        XCTAssertNil(full.error)
        XCTAssertEqual(full.statusCode, 200)
        XCTAssertEqual(fileSize(file), size, "the whole body replaced the partial file")
        XCTAssertEqual(try sha(file), expectedSHA)
    }

    func testChangedContentRestartsFromTheBeginning() async throws {
        let old = TestHTTPServer.deterministicBytes(count: 500_000, seed: 1)
        let new = TestHTTPServer.deterministicBytes(count: 700_000, seed: 2)
        let calls = Collector<Int>()
        server.route("/changing") { request in
            calls.append(1)
            if calls.values.count == 1 {
                return TestHTTPResponse.ranged(old, for: request, etag: "\"v1\"")
                    .with(.truncate(sendBytes: 200_000, declaredLength: old.count))
            }
            return TestHTTPResponse.ranged(new, for: request, etag: "\"v2\"")
        }
        let file = scratch.path("changing.bin")
        let first = await Session().download(.url(server.url("/changing")), to: file).response()
        let resume = try XCTUnwrap(first.resumeData)
        XCTAssertEqual(resume.validator, "\"v1\"")
        let second = await Session().download(.url(server.url("/changing")), resumingWith: resume).validate().response()
        XCTAssertNil(second.error)
        XCTAssertEqual(second.statusCode, 200, "If-Range did not match: the whole new body")
        XCTAssertEqual(try Data(contentsOf: file), new)
    }

    func testAWeakETagFallsBackToLastModified() async throws {
        let file = scratch.path("weak.bin")
        let endpoint = server.url("/resumable?size=\(size)&seed=5&weak=1&cut=1500000")
        let first = await Session().download(.url(endpoint), to: file).response()
        let resume = try XCTUnwrap(first.resumeData)
        XCTAssertEqual(resume.validator, TestHTTPResponse.fixedLastModified)
        let second = await Session().download(.url(endpoint), resumingWith: resume).validate().response()
        XCTAssertEqual(second.statusCode, 206)
        XCTAssertEqual(try sha(file), expectedSHA)
    }

    func testWithoutAValidatorThereIsNoResumeData() async throws {
        let file = scratch.path("novalidator.bin")
        let response = await Session().download(
            .url(server.url("/resumable?size=\(size)&validators=0&cut=100000")),
            to: file
        ).response()
        guard response.error == .truncatedResponse else {
            return XCTFail("got \(String(describing: response.error))")
        }
        XCTAssertNil(response.resumeData)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "an unresumable partial file is removed")
    }

    func testACancelledDownloadCanContinue() async throws {
        let body = TestHTTPServer.deterministicBytes(count: 400_000, seed: 9)
        let calls = Collector<Int>()
        server.route("/stalling") { request in
            calls.append(1)
            let response = TestHTTPResponse.ranged(body, for: request, etag: "\"stall\"")
            return calls.values.count == 1 ? response.with(.headersThenStall(sendBytes: 150_000)) : response
        }
        let file = scratch.path("cancelled.bin")
        let progress = Collector<Int64>()
        let request = Session().download(.url(server.url("/stalling")), to: file)
            .downloadProgress(every: .zero) { progress.append($0.completedBytes) }
        let task = Task { await request.response() }
        // Cancelled once the 150,000 bytes sent before the stall are written.
        await waitUntil { (progress.values.last ?? 0) >= 150_000 }
        request.cancel()
        let cancelled = await task.value
        XCTAssertEqual(cancelled.error, .cancelled)
        let resume = try XCTUnwrap(cancelled.resumeData)
        XCTAssertEqual(resume.bytesWritten, 150_000)
        let resumed = await Session().download(.url(server.url("/stalling")), resumingWith: resume).validate()
            .response()
        XCTAssertNil(resumed.error)
        XCTAssertEqual(try Data(contentsOf: file), body)
    }

    func testAMisplacedPartialResponseIsRefused() async throws {
        let body = TestHTTPServer.deterministicBytes(count: 100_000, seed: 3)
        server.route("/misplaced") { _ in
            TestHTTPResponse(
                status: 206, headers: ["Content-Range": "bytes 0-99999/100000", "ETag": "\"m\""], body: body)
        }
        let file = scratch.path("misplaced.bin")
        try Data(repeating: 7, count: 5000).write(to: file)
        let resume = ResumeData(
            url: server.url("/misplaced"), fileURL: file, bytesWritten: 5000, validator: "\"m\"",
            totalBytes: 100_000)
        let response = await Session().download(.url(server.url("/misplaced")), resumingWith: resume).response()
        guard let failure_ = response.error, failure_ == .protocolViolation, let message = failure_.reason else {
            return XCTFail("got \(String(describing: response.error))")
        }
        XCTAssertTrue(message.contains("5000"), message)
    }

    func testAMissingPartialFileMeansAFullDownload() async throws {
        let file = scratch.path("gone.bin")
        let resume = ResumeData(
            url: server.url("/resumable"), fileURL: file, bytesWritten: 1000, validator: "\"x\"",
            totalBytes: nil)
        let response = await Session().download(
            .url(server.url("/resumable?size=\(size)&seed=5")), resumingWith: resume
        )
        .validate().response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertNil(server.recordedRequests(path: "/resumable").first?.header("Range"))
        XCTAssertEqual(try sha(file), expectedSHA)
    }

    func testAFailedResumptionKeepsThePartialFile() async throws {
        let file = scratch.path("kept.bin")
        try Data(repeating: 1, count: 3000).write(to: file)
        let resume = ResumeData(
            url: URL(string: "http://127.0.0.1:1/x")!, fileURL: file, bytesWritten: 3000,
            validator: "\"k\"", totalBytes: 10_000)
        let response = await Session().download(
            .url("http://127.0.0.1:\(Loopback.closedPort())/x"), resumingWith: resume
        )
        .response()
        guard response.error == .cannotConnect else { return XCTFail("got \(String(describing: response.error))") }
        XCTAssertEqual(response.resumeData?.bytesWritten, 3000)
        XCTAssertEqual(fileSize(file), 3000)
    }

    func testResumeDataSurvivesEncoding() throws {
        let resume = ResumeData(
            url: URL(string: "https://example.com/a.bin")!, fileURL: URL(fileURLWithPath: "/tmp/a.bin"),
            bytesWritten: 42, validator: "\"e\"", totalBytes: 100)
        XCTAssertEqual(try JSONDecoder().decode(ResumeData.self, from: JSONEncoder().encode(resume)), resume)
    }
}
