@testable import Courier
import XCTest

/// The pool of easy handles: which handle a new transfer gets, and that a full pool takes no more.
/// Real easy handles, no sockets.
final class EasyHandlePoolTests: XCTestCase {
    private func profile(http11: Bool = false) -> HandleProfile {
        var options = TransferOptions(configuration: Session.Configuration())
        if http11 { options.maxHTTPVersion = .http1_1 }
        return HandleProfile(options)
    }

    private func handle(_ profile: HandleProfile?) throws -> EasyHandle {
        guard var handle = EasyHandle() else { throw XCTSkip("libcurl cannot make an easy handle") }
        handle.profile = profile
        return handle
    }

    /// True when the pool gave no handle (XCTest's assertions take copyable values only).
    private func isNone(_ handle: consuming EasyHandle?) -> Bool {
        switch consume handle {
        case .none: return true
        case .some: return false
        }
    }

    func testAnEmptyPoolHasNoHandle() {
        var pool = EasyHandlePool(capacity: 4)
        XCTAssertTrue(pool.isEmpty)
        XCTAssertTrue(isNone(pool.take(for: profile())))
    }

    func testAHandleWithTheSameProfileIsPreferredOverALaterOne() throws {
        let wanted = profile()
        let other = profile(http11: true)
        var pool = EasyHandlePool(capacity: 4)
        let first = try handle(wanted)
        let firstPointer = first.pointer
        pool.put(first)
        pool.put(try handle(other))
        guard let taken = pool.take(for: wanted) else { return XCTFail("no handle") }
        XCTAssertEqual(taken.pointer, firstPointer)
        XCTAssertTrue(taken.profile?.matches(wanted) ?? false)
        XCTAssertFalse(pool.isEmpty)
    }

    func testAResetHandleFitsAnyProfile() throws {
        var pool = EasyHandlePool(capacity: 4)
        pool.put(try handle(profile(http11: true)))
        pool.put(try handle(nil))
        guard let taken = pool.take(for: profile()) else { return XCTFail("no handle") }
        XCTAssertNil(taken.profile)
    }

    func testWithNoFittingHandleTheLastOneComesWithItsOwnProfile() throws {
        var pool = EasyHandlePool(capacity: 4)
        pool.put(try handle(profile(http11: true)))
        guard let taken = pool.take(for: profile()) else { return XCTFail("no handle") }
        // The loop resets such a handle before use (CurlEngineLoop.obtainHandle).
        XCTAssertFalse(taken.profile?.matches(profile()) ?? true)
        XCTAssertTrue(pool.isEmpty)
    }

    func testAFullPoolTakesNoMoreHandles() throws {
        var pool = EasyHandlePool(capacity: 1)
        pool.put(try handle(nil))
        pool.put(try handle(nil))  // freed, not kept
        XCTAssertFalse(isNone(pool.take(for: profile())))
        XCTAssertTrue(isNone(pool.take(for: profile())))
    }
}
