@testable import Courier
import CourierSync
import Dispatch
import Foundation
import XCTest

/// Request coalescing: the pure state machine as tables, the keys, and the locked registry.
final class CoalescingTests: XCTestCase {
    private typealias Table = CoalescingTable<String, String>

    private enum Step {
        case join(String, String)
        case finish(UInt64)
        case leave(UInt64, String)
    }

    private enum Outcome: Equatable {
        case join(Table.JoinAction)
        case finish([String])
        case leave(Table.LeaveAction)
    }

    func testStateMachineTable() {
        let rows: [(String, [Step], [Outcome], running: Int)] = [
            (
                "first starts, the next attach", [.join("k", "a"), .join("k", "b"), .join("k", "c")],
                [.join(.start(group: 1)), .join(.attach(group: 1)), .join(.attach(group: 1))], 1
            ),
            (
                "other keys start their own", [.join("k", "a"), .join("j", "b")],
                [.join(.start(group: 1)), .join(.start(group: 2))], 2
            ),
            (
                "finish delivers to every member in order", [.join("k", "a"), .join("k", "b"), .finish(1)],
                [.join(.start(group: 1)), .join(.attach(group: 1)), .finish(["a", "b"])], 0
            ),
            (
                "after finishing, the key starts anew", [.join("k", "a"), .finish(1), .join("k", "b")],
                [.join(.start(group: 1)), .finish(["a"]), .join(.start(group: 2))], 1
            ),
            (
                "one leaving detaches; the rest get the result",
                [.join("k", "a"), .join("k", "b"), .leave(1, "a"), .finish(1)],
                [.join(.start(group: 1)), .join(.attach(group: 1)), .leave(.detach), .finish(["b"])], 0
            ),
            (
                "the last leaving cancels the shared transfer",
                [.join("k", "a"), .join("k", "b"), .leave(1, "b"), .leave(1, "a")],
                [.join(.start(group: 1)), .join(.attach(group: 1)), .leave(.detach), .leave(.cancelShared)], 0
            ),
            (
                "a cancelled group's late finish delivers to no one",
                [.join("k", "a"), .leave(1, "a"), .join("k", "b"), .finish(1), .finish(2)],
                [.join(.start(group: 1)), .leave(.cancelShared), .join(.start(group: 2)), .finish([]), .finish(["b"])],
                0
            ),
            (
                "leaving twice, or after the finish",
                [.join("k", "a"), .join("k", "b"), .leave(1, "a"), .leave(1, "a"), .finish(1), .leave(1, "b")],
                [
                    .join(.start(group: 1)), .join(.attach(group: 1)), .leave(.detach), .leave(.notMember),
                    .finish(["b"]), .leave(.notMember)
                ], 0
            )
        ]
        for (name, steps, expected, running) in rows {
            var table = Table()
            var outcomes: [Outcome] = []
            for step in steps {
                switch step {
                case .join(let key, let member): outcomes.append(.join(table.join(key, member)))
                case .finish(let group): outcomes.append(.finish(table.finish(group)))
                case .leave(let group, let member): outcomes.append(.leave(table.leave(group, member)))
                }
            }
            XCTAssertEqual(outcomes, expected, name)
            XCTAssertEqual(table.runningGroups, running, name)
        }
    }

    func testKeys() {
        let url = URL(string: "https://api.example.com/items#frag")!
        let accept = [CacheHeader("Accept", "application/json")]
        let rows: [(String, CoalescingKey?, CoalescingKey?, Bool)] = [
            (
                "same GET", CoalescingKey(method: "GET", url: url, headers: accept, hasBody: false),
                CoalescingKey(
                    method: "get", url: URL(string: "https://api.example.com/items")!,
                    headers: [CacheHeader("accept", "application/json")], hasBody: false), true
            ),
            (
                "another header value", CoalescingKey(method: "GET", url: url, headers: accept, hasBody: false),
                CoalescingKey(method: "GET", url: url, headers: [CacheHeader("Accept", "text/html")], hasBody: false),
                false
            ),
            (
                "another Authorization",
                CoalescingKey(
                    method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer a")], hasBody: false),
                CoalescingKey(
                    method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer b")], hasBody: false), false
            ),
            (
                "Authorization on one only",
                CoalescingKey(
                    method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer a")], hasBody: false),
                CoalescingKey(method: "GET", url: url, headers: [], hasBody: false), false
            ),
            (
                "the same Authorization",
                CoalescingKey(
                    method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer a")], hasBody: false),
                CoalescingKey(
                    method: "GET", url: url, headers: [CacheHeader("Authorization", "Bearer a")], hasBody: false), true
            )
        ]
        for (name, first, second, equal) in rows {
            XCTAssertNotNil(first, name)
            XCTAssertEqual(first == second, equal, name)
        }
        XCTAssertNil(CoalescingKey(method: "POST", url: url, headers: [], hasBody: false))
        XCTAssertNil(CoalescingKey(method: "HEAD", url: url, headers: [], hasBody: false))
        XCTAssertNil(CoalescingKey(method: "GET", url: url, headers: [], hasBody: true))
    }

    func testRegistryDeliversOnceToEveryMemberStillWaiting() throws {
        let coalescer = RequestCoalescer<String>()
        let key = try XCTUnwrap(
            CoalescingKey(method: "GET", url: URL(string: "http://a.example/x")!, headers: [], hasBody: false))
        let received = Locked([Int: [String]]())
        var tickets: [RequestCoalescer<String>.Ticket] = []
        var starts = 0
        for member in 0..<64 {
            let (ticket, action) = coalescer.join(key) { result in
                received.withLock { $0[member, default: []].append(result) }
            }
            tickets.append(ticket)
            if case .start = action { starts += 1 }
        }
        XCTAssertEqual(starts, 1)
        XCTAssertEqual(coalescer.runningTransfers, 1)
        XCTAssertEqual(coalescer.leave(tickets[5]), .detach)
        XCTAssertEqual(coalescer.leave(tickets[0]), .detach, "the leader leaving does not cancel the others")
        coalescer.finish(tickets[1].group, with: "body")
        coalescer.finish(tickets[1].group, with: "again")
        let delivered = received.withLock { $0 }
        XCTAssertEqual(delivered.count, 62)
        XCTAssertNil(delivered[0])
        XCTAssertNil(delivered[5])
        XCTAssertTrue(delivered.values.allSatisfy { $0 == ["body"] })
        XCTAssertEqual(coalescer.runningTransfers, 0)
    }

    func testRegistryUnderConcurrentJoinsAndLeaves() throws {
        let coalescer = RequestCoalescer<Int>()
        let key = try XCTUnwrap(
            CoalescingKey(method: "GET", url: URL(string: "http://a.example/y")!, headers: [], hasBody: false))
        for round in 0..<20 {
            let deliveries = Locked([Int: Int]())
            let joined = Locked([(Int, RequestCoalescer<Int>.Ticket, Bool)]())
            DispatchQueue.concurrentPerform(iterations: 16) { member in
                let (ticket, action) = coalescer.join(key) { value in
                    deliveries.withLock { $0[member, default: 0] += value == round ? 1 : 100 }
                }
                let started: Bool
                if case .start = action { started = true } else { started = false }
                joined.withLock { $0.append((member, ticket, started)) }
            }
            let members = joined.withLock { $0 }
            XCTAssertEqual(members.filter(\.2).count, 1, "round \(round): one transfer")
            XCTAssertEqual(Set(members.map(\.1.group)).count, 1, "round \(round): one group")
            let leaving = members.filter { $0.0 % 2 == 0 }
            let actions = Locked([CoalescingTable<CoalescingKey, UInt64>.LeaveAction]())
            DispatchQueue.concurrentPerform(iterations: leaving.count) { index in
                let action = coalescer.leave(leaving[index].1)
                actions.withLock { $0.append(action) }
            }
            XCTAssertEqual(actions.withLock { $0 }, Array(repeating: .detach, count: 8), "round \(round)")
            coalescer.finish(members[0].1.group, with: round)
            let delivered = deliveries.withLock { $0 }
            XCTAssertEqual(Set(delivered.keys), Set((0..<16).filter { $0 % 2 == 1 }), "round \(round)")
            XCTAssertTrue(delivered.values.allSatisfy { $0 == 1 }, "round \(round): once each, the right result")
            XCTAssertEqual(coalescer.runningTransfers, 0)
        }
    }
}
