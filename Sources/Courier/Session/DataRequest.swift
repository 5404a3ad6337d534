import Dispatch
import Foundation
import CourierSync
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request made by a ``Session``: add validation, then read the response with a completion
/// handler or with `async`/`await`.
///
/// ```swift
/// session.request(AuthRouter.signIn(email: e, pw: p))
///     .validate()
///     .responseDecodable(of: SignIn.self) { response in print(response.result) }
/// ```
/// The transfer starts when the first response handler is added or an async accessor is awaited,
/// and runs once however many handlers are added. Every handler is called exactly once.
public final class DataRequest: Sendable {
    /// A request's own plugins, interceptors and cache settings, made only for requests that have
    /// some (requests without any stay as small as before). Touched only under the state lock.
    final class OwnExtensions {
        var plugins: [any Plugin] = []
        var interceptors: [any RequestInterceptor] = []
        /// ``cachePolicy(_:)``: nil uses the session's.
        var cachePolicy: Session.CachePolicy?
        /// ``coalescing(_:)``.
        var coalesces = true
    }

    struct State {
        /// Where the request is in its lifecycle (see ``RequestStateMachine``).
        var machine = RequestStateMachine(adapts: false, decides: false)
        /// The latest attempt's outcome (or an adapter's failure) while the request runs, the
        /// published one once ``isPublished``: one place, so that the state holds one outcome,
        /// not two (each is over 200 bytes, copied whenever the state is made or changed).
        var outcome: Outcome?
        /// Whether ``outcome`` is the published outcome.
        var isPublished = false
        /// The published outcome, once there is one.
        var published: Outcome? { isPublished ? outcome : nil }
        var validators = SmallList<Validator>()
        var waiters = SmallList<Waiter>()
        /// Stops the attempt the transport runs.
        var token: (any TransportCancellable)?
        /// Ends the driver's backoff wait early (a cancel finished the request).
        var wake: (@Sendable () -> Void)?
        /// The task running an adapter or a retrier for completion handlers; cancelled with the
        /// request.
        var driverTask: Task<Void, Never>?
        var own: OwnExtensions?
        /// Created by the first progress observer (DataRequest+Progress.swift).
        var progress: ProgressRelay?
        /// The driver's working values, from the start (DataRequest+Driver.swift).
        var run: Run?
        /// How the current attempt's result reaches the driver (DataRequest+Transfer.swift).
        var delivery = Delivery()
    }

    /// Who waits for the outcome: a completion handler on its queue, or an awaiting task (no queue).
    struct Waiter {
        let queue: DispatchQueue?
        let deliver: @Sendable (Outcome) -> Void
    }

    /// The session that made this request.
    package let session: Session
    /// What the request was made from (a ``Router`` case, a URL...). Outside the state: it never
    /// changes, so reading it takes no lock (and no copy out of one).
    let target: any URLRequestConvertible
    /// The session's ``Session/cancelAll()`` epoch when the request was made.
    let epoch: UInt64
    /// The request as built, with the session's default headers.
    let built: Result<HTTPRequest, CourierError>
    /// Where a download writes the body; nil for requests that buffer it in memory.
    let destination: URL?
    /// For a resumed download, the bytes of `destination` to keep (see ``ResumeData``).
    let resumeOffset: Int64?
    let state: Locked<State>
    /// Whether the current attempt's outcome is in the run (see ``State/delivery``): written under
    /// the state's lock, and read without it by an awaiting task that spins (``AwaitSpinner``).
    let resultArrived = Atomic<Bool>(false)

    init(
        session: Session, target: any URLRequestConvertible, request: Result<HTTPRequest, CourierError>,
        destination: URL?, resumeOffset: Int64? = nil
    ) {
        self.session = session
        self.target = target
        epoch = session.currentEpoch
        state = Locked(making: { State() })
        built = request
        self.destination = destination
        self.resumeOffset = resumeOffset
    }

    /// The request as built, with the session's default headers, or nil if building it failed.
    /// Interceptors and plugins may still change what is actually sent.
    public var request: HTTPRequest? {
        guard case .success(let request) = built else { return nil }
        return request
    }

    /// Cancels the request: it completes with ``CourierError/cancelled`` unless its outcome is
    /// already decided, in which case nothing happens. Safe to call from any thread, any number
    /// of times.
    ///
    /// A transfer in progress is stopped and completes the request; a request waiting between
    /// attempts, or running an adapter or a retrier, completes at once (what that code returns
    /// later is dropped).
    public func cancel() {
        stop(.cancelled)
    }

    /// Feeds a cancel (or an interruption) to the lifecycle and carries out its action.
    func stop(_ error: CourierError) {
        let (action, token, wake, task) = state.withLock { state in
            (state.machine.handle(.cancel(error)), state.token, state.wake, state.driverTask)
        }
        switch action {
        case .cancelTransfer:
            token?.cancel()
        case .finish(let error):
            wake?()
            task?.cancel()
            publish(Outcome(request: try? built.get(), failure: error))
        default:
            break
        }
    }

    /// The progress relay, made on first use when `create` is true. One made after the request
    /// finished is finished at once with its outcome's final values, so its observers end.
    func progressRelay(create: Bool) -> ProgressRelay? {
        let (relay, finishedOutcome) = state.withLock { state -> (ProgressRelay?, Outcome?) in
            guard state.progress == nil, create else { return (state.progress, nil) }
            let relay = ProgressRelay()
            state.progress = relay
            return (relay, state.published)
        }
        if let finishedOutcome { relay?.finish(after: finishedOutcome) }
        return relay
    }

    /// Why this request must not start another attempt (the session was shut down, or
    /// ``Session/cancelAll()`` came after it was made); nil when it may.
    var interruption: CourierError? {
        session.interruption(since: epoch)
    }

    /// True once `cancel()` was called on an unfinished request.
    public var isCancelled: Bool { state.withLock { $0.machine.stopReason == .cancelled } }

    /// Adds a validation step, run when the response arrives.
    func addValidator(_ validator: Validator) {
        state.withLock { $0.validators.append(validator) }
    }

    // MARK: Plugins and interceptors

    /// Adds a plugin for this request only, run after the session's (and service's) plugins.
    /// Add it before the first response handler: once the request has started it has no effect.
    @discardableResult
    public func plugin(_ plugin: any Plugin) -> Self {
        guard NetworkLogger.takesPart(plugin) else { return self }
        state.withLock { state in
            let own = state.own ?? OwnExtensions()
            own.plugins.append(plugin)
            state.own = own
        }
        return self
    }

    /// Adds an interceptor for this request only: its adapter runs after the session's, and it
    /// is asked about retries after the session's interceptors (and before the session's
    /// ``Session/Configuration/retryPolicy``). Add it before the first response handler: once
    /// the request has started it has no effect.
    @discardableResult
    public func interceptor(_ interceptor: any RequestInterceptor) -> Self {
        state.withLock { state in
            let own = state.own ?? OwnExtensions()
            own.interceptors.append(interceptor)
            state.own = own
        }
        return self
    }

    /// The context handed to plugins and interceptors.
    func context(attempt: Int) -> RequestContext {
        RequestContext(
            target: target, session: session, requestID: session.nextRequestID(),
            attempt: attempt)
    }

    /// Records the final outcome and hands it to every waiter (once: the lifecycle publishes once):
    /// at once to those on `queue` (the driver's, when it publishes) or on none, through their
    /// queue to the others.
    func publish(_ outcome: Outcome, on queue: DispatchQueue? = nil) {
        var pending: Outcome? = outcome
        publish(taking: &pending, on: queue, completing: false)
    }

    /// ``publish(_:on:)`` for an outcome held in `pending`, which it takes: with no waiter to
    /// hand it to here (an awaiting driver reads it in the state), it is moved into the state,
    /// not copied (a copy and a destroy cost about 400 instructions per request).
    ///
    /// With `completing`, the lifecycle's `.completed` event is fed in the same lock, and nothing
    /// is published unless the machine says to.
    func publish(taking pending: inout Outcome?, on queue: DispatchQueue?, completing: Bool) {
        let (waiters, progress, delivered): (SmallList<Waiter>, ProgressRelay?, Outcome?) = state.withLock { state in
            if completing, state.machine.handle(.completed) != .publish { return (SmallList(), nil, nil) }
            state.isPublished = true
            state.token = nil
            state.wake = nil
            state.driverTask = nil
            let waiters = state.waiters
            state.waiters = SmallList()
            if waiters.isEmpty && state.progress == nil {
                state.outcome = pending.take()
                return (waiters, nil, nil)
            }
            state.outcome = pending
            return (waiters, state.progress, pending.take())
        }
        guard let outcome = delivered else { return }
        progress?.finish(after: outcome)
        for waiter in waiters {
            if let target = waiter.queue, target !== queue {
                target.async { waiter.deliver(outcome) }
            } else {
                waiter.deliver(outcome)
            }
        }
    }
}
