@testable import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the tests of ``CachingTransport`` (the cache and the coalescer in front of the libcurl
/// engine) share: the in-process test server, which counts the requests that reach it, and a
/// directory for disk caches.
class CachingTransportTestCase: XCTestCase {
    var server: TestHTTPServer!
    var directory: URL!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
    }

    override func tearDown() {
        server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A session with a cache over `storage` and `policy`, coalescing if asked, and the transport
    /// in front of its engine.
    static func session(
        _ storage: Session.CacheStorage, policy: Session.CachePolicy = .useProtocol, coalesces: Bool = false
    ) -> (Session, CachingTransport) {
        var configuration = Session.Configuration()
        configuration.cache = storage
        configuration.cachePolicy = policy
        configuration.coalescesIdenticalRequests = coalesces
        let session = Session(configuration: configuration)
        return (session, session.transport as! CachingTransport)
    }

    func get(
        _ session: Session, _ path: String, headers: HTTPHeaders = [:]
    ) async throws -> (String, TransferMetrics.CacheOutcome?, Int) {
        var request = URLRequest(url: server.url(path))
        for header in headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        let response = await session.request(.urlRequest(request)).response()
        let data = try XCTUnwrap(response.data)
        return (String(decoding: data, as: UTF8.self), response.metrics?.cacheOutcome, response.head?.statusCode ?? 0)
    }

    func countingRoute(_ path: String, headers: [(String, String)]) -> Locked<Int> {
        let count = Locked(0)
        server.route(path) { _ in
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            return TestHTTPResponse(status: 200, headers: headers, body: Data("answer \(number)".utf8))
        }
        return count
    }

    /// Holds the route's answer until the test releases it, so the requests overlap for sure.
    func gatedRoute(_ path: String) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        server.route(path) { _ in
            gate.wait()
            return TestHTTPResponse(status: 200, headers: [("Cache-Control", "no-store")], body: Data("shared".utf8))
        }
        return gate
    }

    func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<2000 where !condition() { try? await Task.sleep(for: .milliseconds(5)) }
    }
}
