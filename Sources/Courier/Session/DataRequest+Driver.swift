import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one driver of a request: it feeds events to the request's ``RequestStateMachine`` and
/// carries out the actions it returns, whatever the session is configured with. A request
/// without plugins or interceptors is the same machine with those steps skipped.
///
/// ``advance(_:on:)`` carries out every action that needs no waiting (sending, validation,
/// plugins' synchronous hooks, publishing) and returns the wait that comes next: a transfer, an
/// adapter or a retrier (async code of yours), or a backoff. Who waits depends on who wants the
/// response, never on the configuration; nothing runs on the engine thread:
/// - the task that first awaits the request (`response()`, `decodable(_:)`...) waits in place:
///   caller → engine → caller, two hops; adapters, plugins, retry decisions and validation run
///   in that task and see its task-local values;
/// - for completion handlers, the driver starts on the caller's thread and each wait ends on the
///   handler's queue, where the handler is then called: one hop more. Only adapters and retriers
///   (async code) run in a task, started from there.
extension DataRequest {
    /// Starts the request if it is idle and returns how the caller gets the outcome.
    private enum Entry {
        /// The outcome is in.
        case done(Outcome)
        /// The caller drives the request, starting with this action.
        case drive(RequestStateMachine.Action)
        /// Someone else drives it; the caller's waiter was registered.
        case wait
    }

    /// What the driver waits for next.
    private enum Wait {
        /// Nothing: the request is finished.
        case none
        /// The transport's result for this attempt.
        case transfer(HTTPRequest, attempt: Int)
        /// The adapters and plugins' `prepare` for this attempt (async code of yours).
        case adapt(attempt: Int)
        /// The interceptors' retry decision for this attempt (async code of yours).
        case decide(attempt: Int)
        /// A backoff of this many seconds.
        case backoff(Double)
    }

    /// The driver's working values between two waits, made when the request starts and kept
    /// under the state lock (read and written in place: see ``State/withRun(_:)``).
    struct Run {
        let extensions: RequestExtensions
        /// The extensions include plugins (read without copying them).
        let hasPlugins: Bool
        /// Made for requests with plugins or interceptors only.
        var context: RequestContext?
        /// The request as last adapted; the one sent.
        var request: HTTPRequest
        /// The same as a `URLRequest`, as the adapters and plugins left it.
        var sent: URLRequest?

        init(extensions: RequestExtensions, context: RequestContext?, request: HTTPRequest) {
            self.extensions = extensions
            hasPlugins = extensions.hasPlugins
            self.context = context
            self.request = request
        }

    }

    /// The outcome to complete with: the latest attempt's (``State/outcome``), else why the
    /// request could not be built (or a cancel, for a request that never got an outcome).
    func settled(_ state: State) -> Outcome {
        if let outcome = state.outcome { return outcome }
        switch built {
        case .success: return Outcome(request: state.run?.request, failure: .cancelled)
        case .failure(let error): return Outcome(request: nil, failure: error)
        }
    }

    /// `waiter` is registered unless the request is done (an awaiting driver, which passes none,
    /// reads the outcome when it has driven the request).
    private func enter(_ waiter: Waiter?) -> Entry {
        let sessionExtensions = session.extensions
        let base = try? built.get()
        return state.withLock { state in
            if let outcome = state.published { return .done(outcome) }
            guard state.machine.state == .idle else {
                if let waiter { state.waiters.append(waiter) }
                return .wait
            }
            if let waiter { state.waiters.append(waiter) }
            let extensions = sessionExtensions.appending(
                plugins: state.own?.plugins ?? [], interceptors: state.own?.interceptors ?? [])
            state.machine = RequestStateMachine(adapts: extensions.adapts, decides: extensions.decides)
            state.run = Run(
                extensions: extensions,
                context: extensions.adapts
                    ? RequestContext(
                        target: target, session: session, requestID: session.nextRequestID(), attempt: 0)
                    : nil,
                request: base ?? HTTPRequest.placeholder)
            return .drive(state.machine.handle(base == nil ? .invalid : .start))
        }
    }

    /// Registers `handler` for the outcome, on `queue` (the session's callback queue when nil),
    /// and starts the request if this is the first one: the driver then starts here and goes on
    /// on that queue.
    func whenComplete(on queue: DispatchQueue?, _ handler: @escaping @Sendable (Outcome) -> Void) {
        let queue = queue ?? session.configuration.callbackQueue
        switch enter(Waiter(queue: queue, deliver: handler)) {
        case .done(let outcome):
            queue.async { handler(outcome) }
        case .wait:
            break
        case .drive(let first):
            // Started on the caller's thread: a handler is not called here, even if the request
            // completes before any wait (one that could not be built).
            pump(first, on: queue, runningOnQueue: false)
        }
    }

    /// Waits for the outcome, driving the request if this task is the first to want it, and
    /// cancelling the request if the awaiting task is cancelled.
    nonisolated(nonsending) func outcome() async -> Outcome {
        await readOutcome { $0 }
    }

    /// Waits as ``outcome()`` does, then returns what `read` takes from the outcome. The driving
    /// task reads the published outcome where it is, under the state's lock (`read` must be
    /// quick): an accessor that wants only the body copies the body, not the whole response
    /// (a response copied out and destroyed cost ~450 instructions per request).
    nonisolated(nonsending) func readOutcome<T>(_ read: (Outcome) -> T) async -> T {
        // A task cancelled before it awaits cancels before anything is sent (its cancellation
        // handler would, but only after the first attempt went to the transport, and whether the
        // request reached the server then depended on how soon the engine thread picked it up).
        if Task.isCancelled { cancel() }
        switch enter(nil) {
        case .done(let outcome):
            return read(outcome)
        case .wait:
            let slot = HandoffSlot<Outcome>()
            let done = state.withLock { state -> Outcome? in
                if let outcome = state.published { return outcome }
                state.waiters.append(Waiter(queue: nil, deliver: { slot.fill($0) }))
                return nil
            }
            if let done { return read(done) }
            return read(
                await withTaskCancellationHandler {
                    await slot.wait()
                } onCancel: {
                    self.cancel()
                })
        case .drive(let first):
            await withTaskCancellationHandler {
                await drive(from: first)
            } onCancel: {
                self.cancel()
            }
            // The driver published, or a cancel did while it ran user code: the outcome is in.
            let value = state.withLock { state -> T? in
                guard state.isPublished, case .some(let outcome) = state.outcome else { return nil }
                return read(outcome)
            }
            return value ?? read(Outcome(request: nil, failure: .cancelled))
        }
    }

    /// Feeds `event` to the lifecycle.
    func handle(_ event: RequestStateMachine.Event) -> RequestStateMachine.Action {
        state.withLock { $0.machine.handle(event) }
    }

    // MARK: Waiting, in the awaiting task or on the handler's queue

    /// The awaiting task drives: it waits in place for each wait `advance` returns.
    ///
    /// Inlined, with `transfer(_:attempt:)` and `awaitOutcome()`: each async call that stays a
    /// call gets a frame of its own from the task's allocator and a hop check (together ~600
    /// instructions per request, callgrind on W2).
    @inline(__always)
    private nonisolated(nonsending) func drive(from first: RequestStateMachine.Action) async {
        var action = first
        while true {
            switch advance(action, on: nil) {
            case .none:
                return
            case .transfer(let request, let attempt):
                await transfer(request, attempt: attempt)
                action = received().next
            case .adapt(let attempt):
                action = await adapt(attempt: attempt)
            case .decide(let attempt):
                action = await decide(attempt: attempt)
            case .backoff(let seconds):
                await backoff(seconds)
                action = handle(.backoffElapsed)
            }
        }
    }

    /// Completion handlers drive: each wait ends with `pump` called again on `queue`.
    ///
    /// `runningOnQueue` says whether this runs on `queue` (handlers on it are then called at once).
    private func pump(_ action: RequestStateMachine.Action, on queue: DispatchQueue, runningOnQueue: Bool = true) {
        switch advance(action, on: runningOnQueue ? queue : nil) {
        case .none:
            break
        case .transfer(let request, let attempt):
            submit(request, attempt: attempt, queue: queue)
        case .adapt(let attempt):
            runUserCode(on: queue) { await self.adapt(attempt: attempt) }
        case .decide(let attempt):
            runUserCode(on: queue) { await self.decide(attempt: attempt) }
        case .backoff(let seconds):
            // The timer holds the request only until a cancel empties `holder`: a cancelled request
            // (and its session) is released at once, not when the backoff ends.
            let holder = Locked<DataRequest?>(self)
            let take: @Sendable () -> DataRequest? = {
                holder.withLock { request in
                    defer { request = nil }; return request
                }
            }
            let finished = state.withLock { state -> Bool in
                state.wake = { _ = take() }
                return state.isPublished
            }
            if finished { _ = take() }
            session.configuration.clock.schedule(after: seconds) {
                guard let request = take() else { return }
                queue.async { request.pump(request.handle(.backoffElapsed), on: queue) }
            }
        }
    }

    /// Goes on, once the attempt's outcome is in, on the queue the transfer was submitted with.
    func resumeOnQueue() {
        let (next, queue) = received()
        guard let queue else { return }
        pump(next, on: queue)
    }

    /// Runs an adapter or a retrier (async code of yours) in a task that starts here and goes on
    /// on `queue`; a cancel cancels it.
    private func runUserCode(
        on queue: DispatchQueue, _ work: @escaping @Sendable () async -> RequestStateMachine.Action
    ) {
        let executor = queue === session.configuration.callbackQueue ? session.callbackExecutor : QueueExecutor(queue)
        let task = Task.immediate(executorPreference: executor) {
            let next = await work()
            // Where the task is now depends on whether the user code suspended: not assumed.
            self.pump(next, on: queue, runningOnQueue: false)
        }
        let cancelNow = state.withLock { state in
            if !state.isPublished { state.driverTask = task }
            return state.machine.stopReason != nil
        }
        if cancelNow { task.cancel() }
    }

    // MARK: The actions

    /// Carries out `first` and every action after it that needs no waiting; returns what to wait
    /// for next. `queue` is the handler's queue the driver runs on, nil in an awaiting task.
    ///
    /// The working values stay in the state and are read and written field by field: a request
    /// without plugins copies none of the extensions or the context.
    private func advance(_ first: RequestStateMachine.Action, on queue: DispatchQueue?) -> Wait {
        var action = first
        while true {
            switch action {
            case .none, .cancelTransfer:
                return .none
            case .adapt(let attempt):
                if let error = interruption {
                    action = handle(.cancel(error))
                    continue
                }
                return .adapt(attempt: attempt)
            case .send(let attempt):
                // A session shut down or cancelled since the request was made fails the attempt in
                // `Session.execute`, without reaching the transport.
                let (request, plugins) = state.withLock { $0.withRun { ($0.request, $0.hasPlugins) } }
                if plugins {
                    let (extensions, context, sent) = state.withLock {
                        $0.withRun { ($0.extensions, $0.context, $0.sent) }
                    }
                    if let context, let sent { extensions.willSend(sent, context: context) }
                }
                return .transfer(request, attempt: attempt)
            case .decideRetry(let attempt):
                let asks = state.withLock {
                    $0.withRun { $0.sent != nil && !$0.extensions.interceptors.isEmpty }
                }
                if asks && interruption == nil { return .decide(attempt: attempt) }
                action = handle(.retryDecided(retryAfter: policyDelay(attempt: attempt)))
            case .wait(let seconds):
                return .backoff(seconds)
            case .complete:
                // Taken out of the working values (nothing reads them after this), not copied.
                var (taken, validators, plugins) = state.withLock { state in
                    let outcome = state.outcome.take() ?? settled(state)
                    return (outcome, state.validators, state.withRun { $0.hasPlugins })
                }
                validate(&taken, by: validators)
                if plugins {
                    let (extensions, context) = state.withLock { $0.withRun { ($0.extensions, $0.context) } }
                    taken = extensions.process(taken, context: context ?? self.context(attempt: 0))
                }
                // `.completed` and the publication in one lock: the outcome is out at once.
                var final: Outcome? = consume taken
                publish(taking: &final, on: queue, completing: true)
                return .none
            case .publish:
                // Only `.completed` leads here, and `publish(taking:on:completing:)` feeds it and
                // publishes in the same lock.
                return .none
            case .finish(let error):
                // An interruption found before an attempt: the session was shut down or cancelled.
                publish(Outcome(request: state.withLock { $0.withRun { $0.request } }, failure: error), on: queue)
                return .none
            }
        }
    }

    /// The attempt's outcome is in the run (``transportFinished(_:)``): the lifecycle goes on,
    /// and plugins see it. Returns the next action, and the queue the attempt was submitted
    /// with (nil for an awaiting driver).
    private func received() -> (next: RequestStateMachine.Action, queue: DispatchQueue?) {
        let (plugins, next, queue) = state.withLock { state in
            (state.run?.hasPlugins ?? false, state.machine.handle(.transportFinished), state.delivery.queue)
        }
        if plugins {
            // What plugins see cannot change the outcome, so the next action is already known.
            let (extensions, context, outcome) = state.withLock { state in
                let outcome = settled(state)
                return state.withRun { ($0.extensions, $0.context, outcome) }
            }
            if let context { extensions.didReceive(outcome, context: context) }
        }
        return (next, queue)
    }
}

extension DataRequest.State {
    /// Keeps `outcome` as the latest attempt's, unless the request was published already (a
    /// cancel finished it while user code ran: what that code returns later is dropped).
    mutating func record(_ outcome: consuming DataRequest.Outcome) {
        guard !isPublished else { return }
        self.outcome = outcome
    }

    /// Runs `body` on the driver's working values (made when the request started) in place:
    /// reading `run!` would copy them all (extensions, context, request) for each field.
    mutating func withRun<Result>(_ body: (inout DataRequest.Run) -> Result) -> Result {
        body(&run!)
    }
}
