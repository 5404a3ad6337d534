@testable import Courier
import XCTest

/// The engine's clock value: arithmetic that rounds deadlines up and saturates instead of
/// overflowing, and agrees with `Duration`.
final class MonotonicInstantTests: XCTestCase {
    func testNowDoesNotGoBackwards() {
        var previous = MonotonicInstant.now
        for _ in 0..<1_000 {
            let next = MonotonicInstant.now
            XCTAssertGreaterThanOrEqual(next, previous)
            previous = next
        }
    }

    func testMillisecondsUntilRoundsUpAndGoesNegativeOncePassed() {
        let start = MonotonicInstant(nanoseconds: 1_000_000_000)
        let table: [(Int64, Int64)] = [
            (0, 0), (1, 1), (999_999, 1), (1_000_000, 1), (1_000_001, 2), (5_500_000, 6),
            (-1, 0), (-1_000_000, -1), (-2_500_000, -2)
        ]
        for (offset, expected) in table {
            XCTAssertEqual(
                start.milliseconds(until: MonotonicInstant(nanoseconds: start.nanoseconds + offset)), expected,
                "offset \(offset) ns")
        }
    }

    func testAddingMillisecondsSaturates() {
        let start = MonotonicInstant(nanoseconds: 5)
        XCTAssertEqual(start.adding(milliseconds: 3).nanoseconds, 3_000_005)
        XCTAssertEqual(start.adding(milliseconds: -3).nanoseconds, -2_999_995)
        XCTAssertEqual(start.adding(milliseconds: .max).nanoseconds, .max, "a huge limit is far away, not negative")
        XCTAssertEqual(start.adding(milliseconds: .min).nanoseconds, .min)
        XCTAssertEqual(MonotonicInstant(nanoseconds: .max - 10).adding(milliseconds: 1).nanoseconds, .max)
    }

    func testDurationArithmeticMatchesDuration() {
        let start = MonotonicInstant(nanoseconds: 42)
        let later = start + .milliseconds(1_500)
        XCTAssertEqual(later.nanoseconds, 1_500_000_042)
        XCTAssertEqual(later - start, .milliseconds(1_500))
        XCTAssertEqual(later - .seconds(1), MonotonicInstant(nanoseconds: 500_000_042))
        XCTAssertEqual(later.seconds(since: start), 1.5, accuracy: 1e-9)
        XCTAssertEqual(Duration.seconds(2).nanosecondCount, 2_000_000_000)
        XCTAssertEqual(Duration.nanoseconds(-7).nanosecondCount, -7)
        XCTAssertEqual(Duration.seconds(Int64.max).nanosecondCount, .max, "saturates")
    }
}
