/// The lifecycle of one request, as a value: each event returns the action its driver carries out.
///
/// No locks, threads, clocks or I/O: ``DataRequest`` and ``DataStreamRequest`` keep one under
/// their lock and perform what it returns (RequestDriver.swift); `RequestStateMachineTests`
/// checks every state × event pair as a table.
///
/// ```text
/// idle ──start──▶ adapting ──adapted──▶ transferring ──transportFinished──▶ deciding ──retry──▶ backingOff
///   │               │                      │          (no retriers: ▶ completing)     │            │
///   │               └──adaptationFailed──▶ completing ◀──────────doNotRetry / fail────┘   elapsed─┘ (▶ adapting)
///   └─cancel─▶ finished            cancel anywhere before completing: finished at once
/// ```
/// `adapting` is skipped when the request has no adapters or plugins, `deciding` when nothing can
/// retry it. A cancel while a transfer runs asks the transport to stop; its result then completes
/// the request without a retry. A cancel while user code runs (an adapter, a retrier) or a backoff
/// elapses finishes the request at once; what that code returns later is dropped.
struct RequestStateMachine: Equatable {
    /// Where the request is.
    enum State: Equatable {
        /// Made, not started: no response handler added, nothing awaited.
        case idle
        /// Adapters and plugins' `prepare` run for this attempt (0 for the first).
        case adapting(attempt: Int)
        /// The transport has the attempt; `cancelling` once a cancel asked it to stop.
        case transferring(attempt: Int, cancelling: Bool)
        /// Plugins' `didReceive` and the retry decision run on the attempt's result.
        case deciding(attempt: Int)
        /// Waiting before the next attempt.
        case backingOff(nextAttempt: Int)
        /// The outcome is decided: validation and plugins' `process` run on it.
        case completing
        /// The outcome is published; nothing happens any more.
        case finished
    }

    /// What happened.
    enum Event: Equatable {
        /// The first response handler or awaiting task wants the response.
        case start
        /// The same, for a request that could not be built: it completes with that error.
        case invalid
        /// A cancel: ``DataRequest/cancel()``, or the session's `cancelAll()`/`shutdown()` (the
        /// error says which).
        case cancel(CourierError)
        /// The adapters and plugins returned the request to send.
        case adapted
        /// An adapter or a plugin's `prepare` threw.
        case adaptationFailed
        /// The transport completed the attempt.
        case transportFinished
        /// The retry decision: wait this many seconds and try again, or not.
        case retryDecided(retryAfter: Double?)
        /// The backoff wait is over.
        case backoffElapsed
        /// Validation and `process` are done.
        case completed
    }

    /// What the driver does next.
    enum Action: Equatable {
        /// Nothing (the event came too late, or changes nothing).
        case none
        /// Run the adapters and plugins' `prepare` for this attempt.
        case adapt(attempt: Int)
        /// Hand this attempt to the transport.
        case send(attempt: Int)
        /// Ask the transport to stop the attempt it runs.
        case cancelTransfer
        /// Run plugins' `didReceive` and decide whether to retry this attempt.
        case decideRetry(attempt: Int)
        /// Wait this many seconds, then report ``Event/backoffElapsed``.
        case wait(seconds: Double)
        /// Validate and `process` the outcome at hand, then report ``Event/completed``.
        case complete
        /// Finish at once with this error, skipping validation (a cancel while nothing of
        /// Courier's ran, or while user code or a wait ran): stop that code or wait.
        case finish(CourierError)
        /// Publish the outcome to every waiter.
        case publish
    }

    /// Whether the request runs adapters or plugins before each attempt.
    let adapts: Bool
    /// Whether anything may retry an attempt (interceptors, plugins that see each attempt, or a
    /// retry policy allowing retries).
    let decides: Bool
    private(set) var state = State.idle
    /// A cancel or interruption that arrived; no further attempt starts after one.
    private(set) var stopReason: CourierError?

    init(adapts: Bool, decides: Bool, state: State = .idle, stopReason: CourierError? = nil) {
        self.adapts = adapts
        self.decides = decides
        self.state = state
        self.stopReason = stopReason
    }

    /// Moves to the next state and returns what to do.
    mutating func handle(_ event: Event) -> Action {
        switch (state, event) {
        case (.idle, .start):
            return begin(attempt: 0)
        case (.idle, .invalid):
            state = .completing
            return .complete
        case (.idle, .cancel(let error)):
            stopReason = error
            state = .finished
            return .finish(error)

        case (.adapting(let attempt), .adapted):
            state = .transferring(attempt: attempt, cancelling: false)
            return .send(attempt: attempt)
        case (.adapting, .adaptationFailed):
            state = .completing
            return .complete

        case (.transferring(let attempt, let cancelling), .transportFinished):
            if decides && !cancelling && stopReason == nil {
                state = .deciding(attempt: attempt)
                return .decideRetry(attempt: attempt)
            }
            state = .completing
            return .complete
        case (.transferring(let attempt, false), .cancel(let error)):
            stopReason = error
            state = .transferring(attempt: attempt, cancelling: true)
            return .cancelTransfer

        case (.deciding(let attempt), .retryDecided(let delay)):
            guard let delay, stopReason == nil else {
                state = .completing
                return .complete
            }
            state = .backingOff(nextAttempt: attempt + 1)
            return .wait(seconds: delay)

        case (.backingOff(let next), .backoffElapsed):
            return begin(attempt: next)

        case (.adapting, .cancel(let error)), (.deciding, .cancel(let error)), (.backingOff, .cancel(let error)):
            stopReason = error
            state = .finished
            return .finish(error)

        case (.completing, .completed):
            state = .finished
            return .publish

        default:
            // Late or repeated events: a second start, a cancel once the outcome is decided or the
            // transport was already asked to stop, what user code returns after a cancel finished
            // the request.
            return .none
        }
    }

    private mutating func begin(attempt: Int) -> Action {
        if adapts {
            state = .adapting(attempt: attempt)
            return .adapt(attempt: attempt)
        }
        state = .transferring(attempt: attempt, cancelling: false)
        return .send(attempt: attempt)
    }
}
