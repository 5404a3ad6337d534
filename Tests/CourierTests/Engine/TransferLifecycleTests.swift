@testable import Courier
import XCTest

/// The transfer state machine as a table: every state against every event, without sockets.
final class TransferLifecycleTests: XCTestCase {
    private typealias Lifecycle = TransferLifecycle
    private typealias State = TransferLifecycle.State
    private typealias Event = TransferLifecycle.Event
    private typealias Action = TransferLifecycle.Action

    private struct Row {
        let state: State
        let event: Event
        let next: State
        let actions: [Action]
        let line: UInt

        init(_ state: State, _ event: Event, _ next: State, _ actions: [Action], line: UInt = #line) {
            (self.state, self.event, self.next, self.actions, self.line) = (state, event, next, actions, line)
        }
    }

    private static var events: [Event] {
        [
            .submit(multiplexed: true), .submit(multiplexed: false), .admit, .started, .startFailed,
            .pause(.download), .pause(.upload), .resume(.download), .resume(.upload),
            .hopEnded(.complete), .hopEnded(.again), .expire, .cancel
        ]
    }

    private static var table: [Row] {
        [
            // submitted
            Row(.submitted, .submit(multiplexed: true), .held, [.hold]),
            Row(.submitted, .submit(multiplexed: false), .starting, [.start]),
            Row(.submitted, .admit, .submitted, []),
            Row(.submitted, .started, .submitted, []),
            Row(.submitted, .startFailed, .submitted, []),
            Row(.submitted, .pause(.download), .submitted, []),
            Row(.submitted, .pause(.upload), .submitted, []),
            Row(.submitted, .resume(.download), .submitted, []),
            Row(.submitted, .resume(.upload), .submitted, []),
            Row(.submitted, .hopEnded(.complete), .submitted, []),
            Row(.submitted, .hopEnded(.again), .submitted, []),
            Row(.submitted, .expire, .finished, [.finish(.eventResult)]),
            Row(.submitted, .cancel, .finished, [.finish(.cancelled)]),
            // held
            Row(.held, .submit(multiplexed: true), .held, []),
            Row(.held, .submit(multiplexed: false), .held, []),
            Row(.held, .admit, .starting, [.start]),
            Row(.held, .started, .held, []),
            Row(.held, .startFailed, .held, []),
            Row(.held, .pause(.download), .held, []),
            Row(.held, .pause(.upload), .held, []),
            Row(.held, .resume(.download), .held, []),
            Row(.held, .resume(.upload), .held, []),
            Row(.held, .hopEnded(.complete), .held, []),
            Row(.held, .hopEnded(.again), .held, []),
            Row(.held, .expire, .finished, [.leaveAdmission, .finish(.eventResult)]),
            Row(.held, .cancel, .finished, [.leaveAdmission, .finish(.cancelled)]),
            // starting
            Row(.starting, .submit(multiplexed: true), .starting, []),
            Row(.starting, .submit(multiplexed: false), .starting, []),
            Row(.starting, .admit, .starting, []),
            Row(.starting, .started, .active, []),
            Row(.starting, .startFailed, .finished, [.detach, .finish(.eventResult)]),
            Row(.starting, .pause(.download), .starting, []),
            Row(.starting, .pause(.upload), .starting, []),
            Row(.starting, .resume(.download), .starting, []),
            Row(.starting, .resume(.upload), .starting, []),
            Row(.starting, .hopEnded(.complete), .starting, []),
            Row(.starting, .hopEnded(.again), .starting, []),
            Row(.starting, .expire, .finished, [.detach, .finish(.eventResult)]),
            Row(.starting, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // active
            Row(.active, .submit(multiplexed: true), .active, []),
            Row(.active, .submit(multiplexed: false), .active, []),
            Row(.active, .admit, .active, []),
            Row(.active, .started, .active, []),
            Row(.active, .startFailed, .active, []),
            Row(.active, .pause(.download), .pausedReceive, []),
            Row(.active, .pause(.upload), .pausedSend, []),
            Row(.active, .resume(.download), .active, []),
            Row(.active, .resume(.upload), .active, []),
            Row(.active, .hopEnded(.complete), .finished, [.detach, .finish(.eventResult)]),
            Row(.active, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.active, .expire, .finished, [.detach, .finish(.eventResult)]),
            Row(.active, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedReceive
            Row(.pausedReceive, .submit(multiplexed: true), .pausedReceive, []),
            Row(.pausedReceive, .submit(multiplexed: false), .pausedReceive, []),
            Row(.pausedReceive, .admit, .pausedReceive, []),
            Row(.pausedReceive, .started, .pausedReceive, []),
            Row(.pausedReceive, .startFailed, .pausedReceive, []),
            Row(.pausedReceive, .pause(.download), .pausedReceive, []),
            Row(.pausedReceive, .pause(.upload), .pausedBoth, []),
            Row(.pausedReceive, .resume(.download), .active, [.unpause]),
            Row(.pausedReceive, .resume(.upload), .pausedReceive, []),
            Row(.pausedReceive, .hopEnded(.complete), .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedReceive, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedReceive, .expire, .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedReceive, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedSend
            Row(.pausedSend, .submit(multiplexed: true), .pausedSend, []),
            Row(.pausedSend, .submit(multiplexed: false), .pausedSend, []),
            Row(.pausedSend, .admit, .pausedSend, []),
            Row(.pausedSend, .started, .pausedSend, []),
            Row(.pausedSend, .startFailed, .pausedSend, []),
            Row(.pausedSend, .pause(.download), .pausedBoth, []),
            Row(.pausedSend, .pause(.upload), .pausedSend, []),
            Row(.pausedSend, .resume(.download), .pausedSend, []),
            Row(.pausedSend, .resume(.upload), .active, [.unpause]),
            Row(.pausedSend, .hopEnded(.complete), .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedSend, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedSend, .expire, .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedSend, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedBoth
            Row(.pausedBoth, .submit(multiplexed: true), .pausedBoth, []),
            Row(.pausedBoth, .submit(multiplexed: false), .pausedBoth, []),
            Row(.pausedBoth, .admit, .pausedBoth, []),
            Row(.pausedBoth, .started, .pausedBoth, []),
            Row(.pausedBoth, .startFailed, .pausedBoth, []),
            Row(.pausedBoth, .pause(.download), .pausedBoth, []),
            Row(.pausedBoth, .pause(.upload), .pausedBoth, []),
            Row(.pausedBoth, .resume(.download), .pausedSend, [.unpause]),
            Row(.pausedBoth, .resume(.upload), .pausedReceive, [.unpause]),
            Row(.pausedBoth, .hopEnded(.complete), .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedBoth, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedBoth, .expire, .finished, [.detach, .finish(.eventResult)]),
            Row(.pausedBoth, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // finished
            Row(.finished, .submit(multiplexed: true), .finished, []),
            Row(.finished, .submit(multiplexed: false), .finished, []),
            Row(.finished, .admit, .finished, []),
            Row(.finished, .started, .finished, []),
            Row(.finished, .startFailed, .finished, []),
            Row(.finished, .pause(.download), .finished, []),
            Row(.finished, .pause(.upload), .finished, []),
            Row(.finished, .resume(.download), .finished, []),
            Row(.finished, .resume(.upload), .finished, []),
            Row(.finished, .hopEnded(.complete), .finished, []),
            Row(.finished, .hopEnded(.again), .finished, []),
            Row(.finished, .expire, .finished, []),
            Row(.finished, .cancel, .finished, [])
        ]
    }

    func testEveryStateAndEventHasTheExpectedRow() {
        let table = Self.table
        XCTAssertEqual(table.count, State.allCases.count * Self.events.count)
        for state in State.allCases {
            for event in Self.events {
                XCTAssertEqual(
                    table.filter { $0.state == state && $0.event == event }.count, 1,
                    "one row for \(state) × \(event)")
            }
        }
        for row in table {
            let (next, actions) = Lifecycle.transition(from: row.state, on: row.event)
            XCTAssertEqual(next, row.next, "\(row.state) × \(row.event)", line: row.line)
            XCTAssertEqual(Array(actions), row.actions, "\(row.state) × \(row.event)", line: row.line)
        }
    }

    /// Whatever happens after the first finish, no second result is asked for.
    func testEveryPathFinishesAtMostOnce() {
        for state in State.allCases {
            for first in Self.events {
                for second in Self.events {
                    var finishes = 0
                    var (current, actions) = Lifecycle.transition(from: state, on: first)
                    finishes += actions.filter { if case .finish = $0 { return true } else { return false } }.count
                    (current, actions) = Lifecycle.transition(from: current, on: second)
                    finishes += actions.filter { if case .finish = $0 { return true } else { return false } }.count
                    if state == .finished { XCTAssertEqual(finishes, 0) }
                    XCTAssertLessThanOrEqual(finishes, 1, "\(state) → \(first) → \(second)")
                }
            }
        }
    }

    /// A streamed download over HTTP/2 that pauses, resumes, follows a redirect and completes.
    func testStreamedTransferThroughARedirect() {
        var lifecycle = Lifecycle()
        XCTAssertEqual(Array(lifecycle.handle(.submit(multiplexed: true)).actions), [.hold])
        XCTAssertEqual(Array(lifecycle.handle(.admit).actions), [.start])
        XCTAssertEqual(Array(lifecycle.handle(.started).actions), [])
        XCTAssertEqual(Array(lifecycle.handle(.pause(.download)).actions), [])
        XCTAssertTrue(lifecycle.state.receivePaused)
        XCTAssertEqual(Array(lifecycle.handle(.pause(.upload)).actions), [])
        XCTAssertEqual(lifecycle.state, .pausedBoth)
        XCTAssertEqual(Array(lifecycle.handle(.resume(.download)).actions), [.unpause])
        XCTAssertEqual(lifecycle.state, .pausedSend)
        XCTAssertEqual(Array(lifecycle.handle(.hopEnded(.again)).actions), [.detach, .resubmit])
        XCTAssertEqual(lifecycle.state, .submitted)
        XCTAssertFalse(lifecycle.state.isPaused)
        XCTAssertEqual(Array(lifecycle.handle(.submit(multiplexed: false)).actions), [.start])
        XCTAssertEqual(Array(lifecycle.handle(.started).actions), [])
        XCTAssertEqual(Array(lifecycle.handle(.hopEnded(.complete)).actions), [.detach, .finish(.eventResult)])
        XCTAssertEqual(Array(lifecycle.handle(.cancel).actions), [])
        XCTAssertEqual(lifecycle.state, .finished)
    }

    func testOnlyStatesInTheMultiHoldAHandleThere() {
        XCTAssertEqual(
            State.allCases.filter(\.isInMulti), [.active, .pausedReceive, .pausedSend, .pausedBoth])
    }
}
