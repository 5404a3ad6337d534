@testable import Courier
import Foundation
import XCTest

/// The cache against the third-party httpbin: `/cache/{n}` (`Cache-Control: public, max-age=n`),
/// `/etag/{etag}` and `/cache` (304 to a conditional request), `/response-headers` (any header).
final class CacheHTTPBinTests: XCTestCase {
    private func outcome(_ session: Session, _ path: String) async throws -> (TransferMetrics.CacheOutcome?, Data?) {
        let response = await session.request(.url(try HTTPBin.url(path))).validate().response()
        XCTAssertNil(response.error, path)
        return (response.metrics?.cacheOutcome, response.data)
    }

    func testMaxAgeIsServedFromTheCache() async throws {
        let (session, _) = CachingTransportTestCase.session(.memory(maxBytes: 1 << 20))
        let first = try await outcome(session, "/cache/60")
        let second = try await outcome(session, "/cache/60")
        XCTAssertEqual(first.0, .miss)
        XCTAssertEqual(second.0, .hit)
        XCTAssertEqual(first.1, second.1)
        await session.shutdown()
    }

    func testETagIsRevalidated() async throws {
        let (session, _) = CachingTransportTestCase.session(.memory(maxBytes: 1 << 20))
        let first = try await outcome(session, "/etag/courier-v1")
        // No freshness information and no Last-Modified: stale at once, revalidated with If-None-Match.
        let second = try await outcome(session, "/etag/courier-v1")
        XCTAssertEqual(first.0, .miss)
        XCTAssertEqual(second.0, .revalidated)
        XCTAssertEqual(first.1, second.1)
        XCTAssertFalse(second.1?.isEmpty ?? true)
        await session.shutdown()
    }

    func testCacheEndpointAnswers304ToTheStoredValidators() async throws {
        let (session, _) = CachingTransportTestCase.session(.memory(maxBytes: 1 << 20))
        let first = try await outcome(session, "/cache")
        let second = try await outcome(session, "/cache")
        XCTAssertEqual(first.0, .miss)
        XCTAssertEqual(second.0, .revalidated)
        XCTAssertEqual(first.1, second.1)
        await session.shutdown()
    }

    func testNoStoreFromResponseHeaders() async throws {
        let (session, _) = CachingTransportTestCase.session(.memory(maxBytes: 1 << 20))
        let path = "/response-headers?Cache-Control=no-store,%20max-age%3D600"
        let first = try await outcome(session, path)
        let second = try await outcome(session, path)
        XCTAssertEqual(first.0, .miss)
        XCTAssertEqual(second.0, .miss)
        let fresh = "/response-headers?Cache-Control=max-age%3D600"
        _ = try await outcome(session, fresh)
        let hit = try await outcome(session, fresh)
        XCTAssertEqual(hit.0, .hit)
        await session.shutdown()
    }
}
