import CourierSync
import Dispatch
import XCTest

/// A continuation resumed on another thread while its task is still on its way to suspending:
/// the case where Swift's concurrency runtime hands the task back in a way ThreadSanitizer cannot
/// see. Each value must still arrive exactly once and intact.
///
/// The last two tests also make that case happen tens of times in each run, in both forms, so the
/// ThreadSanitizer run of the suite shows whether `scripts/sanitizers/tsan-suppressions.txt` still
/// matches the runtime's report (and nothing else): without the suppression, the run reports a
/// race in `withUnsafeContinuation` and in `withUnsafeThrowingContinuation` (docs/reliability.md).
final class ContinuationRaceTests: XCTestCase {
    private static let tasks = 4
    private static let rounds = 20_000

    /// Runs `round` for values 0 to `tasks × rounds - 1`, in `tasks` tasks at once, and returns
    /// how many rounds each task saw succeed.
    private func countSuccesses(_ round: @escaping @Sendable (Int) async -> Bool) async -> [Int] {
        await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var successes = 0
                    for value in task * Self.rounds..<(task + 1) * Self.rounds where await round(value) {
                        successes += 1
                    }
                    return successes
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
    }

    /// A `HandoffSlot` filled from a dispatch queue just after its waiter starts to wait.
    func testHandoffSlotFilledWhileItsWaiterSuspends() async {
        let queue = DispatchQueue(label: "ContinuationRaceTests.fill")
        let successes = await countSuccesses { value in
            let slot = HandoffSlot<Int>()
            queue.async { slot.fill(value) }
            return await slot.wait() == value
        }
        XCTAssertEqual(successes, [Int](repeating: Self.rounds, count: Self.tasks))
    }

    /// A continuation resumed from a dispatch queue that its own closure starts, so that the
    /// resume usually lands while the task is suspending.
    func testContinuationResumedWhileItsTaskSuspends() async {
        let queue = DispatchQueue(label: "ContinuationRaceTests.resume")
        let successes = await countSuccesses { value in
            let received = await withUnsafeContinuation { (continuation: UnsafeContinuation<Int, Never>) in
                queue.async { continuation.resume(returning: value) }
            }
            return received == value
        }
        XCTAssertEqual(successes, [Int](repeating: Self.rounds, count: Self.tasks))
    }

    /// The same through a throwing continuation, resumed with a value or an error.
    func testThrowingContinuationResumedWhileItsTaskSuspends() async {
        struct Odd: Error { let value: Int }
        let queue = DispatchQueue(label: "ContinuationRaceTests.resumeOrThrow")
        let successes = await countSuccesses { value in
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
                return received == value && value % 2 == 0
            } catch let odd as Odd {
                return odd.value == value && value % 2 == 1
            } catch {
                return false
            }
        }
        XCTAssertEqual(successes, [Int](repeating: Self.rounds, count: Self.tasks))
    }
}
