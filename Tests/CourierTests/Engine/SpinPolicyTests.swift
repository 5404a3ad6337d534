@testable import Courier
import XCTest

/// The spin-then-park decisions of the engine loop and of awaiting tasks, without threads or clocks.
final class SpinPolicyTests: XCTestCase {
    func testTheWindowIsTwiceTheObservedWaitWithinBounds() {
        var policy = SpinPolicy()
        XCTAssertGreaterThan(policy.window, 0, "a fresh policy spins")
        policy.observe(wait: 30_000)
        XCTAssertEqual(policy.window, 60_000)
        policy.observe(wait: 1_000)
        XCTAssertEqual(policy.window, SpinPolicy.minimumWindow, "never below the minimum")
        policy.observe(wait: 150_000)
        XCTAssertEqual(policy.window, SpinPolicy.maximumWindow, "never above the maximum")
    }

    func testSlowOrMissingEventsHalveTheWindowUntilSpinningStops() {
        var policy = SpinPolicy()
        var windows: [UInt64] = []
        for wait in [UInt64?.none, 5_000_000, nil, nil, nil] {
            policy.observe(wait: wait)
            windows.append(policy.window)
        }
        XCTAssertEqual(windows, [25_000, 12_500, 0, 0, 0], "a caller with nothing to send costs a few short spins")
    }

    func testAFastEventTurnsSpinningBackOn() {
        var policy = SpinPolicy()
        for _ in 0..<5 { policy.observe(wait: nil) }
        XCTAssertEqual(policy.window, 0)
        policy.observe(wait: 40_000)
        XCTAssertEqual(policy.window, 80_000, "waits are observed while parked too")
    }

    func testADisabledPolicyNeverSpins() {
        var policy = SpinPolicy(enabled: false)
        XCTAssertEqual(policy.window, 0)
        for wait in [UInt64?.some(1_000), 40_000, nil, 150_000] {
            policy.observe(wait: wait)
            XCTAssertEqual(policy.window, 0, "fast events do not turn a disabled policy on")
        }
    }

    func testAPreemptionParksTheNextWaitsAndRepeatedOnesParkMore() {
        var policy = SpinPolicy()
        policy.observe(wait: 30_000)
        XCTAssertEqual(policy.nextWindow(), 60_000)
        policy.observe(.preempted)
        XCTAssertEqual(policy.nextWindow(), 0, "the wait after a preemption parks at once")
        XCTAssertEqual(policy.nextWindow(), 60_000, "then spinning resumes")
        policy.observe(.preempted)
        XCTAssertEqual([policy.nextWindow(), policy.nextWindow(), policy.nextWindow()], [0, 0, 60_000])
        policy.observe(.preempted)
        XCTAssertEqual((0..<5).map { _ in policy.nextWindow() }, [0, 0, 0, 0, 60_000])
        policy.observe(.arrived(20_000))
        policy.observe(.preempted)
        XCTAssertEqual((0..<5).map { _ in policy.nextWindow() }, [0, 0, 0, 0, 60_000], "a success halves the backoff")
        for _ in 0..<20 { policy.observe(.preempted) }
        XCTAssertEqual(policy.backoff, SpinPolicy.maximumBackoff, "the backoff is bounded")
        policy.observe(.expired)
        XCTAssertEqual(policy.backoff, SpinPolicy.maximumBackoff, "a spin that ran out changes nothing")
    }

    func testADisabledPolicyIgnoresSpinResults() {
        var policy = SpinPolicy(enabled: false)
        policy.observe(.preempted)
        XCTAssertEqual(policy.nextWindow(), 0)
        XCTAssertEqual(policy.parksLeft, 0)
    }

    func testSpinReturnsOnceTheConditionHolds() {
        // A window of an hour: only the condition ends this spin, or the thread losing its CPU
        // (`.preempted`, by design: under a sanitizer on a busy machine that happened once in
        // 200 checks). A preempted spin is tried again; it must have stopped before the
        // condition held.
        for _ in 0..<20 {
            var checks = 0
            let start = DispatchTime.now().uptimeNanoseconds
            let result = SpinPolicy.spin(window: 3_600_000_000_000, since: start) {
                checks += 1
                return checks == 200
            }
            if result == .preempted {
                XCTAssertLessThan(checks, 200, "a spin reports preemption only before the condition holds")
                continue
            }
            guard case .arrived = result else { return XCTFail("\(result)") }
            XCTAssertEqual(checks, 200, "the condition is checked until it holds, and no longer")
            return
        }
        XCTFail("every one of 20 spins was preempted")
    }

    func testSpinGivesUpWhenTheWindowRunsOut() {
        var checks = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let result = SpinPolicy.spin(window: 1, since: start) {
            checks += 1
            return false
        }
        XCTAssertTrue(result == .expired || result == .preempted, "a condition that never holds does not arrive")
        XCTAssertGreaterThan(checks, 0)
    }

    func testASpinThatLosesItsThreadReportsPreemption() {
        var checks = 0
        let start = DispatchTime.now().uptimeNanoseconds
        // The first check stalls for 2 ms, as a thread descheduled mid-spin would.
        let result = SpinPolicy.spin(window: 3_600_000_000_000, since: start) {
            checks += 1
            if checks == 1 { usleep(2_000) }
            return false
        }
        XCTAssertEqual(result, .preempted)
        XCTAssertEqual(checks, 64, "found at the first clock reading")
    }

    func testAZeroWindowDoesNotSpinAtAll() {
        var checks = 0
        let result = SpinPolicy.spin(window: 0, since: DispatchTime.now().uptimeNanoseconds) {
            checks += 1
            return true
        }
        XCTAssertEqual(result, .expired)
        XCTAssertEqual(checks, 0)
    }
}
