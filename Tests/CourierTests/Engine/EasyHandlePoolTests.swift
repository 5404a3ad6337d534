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

    /// The storage of a response head's fields stays with the handle through the pool, so the
    /// next transfer on it parses its head into the same memory.
    func testAPooledHandleKeepsItsHeadStorage() throws {
        var pool = EasyHandlePool(capacity: 2)
        var parser = ResponseHeadParser()
        for line in ["HTTP/1.1 200 OK\r\n", "Server: test\r\n", "\r\n"] {
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { parser.consume($0) })
        }
        var first = try handle(nil)
        first.headStorage = parser.takeFieldStorage()
        XCTAssertTrue(parser.fields.isEmpty)
        let capacity = first.headStorage.capacity
        let address = first.headStorage.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        XCTAssertGreaterThan(capacity, 0)
        XCTAssertTrue(first.headStorage.isEmpty)
        pool.put(first)
        guard var taken = pool.take(for: profile()) else { return XCTFail("no handle") }
        var next = ResponseHeadParser()
        next.adoptFieldStorage(taken.takeHeadStorage())
        XCTAssertTrue(taken.headStorage.isEmpty)
        XCTAssertEqual(taken.headStorage.capacity, 0)
        for line in ["HTTP/1.1 404 Not Found\r\n", "X-Next: 1\r\n", "\r\n"] {
            XCTAssertTrue(Array(line.utf8).withUnsafeBytes { next.consume($0) })
        }
        XCTAssertEqual(next.fields.pairs.map { "\($0.0)=\($0.1)" }, ["X-Next=1"])
        let reused = next.takeFieldStorage()
        XCTAssertEqual(reused.capacity, capacity)
        XCTAssertEqual(reused.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, address)
    }
}
