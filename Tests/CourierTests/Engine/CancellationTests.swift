import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `cancel()` and Swift task cancellation: prompt, typed, and exactly once.
final class CancellationTests: XCTestCase {
    var server: TestHTTPServer!
    let session = Session()

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    /// Waits until the server has seen `count` requests for `path` (bounded at 60 s only so that
    /// a broken build cannot hang; never a timing assertion).
    private func waitForServer(path: String, count: Int = 1) async throws {
        let arrived = await server.waitForRequests(count: count, path: path, timeout: 60)
        XCTAssertTrue(arrived, "the server never saw \(path)")
    }

    func testCancelBeforeStartNeverSends() async {
        let request = session.request(.url(server.url("/hello")))
        request.cancel()
        let response = await request.response()
        XCTAssertEqual(response.error, .cancelled)
        XCTAssertEqual(server.requestsServed, 0)
        XCTAssertTrue(request.isCancelled)
    }

    func testCancelWhileServerNeverAnswers() async throws {
        let request = session.request(.url(server.url("/never")))
        let (done, calls) = expectCancellation(of: request)
        try await waitForServer(path: "/never")
        request.cancel()
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        let second = await request.response()
        XCTAssertEqual(second.error, .cancelled, "a handler added later sees the same outcome")
        XCTAssertEqual(calls.value, 1)
    }

    func testCancelMidBody() async throws {
        let request = session.request(.url(server.url("/headers-then-stall")))
        let task = Task { await request.response() }
        try await waitForServer(path: "/headers-then-stall")
        request.cancel()
        let response = await task.value
        XCTAssertEqual(response.error, .cancelled)
    }

    func testTaskCancellationCancelsTheRequest() async throws {
        let session = self.session
        let url = server.url("/never")
        let task = dataTask(session, url)
        try await waitForServer(path: "/never")
        task.cancel()
        let error = await task.value
        XCTAssertEqual(error, .cancelled)
    }

    func testAlreadyCancelledTaskDoesNotSend() async {
        let session = self.session
        let url = server.url("/hello")
        let task = Task { () -> DataResponse<Data?> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await session.request(.url(url)).response()
        }
        let response = await task.value
        XCTAssertEqual(response.error, .cancelled)
        XCTAssertEqual(server.requestsServed, 0)
    }

    func testCancellingAFinishedRequestIsANoOp() async throws {
        let request = session.request(.url(server.url("/hello")))
        let first = await request.response()
        XCTAssertEqual(first.statusCode, 200)
        request.cancel()
        XCTAssertFalse(request.isCancelled)
        let text = try await request.string()
        XCTAssertEqual(text, "Hello, Courier")
        XCTAssertEqual(server.requestsServed, 1, "the transfer ran once for all handlers")
    }

    func testManyCancellationsEachCompleteExactlyOnce() async throws {
        let calls = Counter()
        let group = DispatchGroup()
        var requests: [DataRequest] = []
        for index in 0..<100 {
            let request = session.request(.url(server.url(index.isMultiple(of: 2) ? "/never" : "/delay?ms=50")))
            group.enter()
            request.response { _ in
                calls.increment()
                group.leave()
            }
            requests.append(request)
        }
        for request in requests { request.cancel() }
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: group.wait(timeout: .now() + 30)) }
        }
        XCTAssertEqual(finished, .success)
        XCTAssertEqual(calls.value, 100)
    }
}
