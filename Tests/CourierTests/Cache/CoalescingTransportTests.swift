@testable import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The coalescer in front of the libcurl engine (``CachingTransport``): identical GETs in flight
/// share one transfer, against the in-process test server.
final class CoalescingTransportTests: CachingTransportTestCase {
    func testIdenticalGETsInFlightShareOneTransfer() async throws {
        let (session, transport) = Self.session(.off, coalesces: true)
        let gate = gatedRoute("/shared")
        let url = server.url("/shared")
        let responses = Task {
            await withTaskGroup(of: DataResponse<Data?>.self) { group in
                for _ in 0..<64 { group.addTask { await session.request(.url(url)).response() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        await waitUntil { transport.coalescer?.waitingMembers == 64 }
        XCTAssertEqual(transport.coalescer?.waitingMembers, 64)
        gate.signal()
        let all = await responses.value
        XCTAssertEqual(all.count, 64)
        XCTAssertTrue(all.allSatisfy { $0.data == Data("shared".utf8) && $0.error == nil })
        XCTAssertEqual(server.recordedRequests(path: "/shared").count, 1)
        await session.shutdown()
    }

    func testCancellingOneCallerLeavesTheOthers() async throws {
        let (session, transport) = Self.session(.off, coalesces: true)
        let gate = gatedRoute("/cancel-one")
        let url = server.url("/cancel-one")
        let requests = (0..<3).map { _ in session.request(.url(url)) }
        let waits = requests.map { request in Task { await request.response() } }
        await waitUntil { transport.coalescer?.waitingMembers == 3 }
        requests[0].cancel()
        let cancelled = await waits[0].value
        XCTAssertEqual(cancelled.error, .cancelled)
        gate.signal()
        for wait in waits.dropFirst() {
            let response = await wait.value
            XCTAssertNil(response.error)
            XCTAssertEqual(response.data, Data("shared".utf8))
        }
        XCTAssertEqual(server.recordedRequests(path: "/cancel-one").count, 1)
        await session.shutdown()
    }

    func testTheLastCallerLeavingCancelsTheSharedTransfer() async throws {
        let (session, transport) = Self.session(.off, coalesces: true)
        let gate = gatedRoute("/cancel-all")
        let url = server.url("/cancel-all")
        let requests = (0..<2).map { _ in session.request(.url(url)) }
        let waits = requests.map { request in Task { await request.response() } }
        await waitUntil { transport.coalescer?.waitingMembers == 2 }
        _ = await server.waitForRequests(count: 1, path: "/cancel-all")
        requests.forEach { $0.cancel() }
        for wait in waits {
            let response = await wait.value
            XCTAssertEqual(response.error, .cancelled)
        }
        XCTAssertEqual(transport.coalescer?.runningTransfers, 0)
        gate.signal()  // the cancelled transfer's handler
        gate.signal()  // the next one's
        // A request made afterwards starts a transfer of its own.
        let later = await session.request(.url(url)).response()
        XCTAssertEqual(later.data, Data("shared".utf8))
        XCTAssertEqual(server.recordedRequests(path: "/cancel-all").count, 2)
        await session.shutdown()
    }

    func testRequestsThatDifferDoNotShare() async throws {
        let (session, transport) = Self.session(.off, coalesces: true)
        let gate = gatedRoute("/differ")
        var withToken = URLRequest(url: server.url("/differ"))
        withToken.setValue("Bearer a", forHTTPHeaderField: "Authorization")
        var otherToken = withToken
        otherToken.setValue("Bearer b", forHTTPHeaderField: "Authorization")
        var post = URLRequest(url: server.url("/differ"))
        post.httpMethod = "POST"
        post.httpBody = Data("x".utf8)
        let waits = [withToken, otherToken, post].map { request in
            Task { await session.request(.urlRequest(request)).response() }
        }
        _ = await server.waitForRequests(count: 3, path: "/differ")
        XCTAssertEqual(server.recordedRequests(path: "/differ").count, 3)
        XCTAssertEqual(transport.coalescer?.runningTransfers, 2, "the two GETs run apart; the POST is not coalesced")
        for _ in 0..<3 { gate.signal() }
        for wait in waits {
            let response = await wait.value
            XCTAssertNil(response.error)
        }
        await session.shutdown()
    }

    func testTheCachingTransportKeepsTheTransportContract() async throws {
        for storage in [Session.CacheStorage.off, .memory(maxBytes: 1 << 20)] {
            let (session, transport) = Self.session(storage, coalesces: true)
            let report = await TransportConformance(
                transport: transport, answered: HTTPRequest(testing: server.url("/hello")),
                pending: HTTPRequest(testing: server.url("/never"))
            ).run()
            XCTAssertTrue(report.failures.isEmpty, report.description)
            XCTAssertEqual(report.checks.filter { $0.skippedBecause != nil }.count, 0)
            await session.shutdown()
        }
    }

    func testARequestMadeAfterCancelAllDoesNotJoinACancelledTransfer() async throws {
        let (session, transport) = Self.session(.off, coalesces: true)
        let gate = gatedRoute("/epoch")
        let url = server.url("/epoch")
        let before = session.request(.url(url))
        let beforeWait = Task { await before.response() }
        await waitUntil { transport.coalescer?.waitingMembers == 1 }
        _ = await server.waitForRequests(count: 1, path: "/epoch")
        session.cancelAll()
        let after = Task { await session.request(.url(url)).response() }
        let cancelled = await beforeWait.value
        XCTAssertEqual(cancelled.error, .cancelled)
        gate.signal()
        gate.signal()
        let response = await after.value
        XCTAssertNil(response.error)
        XCTAssertEqual(response.data, Data("shared".utf8))
        await session.shutdown()
    }
}
