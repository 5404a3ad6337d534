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
/// The driver runs where the response is wanted, never on the engine thread:
/// - in the task that first awaits the request (`response()`, `decodable(_:)`...): caller →
///   engine → caller, two hops; adapters, plugins, retry decisions and validation run in that
///   task and see its task-local values;
/// - for completion handlers, in a task that starts on the caller's thread and continues on the
///   handler's queue, where it calls the handler: one hop more.
extension DataRequest {
    /// Starts the request if it is idle and returns how the caller gets the outcome.
    private enum Entry {
        /// The outcome is in.
        case done(Outcome)
        /// The caller drives the request, starting with this action.
        case drive(RequestStateMachine.Action, RequestExtensions)
        /// Someone else drives it; the caller's waiter was registered.
        case wait
    }

    /// `waiter` is registered unless the request is done (an awaiting driver, which passes none,
    /// reads the outcome when it has driven the request).
    private func enter(_ waiter: Waiter?) -> Entry {
        let invalid = if case .failure = built { true } else { false }
        let sessionExtensions = session.extensions
        return state.withLock { state in
            if let outcome = state.outcome { return .done(outcome) }
            guard state.machine.state == .idle else {
                if let waiter { state.waiters.append(waiter) }
                return .wait
            }
            if let waiter { state.waiters.append(waiter) }
            let extensions = sessionExtensions.appending(
                plugins: state.own?.plugins ?? [], interceptors: state.own?.interceptors ?? [])
            state.machine = RequestStateMachine(adapts: extensions.adapts, decides: extensions.decides)
            return .drive(state.machine.handle(invalid ? .invalid : .start), extensions)
        }
    }

    /// Registers `handler` for the outcome, on `queue` (the session's callback queue when nil),
    /// and starts the request if this is the first one: then a task on that queue drives it.
    func whenComplete(on queue: DispatchQueue?, _ handler: @escaping @Sendable (Outcome) -> Void) {
        let queue = queue ?? session.configuration.callbackQueue
        switch enter(Waiter(queue: queue, deliver: handler)) {
        case .done(let outcome):
            queue.async { handler(outcome) }
        case .wait:
            break
        case .drive(let first, let extensions):
            // Runs here until its first suspension (no hop to start), then on the queue.
            let executor =
                queue === session.configuration.callbackQueue ? session.callbackExecutor : QueueExecutor(queue)
            let task = Task.immediate(executorPreference: executor) {
                await self.drive(from: first, extensions: extensions, on: queue)
            }
            let cancelNow = state.withLock { state in
                if state.outcome == nil { state.driverTask = task }
                return state.machine.stopReason != nil
            }
            if cancelNow { task.cancel() }
        }
    }

    /// Waits for the outcome, driving the request if this task is the first to want it, and
    /// cancelling the request if the awaiting task is cancelled.
    func outcome() async -> Outcome {
        switch enter(nil) {
        case .done(let outcome):
            return outcome
        case .wait:
            let slot = HandoffSlot<Outcome>()
            let done = state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(Waiter(queue: nil, deliver: { slot.fill($0) }))
                return nil
            }
            if let done { return done }
            return await withTaskCancellationHandler {
                await slot.wait()
            } onCancel: {
                self.cancel()
            }
        case .drive(let first, let extensions):
            await withTaskCancellationHandler {
                await drive(from: first, extensions: extensions, on: nil)
            } onCancel: {
                self.cancel()
            }
            // The driver published, or a cancel did while it ran user code: the outcome is in.
            return state.withLock { $0.outcome }
                ?? Outcome(request: nil, failure: .cancelled)
        }
    }

    /// Feeds `event` to the lifecycle.
    private func handle(_ event: RequestStateMachine.Event) -> RequestStateMachine.Action {
        state.withLock { $0.machine.handle(event) }
    }

    /// Carries out `first` and every action after it, until the request is finished; `queue` is
    /// the completion handler's queue the driver runs on, nil in an awaiting task (which spins
    /// briefly before its first transfer suspends it, see ``AwaitSpinner``).
    private func drive(
        from first: RequestStateMachine.Action, extensions: RequestExtensions, on queue: DispatchQueue?
    ) async {
        let base: HTTPRequest
        switch built {
        case .success(let request): base = request
        case .failure(let error):
            var failed = Outcome(request: nil, failure: error)
            if first == .complete, !extensions.plugins.isEmpty {
                failed = extensions.process(failed, context: context(attempt: 0))
            }
            if handle(.completed) == .publish { publish(failed, on: queue) }
            return
        }
        var context = extensions.adapts ? context(attempt: 0) : nil
        var request = base
        var sent: URLRequest?
        var outcome = Outcome(request: base, failure: .cancelled)
        var action = first
        while true {
            switch action {
            case .none, .cancelTransfer:
                return
            case .adapt(let attempt):
                if let error = interruption {
                    action = handle(.cancel(error))
                    continue
                }
                context?.attempt = attempt
                do throws(CourierError) {
                    (request, sent) = try await extensions.prepare(base, context: context!)
                    action = handle(.adapted)
                } catch {
                    outcome = Outcome(request: base, failure: error)
                    action = handle(.adaptationFailed)
                }
            case .send(let attempt):
                // A session shut down or cancelled since the request was made fails the attempt in
                // `Session.execute`, without reaching the transport.
                if let sent, let context { extensions.willSend(sent, context: context) }
                let result = await transfer(request, spins: queue == nil && attempt == 0)
                outcome = self.outcome(of: result, attempt: attempt)
                if let context, !extensions.plugins.isEmpty {
                    extensions.didReceive(outcome, context: context)
                }
                action = handle(.transportFinished)
            case .decideRetry(let attempt):
                let delay = await retryDelay(
                    for: &outcome, result: request, sent: sent, attempt: attempt, extensions: extensions,
                    context: context)
                action = handle(.retryDecided(retryAfter: delay))
            case .wait(let seconds):
                await backoff(seconds)
                action = handle(.backoffElapsed)
            case .complete:
                let validators = state.withLock { $0.validators }
                outcome = validated(outcome, by: validators)
                if let context, !extensions.plugins.isEmpty {
                    outcome = extensions.process(outcome, context: context)
                }
                action = handle(.completed)
            case .publish:
                publish(outcome, on: queue)
                return
            case .finish(let error):
                // An interruption found before an attempt: the session was shut down or cancelled.
                publish(Outcome(request: request, failure: error), on: queue)
                return
            }
        }
    }

    /// The wait before retrying the attempt `sent` that ended with `outcome`, or nil not to retry
    /// (also after a shutdown or `cancelAll()`); a retrier's `.fail` turns `outcome` into its error.
    private func retryDelay(
        for outcome: inout Outcome, result request: HTTPRequest, sent: URLRequest?, attempt: Int,
        extensions: RequestExtensions, context: RequestContext?
    ) async -> Double? {
        guard interruption == nil else { return nil }
        guard let context, let sent, !extensions.interceptors.isEmpty else {
            return extensions.retryPolicy.retryDelay(
                afterAttempt: attempt, method: request.method.rawValue,
                statusCode: outcome.error == nil ? outcome.statusCode : nil, error: outcome.error,
                retryAfter: outcome.responseHead?.value(forHeader: "Retry-After"), now: session.configuration.clock.now)
        }
        switch await extensions.retryDecision(for: sent, dueTo: outcome, context: context) {
        case .doNotRetry:
            return nil
        case .fail(let error):
            outcome.fail(error)
            return nil
        case .retry(let delay):
            return delay
        }
    }

    /// Runs one transfer; the transport's completion (on the engine thread) only hands the result
    /// over. An awaiting caller alone on its session spins briefly first (see ``AwaitSpinner``).
    private func transfer(_ request: HTTPRequest, spins: Bool) async -> TransportResult {
        let slot = HandoffSlot<TransportResult>()
        var options = session.transferOptions(for: request, destination: destination)
        let (progress, target, epoch) = state.withLock { ($0.progress, $0.target, $0.epoch) }
        options.progress = progress
        options.target = target
        options.sessionEpoch = epoch
        if let resumeOffset {
            // Ranges count stored bytes: a body decompressed on the fly could not be continued.
            options.resumeOffset = resumeOffset
            options.automaticDecompression = false
        }
        let spinner = session.awaitSpinner
        let alone = spins && spinner.enter()
        defer { if spins { spinner.leave() } }
        let token = session.execute(request, options: options) { slot.fill($0) }
        let cancelNow = state.withLock { state -> Bool in
            if case .transferring(_, true) = state.machine.state { return true }
            state.token = token
            return false
        }
        if cancelNow { token.cancel() }
        defer { state.withLock { $0.token = nil } }
        guard alone, spinner.isEnabled else { return await slot.wait() }
        let start = DispatchTime.now().uptimeNanoseconds
        if let result = spinner.spin(on: slot, since: start) { return result }
        let result = await slot.wait()
        spinner.observe(wait: DispatchTime.now().uptimeNanoseconds - start)
        return result
    }

    /// Waits `seconds` on the session's clock; a cancel that finished the request ends it early.
    private func backoff(_ seconds: Double) async {
        let slot = HandoffSlot<Bool>()
        let once = Locked(false)
        let wake: @Sendable () -> Void = {
            let first = once.withLock { fired in
                defer { fired = true }
                return !fired
            }
            if first { slot.fill(true) }
        }
        let finished = state.withLock { state -> Bool in
            state.wake = wake
            return state.outcome != nil
        }
        if finished { wake() }
        session.configuration.clock.schedule(after: seconds, wake)
        _ = await slot.wait()
        state.withLock { $0.wake = nil }
    }

    /// What a transfer delivered, as the outcome of attempt number `attempt` (0 for the first).
    func outcome(of result: TransportResult, attempt: Int) -> Outcome {
        var metrics = result.metrics
        metrics?.retryCount = attempt
        var outcome = Outcome(
            request: result.request, head: result.head, body: result.data, metrics: metrics,
            error: result.error, fileURL: result.error == nil ? destination : nil)
        outcome.resumeData = result.resumeData
        outcome.transferred = result.transferred
        return outcome
    }
}
