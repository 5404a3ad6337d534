@testable import Courier
import XCTest

/// The engine's deadline heap as a pure structure: tables of operations and what they leave.
final class DeadlineQueueTests: XCTestCase {
    /// A queued thing, named for the tables.
    private final class Item: DeadlineQueueElement {
        let name: String
        var deadlineSlot = -1
        init(_ name: String) { self.name = name }
    }

    private enum Step {
        case schedule(String, Int)
        case remove(String)
        /// Pops every due key at `now`, expecting these keys in this order.
        case popDue(now: Int, expect: [String])
    }

    private func run(_ steps: [Step], next: Int?, count: Int, line: UInt = #line) {
        var queue = DeadlineQueue<Item, Int>()
        var items: [String: Item] = [:]
        func item(_ name: String) -> Item {
            if let item = items[name] { return item }
            let item = Item(name)
            items[name] = item
            return item
        }
        for step in steps {
            switch step {
            case .schedule(let name, let instant): queue.schedule(item(name), at: instant)
            case .remove(let name): queue.remove(item(name))
            case .popDue(let now, let expected):
                var popped: [String] = []
                // Bounded, so that a queue that keeps handing out an item fails instead of hanging.
                while popped.count <= items.count, let due = queue.popDue(now: now) {
                    popped.append(due.name)
                    XCTAssertEqual(due.deadlineSlot, -1, "a popped item is no longer queued", line: line)
                }
                XCTAssertEqual(popped, expected, "popDue(now: \(now))", line: line)
            }
        }
        XCTAssertEqual(queue.next, next, "next", line: line)
        XCTAssertEqual(queue.count, count, "count", line: line)
        XCTAssertEqual(queue.isEmpty, count == 0, "isEmpty", line: line)
        for (name, item) in items where queue.deadline(of: item) == nil {
            XCTAssertEqual(item.deadlineSlot, -1, "\(name) is not queued", line: line)
        }
    }

    func testTable() {
        run([], next: nil, count: 0)
        run([.popDue(now: 100, expect: [])], next: nil, count: 0)
        run([.schedule("a", 5)], next: 5, count: 1)
        run([.schedule("a", 5), .popDue(now: 4, expect: [])], next: 5, count: 1)
        run([.schedule("a", 5), .popDue(now: 5, expect: ["a"])], next: nil, count: 0)
        run(
            [.schedule("c", 30), .schedule("a", 10), .schedule("b", 20), .popDue(now: 25, expect: ["a", "b"])],
            next: 30, count: 1)
        // Moving a key later and earlier.
        run([.schedule("a", 10), .schedule("b", 20), .schedule("a", 30)], next: 20, count: 2)
        run([.schedule("a", 10), .schedule("b", 20), .schedule("b", 5)], next: 5, count: 2)
        run(
            [.schedule("a", 10), .schedule("b", 20), .schedule("a", 30), .popDue(now: 100, expect: ["b", "a"])],
            next: nil, count: 0)
        // Removing the soonest, a middle one, the last one, an unknown key, twice.
        run([.schedule("a", 10), .schedule("b", 20), .schedule("c", 30), .remove("a")], next: 20, count: 2)
        run(
            [
                .schedule("a", 10), .schedule("b", 20), .schedule("c", 30), .remove("b"),
                .popDue(now: 30, expect: ["a", "c"])
            ],
            next: nil, count: 0)
        run([.schedule("a", 10), .remove("x"), .remove("a"), .remove("a")], next: nil, count: 0)
        // Equal instants all come out.
        run(
            [.schedule("a", 7), .schedule("b", 7), .schedule("c", 8), .popDue(now: 7, expect: ["a", "b"])],
            next: 8, count: 1)
    }

    /// Many keys, moved and removed at random against a plain dictionary: every due key comes out
    /// in order, and nothing else.
    func testAgainstAModel() {
        var generator = SystemRandomNumberGenerator()
        var queue = DeadlineQueue<Item, Int>()
        var model: [Int: Int] = [:]
        let items = (0..<200).map { Item("\($0)") }
        for round in 0..<2_000 {
            let key = Int.random(in: 0..<200, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                let instant = Int.random(in: round...(round + 500), using: &generator)
                queue.schedule(items[key], at: instant)
                model[key] = instant
            case 2:
                queue.remove(items[key])
                model[key] = nil
            default:
                var popped: [(Int, Int)] = []
                // Bounded, so that a queue that keeps handing out an item fails instead of hanging.
                while popped.count <= items.count, let due = queue.popDue(now: round).flatMap({ Int($0.name) }) {
                    popped.append((model[due] ?? -1, due))
                    model[due] = nil
                }
                XCTAssertLessThanOrEqual(popped.count, items.count, "each key comes out once")
                XCTAssertEqual(popped.map(\.0), popped.map(\.0).sorted(), "due keys come out soonest first")
                XCTAssertFalse(popped.contains { $0.0 == -1 || $0.0 > round }, "only due keys come out")
                XCTAssertFalse(model.values.contains { $0 <= round }, "every due key came out")
            }
            XCTAssertEqual(queue.count, model.count)
            XCTAssertEqual(queue.next, model.values.min())
            XCTAssertEqual(queue.deadline(of: items[key]), model[key])
        }
    }

    /// How long the loop may wait in `curl_multi_poll`.
    func testPollTimeoutTable() {
        let now = MonotonicInstant.now
        let table: [(Duration?, Bool, Int32)] = [
            (nil, true, Int32.max),  // idle: only a command or a socket wakes the loop
            (nil, false, 1000),  // transfers in flight without limits: at most a second
            (.zero, false, 0), (.zero, true, 0),
            (.nanoseconds(1), false, 1),  // rounded up, never early
            (.milliseconds(5), true, 5), (.microseconds(5_500), false, 6),
            (.milliseconds(999), false, 999), (.seconds(1), false, 1000), (.seconds(3600), true, 1000),
            (.milliseconds(-5), false, 0)
        ]
        for (remaining, idle, expected) in table {
            XCTAssertEqual(
                CurlEngine.pollTimeout(until: remaining.map { now + $0 }, now: now, idle: idle), expected,
                "remaining \(String(describing: remaining)), idle \(idle)")
        }
    }
}
