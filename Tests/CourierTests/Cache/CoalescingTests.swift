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
        let url = URL(string: "https://api.example.com/items")!
        func key(_ headers: HTTPHeaders, url: URL = url, timeout: TimeInterval? = nil) -> CoalescingKey? {
            CoalescingKey(
                method: .get, url: url, headers: headers, hasBody: false,
                scope: CoalescingKey.Scope(epoch: 0, requestTimeout: timeout, connectTimeout: 10))
        }
        let rows: [(String, CoalescingKey?, CoalescingKey?, Bool)] = [
            ("same GET", key(["Accept": "application/json"]), key(["accept": "application/json"]), true),
            ("another header value", key(["Accept": "application/json"]), key(["Accept": "text/html"]), false),
            ("another URL", key([:]), key([:], url: URL(string: "https://api.example.com/items?page=2")!), false),
            ("another Authorization", key(["Authorization": "Bearer a"]), key(["Authorization": "Bearer b"]), false),
            ("Authorization on one only", key(["Authorization": "Bearer a"]), key([:]), false),
            ("the same Authorization", key(["Authorization": "Bearer a"]), key(["Authorization": "Bearer a"]), true),
            ("another time limit", key([:], timeout: 5), key([:], timeout: 6), false),
            (
                "made after cancelAll()", key([:]),
                CoalescingKey(
                    method: .get, url: url, headers: [:], hasBody: false,
                    scope: CoalescingKey.Scope(epoch: 1, requestTimeout: nil, connectTimeout: 10)), false
            )
        ]
        for (name, first, second, equal) in rows {
            XCTAssertNotNil(first, name)
            XCTAssertEqual(first == second, equal, name)
        }
        XCTAssertNil(CoalescingKey(method: .post, url: url, headers: [:], hasBody: false))
        XCTAssertNil(CoalescingKey(method: .head, url: url, headers: [:], hasBody: false))
        XCTAssertNil(CoalescingKey(method: .get, url: url, headers: [:], hasBody: true))
    }

    private static let request = try! HTTPRequest(url: URL(string: "http://a.example/x")!)

    /// A result told apart by its status code; 0 for the cancelled result a leaving member gets.
    private static func result(_ status: Int) -> TransportResult {
        status == 0
            ? TransportResult(request: request, error: .cancelled)
            : TransportResult(request: request, statusCode: status)
    }

    func testRegistryDeliversOnceToEveryMember() throws {
        let coalescer = RequestCoalescer()
        let key = try XCTUnwrap(CoalescingKey(method: .get, url: Self.request.url, headers: [:], hasBody: false))
        let received = Locked([Int: [Int]]())
        var tickets: [RequestCoalescer.Ticket] = []
        var starts = 0
        for member in 0..<64 {
            let (ticket, action) = coalescer.join(key, leaving: Self.result(0)) { result in
                received.withLock { $0[member, default: []].append(result.statusCode ?? 0) }
            }
            tickets.append(ticket)
            if case .start = action { starts += 1 }
        }
        XCTAssertEqual(starts, 1)
        XCTAssertEqual(coalescer.runningTransfers, 1)
        XCTAssertEqual(coalescer.leave(tickets[5]), .detach)
        XCTAssertEqual(coalescer.leave(tickets[0]), .detach, "the leader leaving does not cancel the others")
        coalescer.finish(tickets[1].group, with: Self.result(200))
        coalescer.finish(tickets[1].group, with: Self.result(500))
        let delivered = received.withLock { $0 }
        XCTAssertEqual(delivered.count, 64)
        XCTAssertEqual(delivered[0], [0], "a member leaving gets the cancelled result at once, only that")
        XCTAssertEqual(delivered[5], [0])
        XCTAssertTrue(delivered.filter { $0.key != 0 && $0.key != 5 }.values.allSatisfy { $0 == [200] })
        XCTAssertEqual(coalescer.runningTransfers, 0)
        XCTAssertEqual(coalescer.leave(tickets[7]), .notMember, "after the finish: nothing more")
        XCTAssertEqual(received.withLock { $0[7] }, [200])
    }

    func testTheLastMemberLeavingCancelsTheSharedTransfer() throws {
        final class Transfer: TransportCancellable, @unchecked Sendable {
            let cancelled = Locked(0)
            func cancel() { cancelled.withLock { $0 += 1 } }
        }
        let coalescer = RequestCoalescer()
        let key = try XCTUnwrap(CoalescingKey(method: .get, url: Self.request.url, headers: [:], hasBody: false))
        let (first, action) = coalescer.join(key, leaving: Self.result(0)) { _ in }
        let (second, _) = coalescer.join(key, leaving: Self.result(0)) { _ in }
        let transfer = Transfer()
        coalescer.started(action.group, transfer: transfer)
        XCTAssertEqual(coalescer.leave(first), .detach)
        XCTAssertEqual(transfer.cancelled.withLock { $0 }, 0)
        XCTAssertEqual(coalescer.leave(second), .cancelShared)
        XCTAssertEqual(transfer.cancelled.withLock { $0 }, 1)
        // Every member left before the transfer was handed over: it is cancelled as it arrives.
        let (alone, late) = coalescer.join(key, leaving: Self.result(0)) { _ in }
        XCTAssertEqual(coalescer.leave(alone), .cancelShared)
        let lateTransfer = Transfer()
        coalescer.started(late.group, transfer: lateTransfer)
        XCTAssertEqual(lateTransfer.cancelled.withLock { $0 }, 1)
    }

    func testRegistryUnderConcurrentJoinsAndLeaves() throws {
        let coalescer = RequestCoalescer()
        let key = try XCTUnwrap(CoalescingKey(method: .get, url: Self.request.url, headers: [:], hasBody: false))
        for round in 1...20 {
            let deliveries = Locked([Int: [Int]]())
            let joined = Locked([(member: Int, ticket: RequestCoalescer.Ticket, started: Bool)]())
            DispatchQueue.concurrentPerform(iterations: 16) { member in
                let (ticket, action) = coalescer.join(key, leaving: Self.result(0)) { result in
                    deliveries.withLock { $0[member, default: []].append(result.statusCode ?? 0) }
                }
                let started: Bool
                if case .start = action { started = true } else { started = false }
                joined.withLock { $0.append((member, ticket, started)) }
            }
            let members = joined.withLock { $0 }
            XCTAssertEqual(members.filter(\.started).count, 1, "round \(round): one transfer")
            XCTAssertEqual(Set(members.map(\.ticket.group)).count, 1, "round \(round): one group")
            let leaving = members.filter { $0.member % 2 == 0 }
            let actions = Locked([CoalescingTable<CoalescingKey, UInt64>.LeaveAction]())
            DispatchQueue.concurrentPerform(iterations: leaving.count) { index in
                let action = coalescer.leave(leaving[index].ticket)
                actions.withLock { $0.append(action) }
            }
            XCTAssertEqual(actions.withLock { $0 }, Array(repeating: .detach, count: 8), "round \(round)")
            coalescer.finish(members[0].ticket.group, with: Self.result(200 + round))
            let delivered = deliveries.withLock { $0 }
            XCTAssertEqual(Set(delivered.keys), Set(0..<16), "round \(round)")
            for (member, values) in delivered {
                XCTAssertEqual(values, [member % 2 == 0 ? 0 : 200 + round], "round \(round): once each, the right one")
            }
            XCTAssertEqual(coalescer.runningTransfers, 0)
        }
    }
}
