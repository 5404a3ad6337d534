import CourierSync
import Dispatch
import XCTest

/// A continuation resumed on another thread while its task is still on its way to suspending:
/// the case where Swift's concurrency runtime hands the task back in a way ThreadSanitizer cannot
/// see. Each value must still arrive exactly once and intact.
///
/// These tests also make that case happen several times in each run, so the ThreadSanitizer run
/// of the suite shows whether `scripts/sanitizers/tsan-suppressions.txt` still matches the
/// runtime's report (and nothing else): without the suppression, the run reports a race in
/// `withUnsafeContinuation` or `withUnsafeThrowingContinuation` (see docs/reliability.md).
final class ContinuationRaceTests: XCTestCase {
    private static let tasks = 4
    private static let rounds = 20_000

    /// A `HandoffSlot` filled from a dispatch queue just after its waiter starts to wait.
    func testHandoffSlotFilledWhileItsWaiterSuspends() async {
        let queue = DispatchQueue(label: "ContinuationRaceTests.fill")
        let sums = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var sum = 0
                    for round in 0..<Self.rounds {
                        let slot = HandoffSlot<Int>()
                        let value = task * Self.rounds + round
                        queue.async { slot.fill(value) }
                        let received = await slot.wait()
                        if received == value { sum += 1 }
                    }
                    return sum
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(sums, [Int](repeating: Self.rounds, count: Self.tasks))
    }

    /// The same race through a throwing continuation, resumed with a value or an error.
    func testThrowingContinuationResumedWhileItsTaskSuspends() async {
        struct Odd: Error { let value: Int }
        let queue = DispatchQueue(label: "ContinuationRaceTests.resume")
        let sums = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var sum = 0
                    for round in 0..<Self.rounds {
                        let value = task * Self.rounds + round
                        do {
                            let received = try await withUnsafeThrowingContinuation {
                                (continuation: UnsafeContinuation<Int, any Error>) in
                                queue.async {
                                    if value % 2 == 0 {
                                        continuation.resume(returning: value)
                                    } else {
                                        continuation.resume(throwing: Odd(value: value))
                                    }
                                }
                            }
                            if received == value && value % 2 == 0 { sum += 1 }
                        } catch let odd as Odd {
                            if odd.value == value && value % 2 == 1 { sum += 1 }
                        } catch {}
                    }
                    return sum
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(sums, [Int](repeating: Self.rounds, count: Self.tasks))
    }
}
