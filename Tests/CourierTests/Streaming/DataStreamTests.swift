@testable import Courier
import CourierTesting
import CourierTestServer
import Foundation
import XCTest

/// `Session.streamRequest(_:)`: the body as an AsyncSequence with backpressure.
final class DataStreamTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.shutdown()
    }

    func testStatusAndHeadersArriveBeforeTheBody() async throws {
        // Content-Length 1000, 10 bytes, then the server stalls: the body never completes.
        let stream = Session().streamRequest(.url(server.url("/headers-then-stall")))
        let head = try await stream.head()
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.value(forHeader: "content-length"), "1000")
        XCTAssertEqual(head.headers["Content-Type"], "text/plain; charset=utf-8")
        XCTAssertEqual(head.urlResponse?.statusCode, 200)
        stream.cancel()
        let completion = await stream.completion()
        XCTAssertEqual(completion.error, .cancelled)
        XCTAssertEqual(completion.statusCode, 200)
    }

    func testFastConsumerReceivesEveryByte() async throws {
        let size = 24 << 20
        let session = Session()
        let stream = session.streamRequest(.url(server.url("/bytes?size=\(size)&seed=21")), bufferSize: 256 << 10)
        var received = Data()
        received.reserveCapacity(size)
        for try await chunk in stream.bytes {
            XCTAssertLessThanOrEqual(chunk.count, stream.core.buffer.chunkCapacity)
            received.append(chunk)
        }
        XCTAssertEqual(received.count, size)
        XCTAssertEqual(
            TestHTTPServer.checksum(received),
            TestHTTPServer.checksum(TestHTTPServer.deterministicBytes(count: size, seed: 21)))
        XCTAssertLessThanOrEqual(stream.core.buffer.highWater, 256 << 10)
        let completion = await stream.completion()
        XCTAssertNil(completion.error)
        XCTAssertEqual(completion.metrics?.bytesReceived ?? 0 > Int64(size), true)
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testSlowConsumerKeepsMemoryWithinTheWindow() async throws {
        let size = 16 << 20
        let stream = Session().streamRequest(.url(server.url("/bytes?size=\(size)&seed=4")), bufferSize: 64 << 10)
        XCTAssertEqual(stream.bufferSize, 64 << 10)
        _ = try await stream.head()
        // Do not read: the server keeps sending, so the window fills and the transfer pauses.
        await waitUntil { stream.core.buffer.pauseCount > 0 }
        XCTAssertGreaterThan(stream.core.buffer.pauseCount, 0, "the engine paused the transfer")
        var hasher = Data()
        var reads = 0
        for try await chunk in stream.bytes {
            hasher.append(chunk)
            reads += 1
            if reads % 16 == 0 { await Task.yield() }  // a reader that keeps falling behind
        }
        XCTAssertEqual(hasher.count, size)
        XCTAssertEqual(
            TestHTTPServer.checksum(hasher),
            TestHTTPServer.checksum(TestHTTPServer.deterministicBytes(count: size, seed: 4)))
        XCTAssertLessThanOrEqual(stream.core.buffer.highWater, 64 << 10, "never more than the window was buffered")
        XCTAssertGreaterThan(stream.core.buffer.pauseCount, 1)
    }

    func testBreakingOutOfTheLoopCancelsTheTransfer() async throws {
        let session = Session()
        let stream = session.streamRequest(.url(server.url("/bytes?size=\(64 << 20)")), bufferSize: 64 << 10)
        var chunks = 0
        for try await _ in stream.bytes {
            chunks += 1
            if chunks == 2 { break }
        }
        let completion = await stream.completion()
        XCTAssertEqual(completion.error, .cancelled)
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testCancellingTheReadingTaskCancelsTheTransfer() async throws {
        let session = Session()
        let stream = session.streamRequest(.url(server.url("/headers-then-stall")))
        let reader = Task { () -> CourierError? in
            do throws(CourierError) {
                for try await _ in stream.bytes {}
                return nil
            } catch {
                return error
            }
        }
        _ = try await stream.head()
        reader.cancel()
        let error = await reader.value
        XCTAssertEqual(error, .cancelled)
        let completion = await stream.completion()
        XCTAssertEqual(completion.error, .cancelled)
        XCTAssertEqual(session.liveHandleCount, 0)
    }

    func testDroppingTheRequestCancelsTheTransfer() async throws {
        let session = Session()
        do {
            let stream = session.streamRequest(.url(server.url("/headers-then-stall")))
            _ = try await stream.head()
        }
        await waitUntil { session.liveHandleCount == 0 }
        XCTAssertEqual(session.liveHandleCount, 0, "the easy handle was released")
    }

    func testTheBodyCanBeReadOnce() async throws {
        let stream = Session().streamRequest(.url(server.url("/hello")))
        let text = try await stream.lines().reduce(into: [String]()) { $0.append($1) }
        XCTAssertEqual(text, ["Hello, Courier"])
        do {
            for try await _ in stream.bytes {}
            XCTFail("a second read should fail")
        } catch {
            guard error == .invalidRequest else { return XCTFail("got \(error)") }
        }
    }

    func testValidationStopsBeforeTheBody() async throws {
        let stream = Session().streamRequest(.url(server.url("/status/404"))).validate()
        do {
            _ = try await stream.head()
            XCTFail("404 should be refused")
        } catch {
            XCTAssertSameError(error, .unacceptableStatusCode(404))
        }
        do {
            for try await _ in stream.bytes {}
            XCTFail("404 should be refused")
        } catch {
            XCTAssertSameError(error, .unacceptableStatusCode(404))
        }
        let completion = await stream.completion()
        XCTAssertSameError(completion.error, .unacceptableStatusCode(404))
        let typed = Session().streamRequest(.url(server.url("/hello"))).validate(contentType: ["application/json"])
        do {
            _ = try await typed.head()
            XCTFail("text/plain should be refused")
        } catch {
            XCTAssertSameError(error, .unacceptableContentType("text/plain; charset=utf-8"))
        }
    }

    func testLinesAcrossChunksWithCRLFAndAnUnterminatedLastLine() async throws {
        server.route("/lines") { _ in
            TestHTTPResponse.data(Data("first\r\nsecond\n\nthird é\r\nlast".utf8), contentType: "text/plain")
                .with(.chunked(chunkSize: 3))
        }
        let lines = try await Session().streamRequest(.url(server.url("/lines"))).lines().reduce(into: [String]()) {
            $0.append($1)
        }
        XCTAssertEqual(lines, ["first", "second", "", "third é", "last"])
    }

    func testOverlongLineThrows() async throws {
        let stream = Session().streamRequest(.url(server.url("/chunked?chunks=5&size=1000")))
        do {
            for try await _ in stream.lines(maximumLineLength: 1000) {}
            XCTFail("a 5000-byte body without line ends exceeds the limit")
        } catch {
            guard case let failure_ = error, failure_ == .decodingFailed, let path = failure_.subject else {
                return XCTFail("got \(error)")
            }
            XCTAssertEqual(path, "line 1")
        }
    }

    func testJSONLinesDecodeAndNameTheFailingLine() async throws {
        struct Item: Decodable, Sendable, Equatable { let id: Int }
        server.route("/ndjson") { _ in
            TestHTTPResponse.data(
                Data("{\"id\":1}\n\n{\"id\":2}\n{\"id\":\"three\"}\n".utf8), contentType: "application/x-ndjson"
            )
            .with(.chunked(chunkSize: 5))
        }
        var items: [Item] = []
        do {
            for try await item in Session().streamRequest(.url(server.url("/ndjson"))).jsonLines(of: Item.self) {
                items.append(item)
            }
            XCTFail("line 4 does not decode")
        } catch {
            guard case let failure_ = error, failure_ == .decodingFailed, let path = failure_.subject else {
                return XCTFail("got \(error)")
            }
            XCTAssertEqual(path, "line 4: id")
        }
        XCTAssertEqual(items, [Item(id: 1), Item(id: 2)])
    }

    func testOnlyTheFinalResponseOfARedirectChainIsStreamed() async throws {
        let stream = Session().streamRequest(.url(server.url("/redirect-chain?n=2")))
        var body = Data()
        for try await chunk in stream.bytes { body.append(chunk) }
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: body)
        XCTAssertEqual(echo.query["n"], "0")
        let completion = await stream.completion()
        XCTAssertEqual(completion.metrics?.redirectCount, 2)
    }

    func testACutConnectionThrowsAfterTheBytesThatArrived() async throws {
        let stream = Session().streamRequest(.url(server.url("/truncated?send=3000&declared=10000")))
        var received = 0
        do {
            for try await chunk in stream.bytes { received += chunk.count }
            XCTFail("the body was cut short")
        } catch {
            guard error == .truncatedResponse else { return XCTFail("got \(error)") }
        }
        XCTAssertEqual(received, 3000)
    }

    func testStreamingIsNotCappedByTheInMemoryLimit() async throws {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 1 << 20
        let stream = Session(configuration: configuration).streamRequest(.url(server.url("/bytes?size=\(4 << 20)")))
        var received = 0
        for try await chunk in stream.bytes { received += chunk.count }
        XCTAssertEqual(received, 4 << 20)
        configuration.security.maxDownloadSize = 1 << 20
        let limited = Session(configuration: configuration).streamRequest(.url(server.url("/bytes?size=\(4 << 20)")))
        do {
            for try await _ in limited.bytes {}
            XCTFail("maxDownloadSize applies to streams")
        } catch {
            XCTAssertSameError(error, .responseTooLarge(limit: 1 << 20))
        }
    }

    func testWaitingForASlowReaderIsNotIdleness() async throws {
        var configuration = Session.Configuration()
        configuration.timeouts.idle = 1
        let stream = Session(configuration: configuration).streamRequest(
            .url(server.url("/bytes?size=\(8 << 20)")),
            bufferSize: 64 << 10)
        _ = try await stream.head()
        await waitUntil { stream.core.buffer.pauseCount > 0 }
        try await Task.sleep(nanoseconds: 2_500_000_000)  // longer than the idle limit, while paused
        var received = 0
        for try await chunk in stream.bytes { received += chunk.count }
        XCTAssertEqual(received, 8 << 20)
    }

    func testStubbedSessionsStreamTheWholeBody() async throws {
        let session = Session.stubbed { _ in .json("{\"a\":1}\n{\"a\":2}") }
        struct A: Decodable, Sendable { let a: Int }
        var values: [Int] = []
        for try await value in session.streamRequest(.url("https://example.test/feed")).jsonLines(of: A.self) {
            values.append(value.a)
        }
        XCTAssertEqual(values, [1, 2])
    }
}
