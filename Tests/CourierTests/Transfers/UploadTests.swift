@testable import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Session.upload(_:to:)`: files, streams of chunks and multipart forms sent through libcurl's
/// read callback, checked by the server's hash of what it received.
final class UploadTests: TransferTestCase {
    private func summary(_ request: DataRequest) async throws -> TestHTTPUploadSummary {
        try await request.validate().decodable(TestHTTPUploadSummary.self)
    }

    func testLargeFileIsStreamedWithItsExactLength() async throws {
        let size = 48 << 20
        let (file, sha256) = try scratch.file(named: "large.bin", size: size, seed: 7)
        let session = Session()
        let received = try await summary(session.upload(.file(file), to: server.url("/upload/digest")))
        XCTAssertEqual(received, TestHTTPUploadSummary(bytes: size, sha256: sha256))
        let recorded = try XCTUnwrap(server.recordedRequests(path: "/upload/digest").first)
        XCTAssertEqual(recorded.method, "POST", "a GET becomes a POST when it gets a body")
        XCTAssertEqual(recorded.header("Content-Length"), String(size))
        XCTAssertNil(recorded.header("Transfer-Encoding"))
        XCTAssertNil(recorded.header("Expect"), "no 100-continue round trip unless asked for")
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testMethodAndContentTypeAreKeptOrSet() async throws {
        let (file, sha256) = try scratch.file(named: "small.bin", size: 1000, seed: 1)
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "PUT"
        request.setValue("text/csv", forHTTPHeaderField: "Content-Type")
        let put = try await summary(Session().upload(.file(file, contentType: "image/png"), to: request))
        XCTAssertEqual(put.sha256, sha256)
        let patch = try await summary(
            Session().upload(
                .file(file, contentType: "image/png"),
                to: server.url("/upload"), method: .patch))
        XCTAssertEqual(patch.sha256, sha256)
        let recorded = server.recordedRequests(path: "/upload")
        XCTAssertEqual(recorded.map(\.method), ["PUT", "PATCH"])
        XCTAssertEqual(recorded.map { $0.header("Content-Type") }, ["text/csv", "image/png"])
    }

    func testStreamOfUnknownLengthIsSentChunkedWithBoundedBuffering() async throws {
        let chunkSize = 64 << 10
        let chunks = 256  // 16 MiB
        var expected = TestHTTPServer.deterministicBytes(count: 0, seed: 0)
        let chunk = TestHTTPServer.deterministicBytes(count: chunkSize, seed: 11)
        for _ in 0..<chunks { expected.append(chunk) }
        let stream = AsyncStream<Data> { continuation in
            Task {
                for _ in 0..<chunks { continuation.yield(chunk) }
                continuation.finish()
            }
        }
        let request = Session().upload(.stream(stream, bufferSize: 256 << 10), to: server.url("/upload/digest"))
        let received = try await summary(request)
        XCTAssertEqual(received, TestHTTPUploadSummary(body: expected))
        let recorded = try XCTUnwrap(server.recordedRequests(path: "/upload/digest").first)
        XCTAssertEqual(recorded.header("Transfer-Encoding"), "chunked")
        guard case .stream(let buffer)? = request.request?.body else {
            return XCTFail("the body should be a streamed upload")
        }
        XCTAssertLessThanOrEqual(
            buffer.highWater, 256 << 10 + chunkSize,
            "never more than the buffer size (plus the chunk being handed over) is queued")
    }

    func testStreamWithDeclaredLengthSendsContentLength() async throws {
        let parts = (0..<10).map { TestHTTPServer.deterministicBytes(count: 10_000 + $0, seed: UInt64($0)) }
        let total = parts.reduce(0) { $0 + $1.count }
        let stream = AsyncStream<Data> { continuation in
            for part in parts { continuation.yield(part) }
            continuation.finish()
        }
        let received = try await summary(
            Session().upload(.stream(stream, length: Int64(total)), to: server.url("/upload/digest")))
        XCTAssertEqual(received, TestHTTPUploadSummary(body: parts.reduce(Data(), +)))
        XCTAssertEqual(server.recordedRequests(path: "/upload/digest").first?.header("Content-Length"), String(total))
    }

    func testFailingStreamFailsTheRequest() async throws {
        struct Broken: Error {}
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(repeating: 1, count: 1000))
            continuation.finish(throwing: Broken())
        }
        let session = Session()
        let response = await session.upload(.stream(stream), to: server.url("/upload/digest")).response()
        guard let failure_ = response.error, failure_ == .invalidRequest, let reason = failure_.reason else {
            return XCTFail("expected invalidRequest, got \(String(describing: response.error))")
        }
        XCTAssertTrue(reason.contains("upload body stream failed"), reason)
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testMultipartWithAFileIsStreamedWithExactLength() async throws {
        let (file, _) = try scratch.file(named: "video.mp4", size: 20 << 20, seed: 5)
        var form = MultipartFormData(boundary: "courier-test-boundary")
        form.append("Ada", name: "name")
        form.append(fileURL: file, name: "video")
        form.append(Data("tail".utf8), name: "note", filename: "note.txt")
        var inMemory = form
        inMemory.memoryThreshold = 64 << 20
        let expected = try inMemory.encode()

        let received = try await summary(Session().upload(.multipart(form), to: server.url("/upload/digest")))
        XCTAssertEqual(received, TestHTTPUploadSummary(body: expected))
        let recorded = try XCTUnwrap(server.recordedRequests(path: "/upload/digest").first)
        XCTAssertEqual(recorded.header("Content-Length"), String(expected.count))
        XCTAssertEqual(recorded.header("Content-Type"), form.contentType)
    }

    func testRouterMultipartWithFilesBeyondTheMemoryThresholdIsStreamed() async throws {
        let (file, _) = try scratch.file(named: "big.bin", size: 3 << 20, seed: 9)
        var form = MultipartFormData(boundary: "b0undary", memoryThreshold: 1 << 20)
        form.append(fileURL: file, name: "blob")
        XCTAssertThrowsError(try form.encode(), "the in-memory encoder keeps its limit")
        let route = UploadRoute(baseURL: server.baseURL.absoluteString, form: form)
        let request = try XCTUnwrap(Session().request(route).request)
        XCTAssertNil(request.bodyData)
        guard case .segments = request.body else { return XCTFail("the form should be read while sending") }
        var inMemory = form
        inMemory.memoryThreshold = 8 << 20
        let received = try await summary(Session().request(route))
        XCTAssertEqual(received, TestHTTPUploadSummary(body: try inMemory.encode()))
    }

    func testOtherTransportsCanCollectABodyReadWhileSending() throws {
        let (file, _) = try scratch.file(named: "attachment.bin", size: 200_000, seed: 12)
        var form = MultipartFormData(boundary: "input-stream")
        form.append("caption", name: "title")
        form.append(fileURL: file, name: "file")
        let request = try XCTUnwrap(Session().upload(.multipart(form), to: server.url("/upload")).request)
        XCTAssertNil(request.bodyData, "a form with a file is read while sending")
        XCTAssertEqual(try request.collectedBody(), try form.encode())
    }

    func testMissingFileFailsBeforeAnythingIsSent() async {
        let missing = scratch.path("missing.bin")
        let response = await Session().upload(.file(missing), to: server.url("/upload")).response()
        guard let failure_ = response.error, failure_ == .invalidRequest, let reason = failure_.reason else {
            return XCTFail("expected invalidRequest, got \(String(describing: response.error))")
        }
        XCTAssertTrue(reason.contains(missing.path), reason)
        var form = MultipartFormData()
        form.append(fileURL: missing, name: "file")
        let multipart = await Session().upload(.multipart(form), to: server.url("/upload")).response()
        guard multipart.error == .multipartEncodingFailed else {
            return XCTFail("expected multipartEncodingFailed, got \(String(describing: multipart.error))")
        }
        XCTAssertEqual(server.requestsServed, 0)
    }

    func testFileBodyIsSentAgainAfterA307AndAStreamIsRefused() async throws {
        let (file, sha256) = try scratch.file(named: "redirected.bin", size: 300_000, seed: 3)
        let redirect = server.url("/redirect?to=/upload&status=307")
        let received = try await summary(Session().upload(.file(file), to: redirect))
        XCTAssertEqual(received, TestHTTPUploadSummary(bytes: 300_000, sha256: sha256))

        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data(repeating: 2, count: 100))
            continuation.finish()
        }
        let response = await Session().upload(.stream(stream), to: redirect).response()
        guard let failure_ = response.error, failure_ == .invalidRequest, let reason = failure_.reason else {
            return XCTFail("expected invalidRequest, got \(String(describing: response.error))")
        }
        XCTAssertTrue(reason.contains("only once"), reason)
    }

    func testExpect100ContinueWhenAskedFor() async throws {
        let (file, sha256) = try scratch.file(named: "expect.bin", size: 2 << 20, seed: 4)
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "POST"
        request.setValue("100-continue", forHTTPHeaderField: "Expect")
        let received = try await summary(Session().upload(.file(file), to: request))
        XCTAssertEqual(received.sha256, sha256)
        XCTAssertEqual(server.recordedRequests(path: "/upload").first?.header("Expect"), "100-continue")
    }

    func testCancellingAStreamedUploadStopsTheProducer() async throws {
        let produced = Collector<Int>()
        let stream = AsyncStream<Data> { continuation in
            Task {
                for index in 0..<100_000 {
                    produced.append(index)
                    if case .terminated = continuation.yield(Data(repeating: 1, count: 64 << 10)) { return }
                    await Task.yield()
                }
                continuation.finish()
            }
        }
        let session = Session()
        // `/never` does not read the body: the upload stalls once the socket buffers are full.
        let request = session.upload(.stream(stream, bufferSize: 64 << 10), to: server.url("/never"))
        let task = Task { await request.response() }
        // Cancelled once the producer is under way.
        await waitUntil { produced.values.count >= 10 }
        XCTAssertGreaterThanOrEqual(produced.values.count, 10, "the upload is under way when cancelled")
        request.cancel()
        let response = await task.value
        XCTAssertEqual(response.error, .cancelled)
        XCTAssertEqual(session.liveHandleCount, 0)
        XCTAssertLessThan(produced.values.count, 100_000, "the producer was stopped")
    }
}

/// A router whose body is a multipart form.
private struct UploadRoute: Router {
    let baseURL: String
    let form: MultipartFormData
    var path: String { "/upload/digest" }
    var method: HTTPMethod { .post }
    var parameters: RequestParams { .multipart(form) }
}
