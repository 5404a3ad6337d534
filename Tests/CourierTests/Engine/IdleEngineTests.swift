@testable import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An idle engine sleeps until a command comes: it runs no loop round at all, whether it never
/// served a request or served some (with time limits) and went quiet. Counts rounds, not time:
/// the idle period only gives a periodic wake-up (such as the old one every second) the chance to
/// show. `COURIER_IDLE_SECONDS` sets the period (default 1.5 s; the measurement uses 10).
final class IdleEngineTests: XCTestCase {
    private var idlePeriod: UInt64 {
        let seconds = ProcessInfo.processInfo.environment["COURIER_IDLE_SECONDS"].flatMap(Double.init) ?? 1.5
        return UInt64(seconds * 1e9)
    }

    /// The loop rounds `session` runs over the idle period, once its engine is waiting.
    private func roundsWhileIdle(_ session: Session) async throws -> Int {
        await waitUntil { session.engineIsWaiting }
        XCTAssertTrue(session.engineIsWaiting, "the engine never went to wait for commands")
        let before = try XCTUnwrap(session.engineRounds)
        try await Task.sleep(nanoseconds: idlePeriod)
        let after = try XCTUnwrap(session.engineRounds)
        XCTAssertTrue(session.engineIsWaiting)
        return after - before
    }

    func testAFreshSessionNeverWakes() async throws {
        let session = Session()
        let rounds = try await roundsWhileIdle(session)
        XCTAssertEqual(rounds, 0, "an engine with nothing to do woke \(rounds) times")
    }

    func testASessionThatServedRequestsNeverWakesWhileIdle() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        // Every transfer had a request and an idle deadline: none may outlive its transfer.
        configuration.timeouts.request = 30
        configuration.timeouts.idle = 30
        let session = Session(configuration: configuration)
        for path in ["/hello", "/bytes?size=100000", "/redirect-chain?n=2", "/status/404"] {
            let response = await session.request(.url(server.url(path))).response()
            XCTAssertNotNil(response.statusCode, path)
        }
        let rounds = try await roundsWhileIdle(session)
        XCTAssertEqual(rounds, 0, "an idle engine woke \(rounds) times")
        XCTAssertEqual(session.liveHandleCount, 0)
        // A command still wakes it at once.
        let response = await session.request(.url(server.url("/hello"))).response()
        XCTAssertEqual(response.statusCode, 200)
    }

    /// The engine thread carries a name that tools show (`top -H`, `perf`, debuggers): one that
    /// fits Linux's 15 bytes, so that the system keeps it instead of the process's name.
    func testTheEngineThreadIsNamedAsToolsShowIt() async throws {
        let session = Session()
        await waitUntil { session.engineIsWaiting }
        XCTAssertEqual(session.engineThreadName, "courier-engine")
        XCTAssertLessThanOrEqual(CurlEngine.threadName.utf8.count, 15)
    }
}
