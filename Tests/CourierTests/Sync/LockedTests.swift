import CourierSync
import XCTest

/// `Locked` guards its value; `Locked(making:)` keeps the value its closure makes, made once.
final class LockedTests: XCTestCase {
    private struct Large {
        var numbers = [Int](repeating: 0, count: 4)
        var text = "start"
        var padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8)
    }

    func testAValueMadeInPlaceIsMadeOnceAndGuarded() {
        var calls = 0
        let lock = Locked(making: { () -> Large in
            calls += 1
            return Large()
        })
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(lock.withLock { $0.text }, "start")
        XCTAssertEqual(lock.withLock { $0.padding.7 }, 8)
        lock.withLock {
            $0.text = "changed"
            $0.numbers.append(5)
        }
        XCTAssertEqual(lock.withLock { $0.text }, "changed")
        XCTAssertEqual(lock.withLock { $0.numbers }, [0, 0, 0, 0, 5])
        XCTAssertEqual(calls, 1)
    }

    func testConcurrentIncrementsAreAllCounted() {
        let counter = Locked(making: { 0 })
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 8_000)
    }
}
