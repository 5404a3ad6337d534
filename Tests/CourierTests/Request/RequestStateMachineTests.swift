import XCTest

@testable import Courier

/// The request lifecycle as a table: every state × event pair, without sockets or threads.
final class RequestStateMachineTests: XCTestCase {
    typealias Machine = RequestStateMachine
    typealias State = Machine.State

    private let states: [(String, State)] = [
        ("idle", .idle),
        ("adapting", .adapting(attempt: 0)),
        ("transferring", .transferring(attempt: 0, cancelling: false)),
        ("cancelling", .transferring(attempt: 0, cancelling: true)),
        ("deciding", .deciding(attempt: 0)),
        ("backingOff", .backingOff(nextAttempt: 1)),
        ("completing", .completing),
        ("finished", .finished)
    ]

    private let events: [(String, Machine.Event)] = [
        ("start", .start),
        ("invalid", .invalid),
        ("cancel", .cancel(.cancelled)),
        ("adapted", .adapted),
        ("adaptationFailed", .adaptationFailed),
        ("transportFinished", .transportFinished),
        ("doNotRetry", .retryDecided(retryAfter: nil)),
        ("retry", .retryDecided(retryAfter: 2)),
        ("backoffElapsed", .backoffElapsed),
        ("completed", .completed)
    ]

    /// (state, event) → (action, next state), for a request with adapters and retriers. A pair
    /// missing here is a late event: no action, no change.
    private var table: [String: (Machine.Action, State)] {
        [
            "idle/start": (.adapt(attempt: 0), .adapting(attempt: 0)),
            // A request that could not be built completes with that error, without a transfer.
            "idle/invalid": (.complete, .completing),
            "idle/cancel": (.finish(.cancelled), .finished),

            "adapting/cancel": (.finish(.cancelled), .finished),
            "adapting/adapted": (.send(attempt: 0), .transferring(attempt: 0, cancelling: false)),
            "adapting/adaptationFailed": (.complete, .completing),

            "transferring/cancel": (.cancelTransfer, .transferring(attempt: 0, cancelling: true)),
            "transferring/transportFinished": (.decideRetry(attempt: 0), .deciding(attempt: 0)),

            // A transport result after a cancel completes the request, never a retry.
            "cancelling/transportFinished": (.complete, .completing),

            "deciding/cancel": (.finish(.cancelled), .finished),
            "deciding/doNotRetry": (.complete, .completing),
            "deciding/retry": (.wait(seconds: 2), .backingOff(nextAttempt: 1)),

            "backingOff/cancel": (.finish(.cancelled), .finished),
            "backingOff/backoffElapsed": (.adapt(attempt: 1), .adapting(attempt: 1)),

            "completing/completed": (.publish, .finished)
        ]
    }

    func testEveryStateAndEvent() {
        var rows = 0
        for (stateName, state) in states {
            for (eventName, event) in events {
                var machine = Machine(adapts: true, decides: true, state: state)
                let action = machine.handle(event)
                let expected = table["\(stateName)/\(eventName)"] ?? (.none, state)
                XCTAssertEqual(action, expected.0, "\(stateName) + \(eventName): action")
                XCTAssertEqual(machine.state, expected.1, "\(stateName) + \(eventName): next state")
                rows += 1
            }
        }
        XCTAssertEqual(rows, states.count * events.count)
        XCTAssertEqual(rows, 80)
    }

    func testARequestWithoutExtensionsIsTheSameMachineWithStepsSkipped() {
        var machine = Machine(adapts: false, decides: false)
        XCTAssertEqual(machine.handle(.start), .send(attempt: 0))
        XCTAssertEqual(machine.handle(.transportFinished), .complete)
        XCTAssertEqual(machine.handle(.completed), .publish)
        XCTAssertEqual(machine.state, .finished)

        var retrying = Machine(adapts: false, decides: true)
        XCTAssertEqual(retrying.handle(.start), .send(attempt: 0))
        XCTAssertEqual(retrying.handle(.transportFinished), .decideRetry(attempt: 0))
        XCTAssertEqual(retrying.handle(.retryDecided(retryAfter: 0.5)), .wait(seconds: 0.5))
        XCTAssertEqual(retrying.handle(.backoffElapsed), .send(attempt: 1), "no adapters: straight to the transport")
    }

    func testACancelDuringATransferStopsEveryLaterAttempt() {
        var machine = Machine(adapts: true, decides: true)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted)
        XCTAssertEqual(machine.handle(.cancel(.sessionShutDown)), .cancelTransfer)
        XCTAssertEqual(machine.handle(.cancel(.cancelled)), .none, "asked once")
        XCTAssertEqual(machine.stopReason, .sessionShutDown)
        XCTAssertEqual(machine.handle(.transportFinished), .complete, "no retry decision after a cancel")
        XCTAssertEqual(machine.handle(.cancel(.cancelled)), .none, "the outcome is decided")
        XCTAssertEqual(machine.handle(.completed), .publish)
    }

    func testWhatUserCodeReturnsAfterACancelIsDropped() {
        var machine = Machine(adapts: true, decides: true)
        _ = machine.handle(.start)
        XCTAssertEqual(machine.handle(.cancel(.cancelled)), .finish(.cancelled))
        XCTAssertEqual(machine.handle(.adapted), .none)
        XCTAssertEqual(machine.handle(.start), .none)
        XCTAssertEqual(machine.state, .finished)
    }

    func testAttemptsAreCountedAcrossRetries() {
        var machine = Machine(adapts: true, decides: true)
        var actions: [Machine.Action] = [machine.handle(.start)]
        for _ in 0..<2 {
            actions.append(machine.handle(.adapted))
            actions.append(machine.handle(.transportFinished))
            actions.append(machine.handle(.retryDecided(retryAfter: 1)))
            actions.append(machine.handle(.backoffElapsed))
        }
        actions.append(machine.handle(.adapted))
        actions.append(machine.handle(.transportFinished))
        actions.append(machine.handle(.retryDecided(retryAfter: nil)))
        actions.append(machine.handle(.completed))
        XCTAssertEqual(
            actions,
            [
                .adapt(attempt: 0), .send(attempt: 0), .decideRetry(attempt: 0), .wait(seconds: 1),
                .adapt(attempt: 1), .send(attempt: 1), .decideRetry(attempt: 1), .wait(seconds: 1),
                .adapt(attempt: 2), .send(attempt: 2), .decideRetry(attempt: 2), .complete, .publish
            ])
    }
}
