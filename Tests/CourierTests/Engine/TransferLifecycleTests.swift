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

    private static let failure = CourierError.transport(code: 7, message: "could not connect")

    private static var events: [Event] {
        [
            .submit(multiplexed: true), .submit(multiplexed: false), .admit, .started, .startFailed(failure),
            .pause(.download), .pause(.upload), .resume(.download), .resume(.upload),
            .hopEnded(.complete(nil)), .hopEnded(.complete(failure)), .hopEnded(.again),
            .expire(.timedOut(.request)), .expire(nil), .cancel
        ]
    }

    private static var table: [Row] {
        let failure = Self.failure
        return [
            // submitted
            Row(.submitted, .submit(multiplexed: true), .held, [.hold]),
            Row(.submitted, .submit(multiplexed: false), .starting, [.start]),
            Row(.submitted, .admit, .submitted, []),
            Row(.submitted, .started, .submitted, []),
            Row(.submitted, .startFailed(failure), .submitted, []),
            Row(.submitted, .pause(.download), .submitted, []),
            Row(.submitted, .pause(.upload), .submitted, []),
            Row(.submitted, .resume(.download), .submitted, []),
            Row(.submitted, .resume(.upload), .submitted, []),
            Row(.submitted, .hopEnded(.complete(nil)), .submitted, []),
            Row(.submitted, .hopEnded(.complete(failure)), .submitted, []),
            Row(.submitted, .hopEnded(.again), .submitted, []),
            Row(.submitted, .expire(.timedOut(.request)), .finished, [.finish(.timedOut(.request))]),
            Row(.submitted, .expire(nil), .finished, [.finish(nil)]),
            Row(.submitted, .cancel, .finished, [.finish(.cancelled)]),
            // held
            Row(.held, .submit(multiplexed: true), .held, []),
            Row(.held, .submit(multiplexed: false), .held, []),
            Row(.held, .admit, .starting, [.start]),
            Row(.held, .started, .held, []),
            Row(.held, .startFailed(failure), .held, []),
            Row(.held, .pause(.download), .held, []),
            Row(.held, .pause(.upload), .held, []),
            Row(.held, .resume(.download), .held, []),
            Row(.held, .resume(.upload), .held, []),
            Row(.held, .hopEnded(.complete(nil)), .held, []),
            Row(.held, .hopEnded(.complete(failure)), .held, []),
            Row(.held, .hopEnded(.again), .held, []),
            Row(.held, .expire(.timedOut(.request)), .finished, [.leaveAdmission, .finish(.timedOut(.request))]),
            Row(.held, .expire(nil), .finished, [.leaveAdmission, .finish(nil)]),
            Row(.held, .cancel, .finished, [.leaveAdmission, .finish(.cancelled)]),
            // starting
            Row(.starting, .submit(multiplexed: true), .starting, []),
            Row(.starting, .submit(multiplexed: false), .starting, []),
            Row(.starting, .admit, .starting, []),
            Row(.starting, .started, .active, []),
            Row(.starting, .startFailed(failure), .finished, [.detach, .finish(failure)]),
            Row(.starting, .pause(.download), .starting, []),
            Row(.starting, .pause(.upload), .starting, []),
            Row(.starting, .resume(.download), .starting, []),
            Row(.starting, .resume(.upload), .starting, []),
            Row(.starting, .hopEnded(.complete(nil)), .starting, []),
            Row(.starting, .hopEnded(.complete(failure)), .starting, []),
            Row(.starting, .hopEnded(.again), .starting, []),
            Row(.starting, .expire(.timedOut(.request)), .finished, [.detach, .finish(.timedOut(.request))]),
            Row(.starting, .expire(nil), .finished, [.detach, .finish(nil)]),
            Row(.starting, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // active
            Row(.active, .submit(multiplexed: true), .active, []),
            Row(.active, .submit(multiplexed: false), .active, []),
            Row(.active, .admit, .active, []),
            Row(.active, .started, .active, []),
            Row(.active, .startFailed(failure), .active, []),
            Row(.active, .pause(.download), .pausedReceive, []),
            Row(.active, .pause(.upload), .pausedSend, []),
            Row(.active, .resume(.download), .active, []),
            Row(.active, .resume(.upload), .active, []),
            Row(.active, .hopEnded(.complete(nil)), .finished, [.detach, .finish(nil)]),
            Row(.active, .hopEnded(.complete(failure)), .finished, [.detach, .finish(failure)]),
            Row(.active, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.active, .expire(.timedOut(.request)), .finished, [.detach, .finish(.timedOut(.request))]),
            Row(.active, .expire(nil), .finished, [.detach, .finish(nil)]),
            Row(.active, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedReceive
            Row(.pausedReceive, .submit(multiplexed: true), .pausedReceive, []),
            Row(.pausedReceive, .submit(multiplexed: false), .pausedReceive, []),
            Row(.pausedReceive, .admit, .pausedReceive, []),
            Row(.pausedReceive, .started, .pausedReceive, []),
            Row(.pausedReceive, .startFailed(failure), .pausedReceive, []),
            Row(.pausedReceive, .pause(.download), .pausedReceive, []),
            Row(.pausedReceive, .pause(.upload), .pausedBoth, []),
            Row(.pausedReceive, .resume(.download), .active, [.unpause]),
            Row(.pausedReceive, .resume(.upload), .pausedReceive, []),
            Row(.pausedReceive, .hopEnded(.complete(nil)), .finished, [.detach, .finish(nil)]),
            Row(.pausedReceive, .hopEnded(.complete(failure)), .finished, [.detach, .finish(failure)]),
            Row(.pausedReceive, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedReceive, .expire(.timedOut(.request)), .finished, [.detach, .finish(.timedOut(.request))]),
            Row(.pausedReceive, .expire(nil), .finished, [.detach, .finish(nil)]),
            Row(.pausedReceive, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedSend
            Row(.pausedSend, .submit(multiplexed: true), .pausedSend, []),
            Row(.pausedSend, .submit(multiplexed: false), .pausedSend, []),
            Row(.pausedSend, .admit, .pausedSend, []),
            Row(.pausedSend, .started, .pausedSend, []),
            Row(.pausedSend, .startFailed(failure), .pausedSend, []),
            Row(.pausedSend, .pause(.download), .pausedBoth, []),
            Row(.pausedSend, .pause(.upload), .pausedSend, []),
            Row(.pausedSend, .resume(.download), .pausedSend, []),
            Row(.pausedSend, .resume(.upload), .active, [.unpause]),
            Row(.pausedSend, .hopEnded(.complete(nil)), .finished, [.detach, .finish(nil)]),
            Row(.pausedSend, .hopEnded(.complete(failure)), .finished, [.detach, .finish(failure)]),
            Row(.pausedSend, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedSend, .expire(.timedOut(.request)), .finished, [.detach, .finish(.timedOut(.request))]),
            Row(.pausedSend, .expire(nil), .finished, [.detach, .finish(nil)]),
            Row(.pausedSend, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // pausedBoth
            Row(.pausedBoth, .submit(multiplexed: true), .pausedBoth, []),
            Row(.pausedBoth, .submit(multiplexed: false), .pausedBoth, []),
            Row(.pausedBoth, .admit, .pausedBoth, []),
            Row(.pausedBoth, .started, .pausedBoth, []),
            Row(.pausedBoth, .startFailed(failure), .pausedBoth, []),
            Row(.pausedBoth, .pause(.download), .pausedBoth, []),
            Row(.pausedBoth, .pause(.upload), .pausedBoth, []),
            Row(.pausedBoth, .resume(.download), .pausedSend, [.unpause]),
            Row(.pausedBoth, .resume(.upload), .pausedReceive, [.unpause]),
            Row(.pausedBoth, .hopEnded(.complete(nil)), .finished, [.detach, .finish(nil)]),
            Row(.pausedBoth, .hopEnded(.complete(failure)), .finished, [.detach, .finish(failure)]),
            Row(.pausedBoth, .hopEnded(.again), .submitted, [.detach, .resubmit]),
            Row(.pausedBoth, .expire(.timedOut(.request)), .finished, [.detach, .finish(.timedOut(.request))]),
            Row(.pausedBoth, .expire(nil), .finished, [.detach, .finish(nil)]),
            Row(.pausedBoth, .cancel, .finished, [.detach, .finish(.cancelled)]),
            // finished
            Row(.finished, .submit(multiplexed: true), .finished, []),
            Row(.finished, .submit(multiplexed: false), .finished, []),
            Row(.finished, .admit, .finished, []),
            Row(.finished, .started, .finished, []),
            Row(.finished, .startFailed(failure), .finished, []),
            Row(.finished, .pause(.download), .finished, []),
            Row(.finished, .pause(.upload), .finished, []),
            Row(.finished, .resume(.download), .finished, []),
            Row(.finished, .resume(.upload), .finished, []),
            Row(.finished, .hopEnded(.complete(nil)), .finished, []),
            Row(.finished, .hopEnded(.complete(failure)), .finished, []),
            Row(.finished, .hopEnded(.again), .finished, []),
            Row(.finished, .expire(.timedOut(.request)), .finished, []),
            Row(.finished, .expire(nil), .finished, []),
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
        XCTAssertEqual(Array(lifecycle.handle(.submit(multiplexed: true))), [.hold])
        XCTAssertEqual(Array(lifecycle.handle(.admit)), [.start])
        XCTAssertEqual(Array(lifecycle.handle(.started)), [])
        XCTAssertEqual(Array(lifecycle.handle(.pause(.download))), [])
        XCTAssertTrue(lifecycle.state.receivePaused)
        XCTAssertEqual(Array(lifecycle.handle(.pause(.upload))), [])
        XCTAssertEqual(lifecycle.state, .pausedBoth)
        XCTAssertEqual(Array(lifecycle.handle(.resume(.download))), [.unpause])
        XCTAssertEqual(lifecycle.state, .pausedSend)
        XCTAssertEqual(Array(lifecycle.handle(.hopEnded(.again))), [.detach, .resubmit])
        XCTAssertEqual(lifecycle.state, .submitted)
        XCTAssertFalse(lifecycle.state.isPaused)
        XCTAssertEqual(Array(lifecycle.handle(.submit(multiplexed: false))), [.start])
        XCTAssertEqual(Array(lifecycle.handle(.started)), [])
        XCTAssertEqual(Array(lifecycle.handle(.hopEnded(.complete(nil)))), [.detach, .finish(nil)])
        XCTAssertEqual(Array(lifecycle.handle(.cancel)), [])
        XCTAssertEqual(lifecycle.state, .finished)
    }

    func testOnlyStatesInTheMultiHoldAHandleThere() {
        XCTAssertEqual(
            State.allCases.filter(\.isInMulti), [.active, .pausedReceive, .pausedSend, .pausedBoth])
    }
}
