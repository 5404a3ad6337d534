@testable import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache in front of the libcurl engine (``CachingTransport``), against the in-process test
/// server.
final class CachingTransportTests: CachingTransportTestCase {
    func testAFreshResponseIsServedWithoutTheServer() async throws {
        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        _ = countingRoute("/fresh", headers: [("Cache-Control", "max-age=600")])
        let first = try await get(session, "/fresh")
        let second = try await get(session, "/fresh")
        XCTAssertEqual(first.0, "answer 1")
        XCTAssertEqual(first.1, .miss)
        XCTAssertEqual(second.0, "answer 1")
        XCTAssertEqual(second.1, .hit)
        XCTAssertEqual(server.recordedRequests(path: "/fresh").count, 1)
        await session.shutdown()
    }

    func testETagRevalidationServesTheStoredBodyOn304() async throws {
        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        server.route("/tagged") { request in
            if request.header("If-None-Match") == "\"v1\"" {
                return TestHTTPResponse(status: 304, headers: [("ETag", "\"v1\""), ("X-Fresh", "yes")])
            }
            return TestHTTPResponse(
                status: 200, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")],
                body: Data("tagged body".utf8))
        }
        let first = try await get(session, "/tagged")
        let second = try await get(session, "/tagged")
        XCTAssertEqual(first.1, .miss)
        XCTAssertEqual(second.0, "tagged body")
        XCTAssertEqual(second.1, .revalidated)
        XCTAssertEqual(second.2, 200)
        let sent = server.recordedRequests(path: "/tagged")
        XCTAssertEqual(sent.count, 2)
        XCTAssertNil(sent[0].header("If-None-Match"))
        XCTAssertEqual(sent[1].header("If-None-Match"), "\"v1\"")
        await session.shutdown()
    }

    func testLastModifiedRevalidation() async throws {
        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        let modified = "Tue, 01 Dec 2020 10:00:00 GMT"
        server.route("/dated") { request in
            if request.header("If-Modified-Since") == modified { return TestHTTPResponse(status: 304) }
            return TestHTTPResponse(
                status: 200, headers: [("Last-Modified", modified), ("Cache-Control", "max-age=0")],
                body: Data("dated".utf8))
        }
        _ = try await get(session, "/dated")
        let second = try await get(session, "/dated")
        XCTAssertEqual(second.0, "dated")
        XCTAssertEqual(second.1, .revalidated)
        XCTAssertEqual(server.recordedRequests(path: "/dated").last?.header("If-Modified-Since"), modified)
        await session.shutdown()
    }

    func testNoStoreVaryAndUnsafeMethods() async throws {
        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        _ = countingRoute("/no-store", headers: [("Cache-Control", "no-store, max-age=600")])
        _ = try await get(session, "/no-store")
        let result1 = try await get(session, "/no-store")
        XCTAssertEqual(result1.1, .miss)
        XCTAssertEqual(server.recordedRequests(path: "/no-store").count, 2)

        _ = countingRoute("/vary", headers: [("Cache-Control", "max-age=600"), ("Vary", "Accept-Language")])
        let result2 = try await get(session, "/vary", headers: ["Accept-Language": "en"])
        XCTAssertEqual(result2.1, .miss)
        let result3 = try await get(session, "/vary", headers: ["Accept-Language": "en"])
        XCTAssertEqual(result3.1, .hit)
        let result4 = try await get(session, "/vary", headers: ["Accept-Language": "fr"])
        XCTAssertEqual(result4.1, .miss)

        _ = countingRoute("/item", headers: [("Cache-Control", "max-age=600")])
        _ = try await get(session, "/item")
        let result5 = try await get(session, "/item")
        XCTAssertEqual(result5.1, .hit)
        var post = URLRequest(url: server.url("/item"))
        post.httpMethod = "POST"
        post.httpBody = Data("change".utf8)
        _ = await session.request(.urlRequest(post)).response()
        let after = try await get(session, "/item")
        XCTAssertEqual(after.1, .miss, "a POST to the URL invalidates its stored response")
        XCTAssertEqual(after.0, "answer 3")
        await session.shutdown()
    }

    func testPolicies() async throws {
        _ = countingRoute("/policy", headers: [("Cache-Control", "max-age=600"), ("ETag", "\"p\"")])
        let (offline, _) = Self.session(.memory(maxBytes: 1 << 20), policy: .onlyIfCached)
        let unavailable = try await get(offline, "/policy")
        XCTAssertEqual(unavailable.2, 504)
        XCTAssertEqual(unavailable.1, .unavailable)
        XCTAssertEqual(server.recordedRequests(path: "/policy").count, 0)
        await offline.shutdown()

        let (reload, _) = Self.session(.memory(maxBytes: 1 << 20), policy: .reloadIgnoringCache)
        _ = try await get(reload, "/policy")
        let result6 = try await get(reload, "/policy")
        XCTAssertEqual(result6.1, .miss)
        XCTAssertEqual(server.recordedRequests(path: "/policy").count, 2)
        await reload.shutdown()

        let (revalidate, _) = Self.session(.memory(maxBytes: 1 << 20), policy: .revalidate)
        _ = try await get(revalidate, "/policy")
        _ = try await get(revalidate, "/policy")
        XCTAssertEqual(server.recordedRequests(path: "/policy").last?.header("If-None-Match"), "\"p\"")
        await revalidate.shutdown()

        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        _ = try await get(session, "/policy")
        let noCache = try await get(session, "/policy", headers: ["Cache-Control": "no-cache"])
        XCTAssertEqual(noCache.1, .miss, "the request's own no-cache: revalidated, the server answered 200")
        XCTAssertEqual(server.recordedRequests(path: "/policy").last?.header("If-None-Match"), "\"p\"")
        await session.shutdown()
    }

    func testDiskEntriesServeANewSession() async throws {
        _ = countingRoute("/persist", headers: [("Cache-Control", "max-age=600")])
        let (first, _) = Self.session(.disk(directory: directory, maxBytes: 1 << 20))
        let result7 = try await get(first, "/persist")
        XCTAssertEqual(result7.1, .miss)
        await first.shutdown()
        let (second, _) = Self.session(.disk(directory: directory, maxBytes: 1 << 20))
        let again = try await get(second, "/persist")
        XCTAssertEqual(again.0, "answer 1")
        XCTAssertEqual(again.1, .hit)
        XCTAssertEqual(server.recordedRequests(path: "/persist").count, 1)
        await second.shutdown()
    }

    func testPerRequestPolicyAndCoalescingAndClearing() async throws {
        _ = countingRoute("/own", headers: [("Cache-Control", "max-age=600")])
        let (session, transport) = Self.session(.memory(maxBytes: 1 << 20), coalesces: true)
        let url = server.url("/own")
        let offline = await session.request(.url(url)).cachePolicy(.onlyIfCached).response()
        XCTAssertEqual(offline.statusCode, 504)
        XCTAssertEqual(offline.metrics?.cacheOutcome, .unavailable)
        _ = await session.request(.url(url)).response()
        let reload = await session.request(.url(url)).cachePolicy(.reloadIgnoringCache).response()
        XCTAssertEqual(reload.metrics?.cacheOutcome, .miss)
        XCTAssertEqual(try XCTUnwrap(reload.data), Data("answer 2".utf8))
        let hit = await session.request(.url(url)).response()
        XCTAssertEqual(hit.metrics?.cacheOutcome, .hit)
        XCTAssertEqual(try XCTUnwrap(hit.data), Data("answer 2".utf8), "the reload stored its response")
        session.removeAllCachedResponses()
        XCTAssertEqual(transport.cache?.store.totalBytes, 0)
        let afterClearing = await session.request(.url(url)).response()
        XCTAssertEqual(afterClearing.metrics?.cacheOutcome, .miss)
        XCTAssertEqual(server.recordedRequests(path: "/own").count, 3)

        // Opted out of coalescing: a transfer of its own while an identical one waits.
        let gate = gatedRoute("/alone")
        let aloneURL = server.url("/alone")
        let shared = Task { await session.request(.url(aloneURL)).response() }
        await waitUntil { transport.coalescer?.waitingMembers == 1 }
        let alone = Task { await session.request(.url(aloneURL)).coalescing(false).response() }
        _ = await server.waitForRequests(count: 2, path: "/alone")
        XCTAssertEqual(server.recordedRequests(path: "/alone").count, 2)
        gate.signal()
        gate.signal()
        let responses = [await shared.value, await alone.value]
        XCTAssertTrue(responses.allSatisfy { $0.error == nil })
        await session.shutdown()
    }

    func testAStubbedSessionUsesTheCacheButDoesNotCoalesce() async throws {
        let stubs = StubTransport()
        stubs.on(
            .request(.get, "/stubbed"),
            reply: StubResponse(statusCode: 200, headers: ["Cache-Control": "max-age=60"], body: Data("stub".utf8)))
        var configuration = Session.Configuration()
        configuration.cache = .memory(maxBytes: 1 << 20)
        let session = Session(configuration: configuration, transport: stubs)
        let transport = try XCTUnwrap(session.transport as? CachingTransport)
        XCTAssertNil(transport.coalescer)
        let first = await session.request("https://stub.test/stubbed", method: .get).response()
        let second = await session.request("https://stub.test/stubbed", method: .get).response()
        XCTAssertEqual(first.metrics?.cacheOutcome, .miss)
        XCTAssertEqual(second.metrics?.cacheOutcome, .hit)
        XCTAssertEqual(second.data, Data("stub".utf8))
        XCTAssertFalse(Session(transport: stubs).transport is CachingTransport, "no cache: the transport itself")
    }

    func testAResponseReachedThroughARedirectIsDeliveredButNotStored() async throws {
        let (session, _) = Self.session(.memory(maxBytes: 1 << 20))
        _ = countingRoute("/target", headers: [("Cache-Control", "max-age=600")])
        server.route("/hop") { _ in TestHTTPResponse(status: 302, headers: [("Location", "/target")]) }
        let first = await session.request(.url(server.url("/hop"))).response()
        let second = await session.request(.url(server.url("/hop"))).response()
        XCTAssertEqual(first.metrics?.cacheOutcome, .miss)
        XCTAssertEqual(second.metrics?.cacheOutcome, .miss, "stored under /hop it would answer for another URL")
        XCTAssertEqual(second.head?.url.path, "/target", "the final URL is kept")
        XCTAssertEqual(try XCTUnwrap(second.data), Data("answer 2".utf8))
        XCTAssertEqual(server.recordedRequests(path: "/target").count, 2)
        await session.shutdown()
    }

    /// A transfer can end before `execute` returns its handle (its completion runs first). The
    /// handle may hold that completion, which holds the shared token: kept then, the two would
    /// keep each other alive. A later transfer's handle (a refetch) is kept, and cancelled.
    func testASharedTokenDoesNotKeepTheHandleOfATransferThatAlreadyEnded() {
        final class Handle: TransportCancellable {
            let cancels = Locked(0)
            func cancel() { cancels.withLock { $0 += 1 } }
        }
        let shared = SharedToken()
        weak var ended: Handle?
        do {
            let first = shared.nextTransfer()
            shared.transferEnded(first)
            let handle = Handle()
            ended = handle
            shared.set(first, handle)
        }
        XCTAssertNil(ended, "the ended transfer's handle was not kept")

        let second = shared.nextTransfer()
        let refetch = Handle()
        shared.set(second, refetch)
        shared.cancel()
        XCTAssertEqual(refetch.cancels.withLock { $0 }, 1, "the running transfer's handle is kept and cancelled")
        shared.transferEnded(second)
        shared.cancel()
        XCTAssertEqual(refetch.cancels.withLock { $0 }, 1, "once ended, the handle is forgotten")
    }
}
