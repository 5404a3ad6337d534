import Courier
import CourierSync
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `StubTransport` behaviours: delays in virtual time, stubs that never answer, cancellation.
final class StubBehaviourTests: XCTestCase {
    typealias Profile = StubFixtures.Profile
    typealias ProfileAPI = StubFixtures.ProfileAPI
    typealias ProfileService = StubFixtures.ProfileService

    func testDelayedStubsWaitForVirtualTime() async throws {
        let clock = TestClock(mode: .manual)
        let stubs = StubTransport(behavior: .delayed(seconds: 5), clock: clock)
        let session = Session(transport: stubs)
        let finished = Counter()
        let task = Task {
            let response = await session.request(ProfileAPI.me).response()
            finished.increment()
            return response
        }
        try await clock.waitUntilPending()
        clock.advance(by: 4.9)
        XCTAssertEqual(clock.pendingCount, 1, "not due yet")
        XCTAssertEqual(finished.value, 0)
        clock.advance(by: 0.1)
        XCTAssertEqual(clock.pendingCount, 0)
        let response = await task.value
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(finished.value, 1)
    }

    func testDelayedStubsAnswerInDueOrder() async throws {
        let clock = TestClock(mode: .manual)
        let stubs = StubTransport(clock: clock)
        stubs.on(
            .request(.get, "/v1/profiles/1"), reply: StubResponse.json(Profile(name: "slow")).with(.delayed(seconds: 3))
        )
        stubs.on(
            .request(.get, "/v1/profiles/2"), reply: StubResponse.json(Profile(name: "fast")).with(.delayed(seconds: 1))
        )
        let session = Session(transport: stubs)
        let order = Locked<[String]>([])
        let slow = Task {
            let value = await ProfileService(session: session).profile(1).value;
            order.withLock { $0.append(value?.name ?? "?") }
        }
        try await clock.waitUntilPending(count: 1)
        let fast = Task {
            let value = await ProfileService(session: session).profile(2).value;
            order.withLock { $0.append(value?.name ?? "?") }
        }
        try await clock.waitUntilPending(count: 2)
        clock.advance(by: 1)
        await fast.value
        XCTAssertEqual(order.withLock { $0 }, ["fast"])
        clock.advance(by: 2)
        await slow.value
        XCTAssertEqual(order.withLock { $0 }, ["fast", "slow"])
    }

    /// Giving up is a `CourierError.timedOut` whose reason says how many were pending and awaited.
    func testWaitingForMorePendingWorkThanThereIsTimesOut() async throws {
        let clock = TestClock(mode: .manual)
        clock.schedule(after: 5) {}
        do {
            try await clock.waitUntilPending(count: 2, timeout: 0)
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error, .timedOut)
            XCTAssertEqual(
                error.reason, "TestClock.waitUntilPending: 1 piece(s) of work pending after 0.0 s, 2 awaited")
        }
    }

    func testNeverAnsweringStubsCompleteOnceWhenCancelled() async throws {
        let stubs = StubTransport(behavior: .never)
        let session = Session(transport: stubs)
        let request = session.request(ProfileAPI.me)
        let (done, calls) = expectCancellation(of: request)
        while stubs.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        request.cancel()
        request.cancel()
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(calls.value, 1)
    }

    func testSwiftTaskCancellationEndsANeverStub() async throws {
        let stubs = StubTransport()
        stubs.on(.request(.get, "/v1/me"), reply: StubResponse(behavior: .never))
        let session = Session(transport: stubs)
        let task = Task { await session.request(ProfileAPI.me).response() }
        while stubs.requests.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let response = await task.value
        XCTAssertEqual(response.error, .cancelled)
    }
}
