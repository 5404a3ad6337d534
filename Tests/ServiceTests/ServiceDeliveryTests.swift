import Courier
import CourierTestServer
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierSync
import XCTest

/// Completion handlers, async variants and cancellation, over a loopback server.
final class ServiceDeliveryTests: XCTestCase {
    private var server: TestHTTPServer?
    private static let session = Session()

    /// Routes answering `{status, success, message, data}`.
    private func startServer() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.route("GET", "/item") { _ in
            .jsonString(#"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"a"}}"#)
        }
        server.route("POST", "/item") { _ in
            TestHTTPResponse.jsonString(
                #"{"status":201,"success":true,"message":"created","data":{"id":2,"title":"b"}}"#,
                status: 201
            ).adding("Location", "/item/2")
        }
        server.route("GET", "/missing") { _ in
            .jsonString(#"{"status":404,"success":false,"message":"no such item"}"#, status: 404)
        }
        server.route("GET", "/gone") { _ in .empty(status: 204) }
        server.route("GET", "/avatar.png") { _ in .data(Self.avatar, contentType: "image/png") }
        server.route("GET", "/readme") { _ in .text("Read me, café.") }
        self.server = server
        return server
    }

    override func tearDown() {
        server?.shutdown()
        server = nil
        super.tearDown()
    }

    private func service() -> StatusService { StatusService(session: Self.session) }

    func testCompletionIsDeliveredOnceOnTheRequestedQueue() throws {
        let server = try startServer()
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "caller.queue")
        queue.setSpecific(key: key, value: "caller")
        let calls = Locked(0)
        let done = expectation(description: "completion")
        service().request(.url(server.url("/item")), as: Item.self, queue: queue) { (result: NetworkResult<Item>) in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "caller")
            XCTAssertEqual(result, .success(Item(id: 1, title: "a")))
            calls.withLock { $0 += 1 }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        // A second handler call would be a bug; give it a chance to show up on the same queue.
        queue.sync {}
        XCTAssertEqual(calls.withLock { $0 }, 1)
    }

    func testCompletionDefaultsToTheSessionCallbackQueue() throws {
        let server = try startServer()
        var configuration = Session.Configuration()
        let key = DispatchSpecificKey<String>()
        let callbackQueue = DispatchQueue(label: "session.callbacks")
        callbackQueue.setSpecific(key: key, value: "session")
        configuration.callbackQueue = callbackQueue
        let service = StatusService(session: Session(configuration: configuration))
        let done = expectation(description: "completion")
        service.request(.url(server.url("/missing")), as: Item.self) { (result: NetworkResult<Item>) in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "session")
            XCTAssertEqual(result.kind, .requestErr)
            XCTAssertEqual(result.failure?.message, "no such item")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    func testAsyncVariants() async throws {
        let server = try startServer()
        let service = service()
        let result: NetworkResult<Item> = await service.request(.url(server.url("/item")))
        XCTAssertEqual(result, .success(Item(id: 1, title: "a")))

        let value: Item = try await service.requestValue(.url(server.url("/item")))
        XCTAssertEqual(value.title, "a")

        do {
            _ = try await service.requestValue(.url(server.url("/missing")), as: Item.self)
            XCTFail("expected a throw")
        } catch .requestErr(let failure) {
            XCTAssertEqual(failure.statusCode, 404)
            XCTAssertEqual(failure.message, "no such item")
        } catch {
            XCTFail("unexpected \(error)")
        }

        let empty: NetworkResult<Empty> = await service.request(.url(server.url("/gone")))
        XCTAssertEqual(empty, .success(Empty()))
    }

    func testReplyCarriesTheSuccessStatus() async throws {
        let server = try startServer()
        var post = URLRequest(url: server.url("/item"))
        post.httpMethod = "POST"
        let created: NetworkResult<ServiceReply<Item>> = await service().request(.urlRequest(post))
        guard case .success(let reply) = created else { return XCTFail("expected success, got \(created)") }
        XCTAssertEqual(reply.statusCode, 201)
        XCTAssertEqual(reply.value.title, "b")
        XCTAssertEqual(reply.headers["location"], "/item/2")

        let fetched = try await service().requestValue(.url(server.url("/item")), as: ServiceReply<Item>.self)
        XCTAssertEqual(fetched.statusCode, 200)
    }

    private static let avatar = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    func testBodyModeReturnsTheBytesAndTheTextOverTheWire() async throws {
        let server = try startServer()
        let image = try await service().requestValue(
            .url(server.url("/avatar.png")), as: Data.self, decodingMode: .body)
        XCTAssertEqual(image, Self.avatar)
        let text: NetworkResult<String> = await service().request(.url(server.url("/readme")), decodingMode: .body)
        XCTAssertEqual(text, .success("Read me, café."))
        let reply = try await service().requestValue(
            .url(server.url("/avatar.png")), as: ServiceReply<Data>.self, decodingMode: .body)
        XCTAssertEqual(reply.value.count, 3000)
        XCTAssertEqual(reply.headers["content-type"], "image/png")
        let missing: NetworkResult<Data> = await service().request(.url(server.url("/missing")), decodingMode: .body)
        XCTAssertEqual(missing.kind, .requestErr)
        XCTAssertEqual(missing.failure?.message, "no such item")
    }

    /// Cancelling the awaiting task cancels the transfer: the result is `networkFail` whose
    /// failure wraps `CourierError.cancelled`.
    func testCancellingTheTaskGivesCancelledNetworkFail() async throws {
        let server = try startServer()
        let service = service()
        let url = server.url("/never")
        let task = Task { await service.request(.url(url), as: Item.self) }
        // Cancel once the server has the request, so the transfer really is in flight.
        while server.recordedRequests(path: "/never").isEmpty {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        task.cancel()
        let result = await task.value
        XCTAssertEqual(result.kind, .networkFail)
        XCTAssertEqual(result.failure?.error, .cancelled)
        XCTAssertEqual(result.failure?.error, .cancelled)
    }

    func testCancellingTheReturnedRequestCompletesOnceWithCancelled() throws {
        let server = try startServer()
        let done = expectation(description: "completion")
        let request = service().request(.url(server.url("/never")), as: Item.self) { (result: NetworkResult<Item>) in
            XCTAssertEqual(result.failure?.error, .cancelled)
            done.fulfill()
        }
        request.cancel()
        wait(for: [done], timeout: 10)
    }

    func testConnectionFailureIsNetworkFail() async throws {
        let server = try TestHTTPServer()
        let url = server.url("/item")
        server.shutdown()
        let result: NetworkResult<Item> = await service().request(.url(url))
        XCTAssertEqual(result.kind, .networkFail)
        XCTAssertNil(result.failure?.statusCode)
        XCTAssertNotNil(result.failure?.error)
    }

    func testInvalidRequestIsNetworkFail() async {
        let result: NetworkResult<Item> = await service().request(.url("not a url"))
        XCTAssertEqual(result.kind, .networkFail)
        XCTAssertSameError(result.failure?.error, .invalidURL("not a url"))
    }
}
