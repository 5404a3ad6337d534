/// Where a transfer stands in the engine, and what the loop does when something happens to it.
///
/// A pure state machine: no locks, threads, clocks or I/O. The loop (and, for a pause, a libcurl
/// callback of the transfer itself) feeds it events; it answers with the next state and at most
/// two actions, which the loop carries out (CurlEngineLoop+Transfers.swift). Every state has an
/// answer to every event: one that cannot happen in a state changes nothing and asks for nothing.
///
/// ```
/// submitted ─submit(multiplexed)─▶ held ─admit─▶ starting ─started─▶ active ⇄ paused…
///     └────────submit(direct)─────────────────────▲                     │
///     ▲                                                                 │ hopEnded(.again)
///     └─────────────────────────────────────────────────────────────────┘
/// any state but finished ─cancel / expire / startFailed / hopEnded(.complete)─▶ finished
/// ```
struct TransferLifecycle: Equatable {
    enum State: Equatable, CaseIterable {
        /// Taken by the loop (a new request, or the next hop of one), not yet placed.
        case submitted
        /// Waiting in the engine's ``StreamAdmission`` for an HTTP/2 stream to be likely free.
        case held
        /// Its handle is being configured and added to the multi.
        case starting
        /// Its handle is in the multi and moving bytes.
        case active
        /// In the multi, receiving paused: the response stream's reader is a window behind.
        case pausedReceive
        /// In the multi, sending paused: the upload stream's producer has nothing ready.
        case pausedSend
        /// In the multi, both directions paused.
        case pausedBoth
        /// Its result was delivered; nothing more happens to it.
        case finished

        /// The handle is in the multi.
        var isInMulti: Bool {
            switch self {
            case .active, .pausedReceive, .pausedSend, .pausedBoth: return true
            case .submitted, .held, .starting, .finished: return false
            }
        }

        /// Receiving is paused by Courier (backpressure).
        var receivePaused: Bool { self == .pausedReceive || self == .pausedBoth }
        /// Sending is paused by Courier (backpressure).
        var sendPaused: Bool { self == .pausedSend || self == .pausedBoth }
        /// Either direction is paused by Courier.
        var isPaused: Bool { receivePaused || sendPaused }
    }

    /// How libcurl's hop ended, as the loop judged it.
    enum HopEnd: Equatable {
        /// The request is over (the loop holds its result: an error or none).
        case complete
        /// Another hop follows: a redirect to follow, or the same request sent again.
        case again
    }

    /// Events and actions carry no error: the loop keeps the result that goes with an event
    /// (see ``FinishReason``), so every value here is a few bytes, copied without the runtime.
    enum Event: Equatable {
        /// The loop takes the transfer; `multiplexed` when its origin may be HTTP/2 (admission).
        case submit(multiplexed: Bool)
        /// ``StreamAdmission`` lets the held transfer start.
        case admit
        /// Its handle is in the multi.
        case started
        /// Configuring or adding its handle failed (with the loop's error).
        case startFailed
        /// A callback paused `direction` (the stream's reader or producer is behind).
        case pause(TransferDirection)
        /// The reader or producer caught up with `direction`.
        case resume(TransferDirection)
        /// libcurl finished the hop.
        case hopEnded(HopEnd)
        /// A time limit passed (the loop's result: a timeout, or a status delivered alone).
        case expire
        /// The caller cancelled it, or the session cancelled everything or shut down.
        case cancel
    }

    /// Why a transfer finishes, which says what its result is.
    enum FinishReason: Equatable {
        /// ``CourierError/cancelled``.
        case cancelled
        /// The result that came with the event: the hop's outcome, the start failure, the timeout.
        case eventResult
    }

    enum Action: Equatable {
        /// Queue in ``StreamAdmission`` (and keep the request deadline).
        case hold
        /// Configure a handle and add it to the multi; then report `started` or `startFailed`.
        case start
        /// Leave the admission queue and the deadlines.
        case leaveAdmission
        /// Take the handle out of the multi (if it is there) and give it back to the pool.
        case detach
        /// Call `curl_easy_pause` with the directions still paused in the new state.
        case unpause
        /// Prepare the next hop and submit the transfer again.
        case resubmit
        /// Deliver the result (exactly once).
        case finish(FinishReason)
    }

    /// Up to two actions, in order, without an allocation.
    struct Actions: Equatable, Sequence, IteratorProtocol {
        private var first: Action?
        private var second: Action?

        init(_ first: Action? = nil, _ second: Action? = nil) {
            self.first = first
            self.second = second
        }

        static var none: Actions { Actions() }

        mutating func next() -> Action? {
            defer { (first, second) = (second, nil) }
            return first
        }

        var isEmpty: Bool { first == nil }
    }

    /// One transition: the states before and after, and what the loop must do.
    struct Step {
        let from: State
        let to: State
        let actions: Actions
    }

    private(set) var state = State.submitted

    /// Moves to the next state for `event`; returns what the loop must do.
    mutating func handle(_ event: Event) -> Step {
        let from = state
        let (next, actions) = Self.transition(from: from, on: event)
        state = next
        return Step(from: from, to: next, actions: actions)
    }

    /// The whole table: the next state and the actions for `event` in `state`.
    static func transition(from state: State, on event: Event) -> (State, Actions) {
        switch (state, event) {
        case (.finished, _):
            return (.finished, .none)

        case (_, .cancel):
            return end(from: state, with: .cancelled)
        case (_, .expire):
            return end(from: state, with: .eventResult)

        case (.submitted, .submit(let multiplexed)):
            return multiplexed ? (.held, Actions(.hold)) : (.starting, Actions(.start))
        case (.held, .admit):
            return (.starting, Actions(.start))
        case (.starting, .started):
            return (.active, .none)
        case (.starting, .startFailed):
            return (.finished, Actions(.detach, .finish(.eventResult)))

        case (.active, .pause(.download)), (.pausedReceive, .pause(.download)):
            return (.pausedReceive, .none)
        case (.active, .pause(.upload)), (.pausedSend, .pause(.upload)):
            return (.pausedSend, .none)
        case (.pausedReceive, .pause(.upload)), (.pausedSend, .pause(.download)), (.pausedBoth, .pause):
            return (.pausedBoth, .none)
        case (.pausedReceive, .resume(.download)), (.pausedSend, .resume(.upload)):
            return (.active, Actions(.unpause))
        case (.pausedBoth, .resume(.download)):
            return (.pausedSend, Actions(.unpause))
        case (.pausedBoth, .resume(.upload)):
            return (.pausedReceive, Actions(.unpause))

        case (.active, .hopEnded(let end)), (.pausedReceive, .hopEnded(let end)),
            (.pausedSend, .hopEnded(let end)), (.pausedBoth, .hopEnded(let end)):
            switch end {
            case .complete: return (.finished, Actions(.detach, .finish(.eventResult)))
            case .again: return (.submitted, Actions(.detach, .resubmit))
            }

        default:
            // Cannot happen in this state (a late resume, a second submit): nothing changes.
            return (state, .none)
        }
    }

    /// Ends the transfer from `state` for `reason`, undoing what that state holds.
    private static func end(from state: State, with reason: FinishReason) -> (State, Actions) {
        switch state {
        case .submitted: return (.finished, Actions(.finish(reason)))
        case .held: return (.finished, Actions(.leaveAdmission, .finish(reason)))
        case .starting, .active, .pausedReceive, .pausedSend, .pausedBoth:
            return (.finished, Actions(.detach, .finish(reason)))
        case .finished: return (.finished, .none)
        }
    }
}
