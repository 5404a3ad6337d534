import Foundation
import CourierSync
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
    private enum Phase {
        case idle, running, finished(Outcome)
    }

    /// A request's own plugins and interceptors and the task running them, made only for requests
    /// that have some (requests without any stay as small, and as fast, as before). Touched only
    /// under the state lock.
    private final class OwnExtensions {
        var plugins: [any Plugin] = []
        var interceptors: [any RequestInterceptor] = []
        var task: Task<Void, Never>?
    }

    private struct State {
        /// What the request was made from (kept here, not in the object, which stays small
        /// enough for the allocator's fast path).
        let target: any URLRequestConvertible
        /// The session's ``Session/cancelAll()`` epoch when the request was made.
        let epoch: UInt64
        var phase = Phase.idle
        var validators: [Validator] = []
        var waiters: [@Sendable (Outcome) -> Void] = []
        var token: (any TransportCancellable)?
        /// Orders tokens: a transport may complete (and the next step install its own token)
        /// before `execute` returns, so a token is installed only if no later one was.
        var tokenSlot: UInt64 = 0
        var lastSlot: UInt64 = 0
        var cancelRequested = false
        /// Validation and the plugins' `process` are running: the outcome is decided, waiters
        /// still queue up.
        var completing = false
        var own: OwnExtensions?
        /// Created by the first progress observer (DataRequest+Progress.swift).
        var progress: ProgressRelay?
    }

    /// The session that made this request.
    public let session: Session
    /// The request as built, with the session's default headers.
    private let built: Result<HTTPRequest, CourierError>
    /// Where a download writes the body; nil for requests that buffer it in memory.
    let destination: URL?
    /// For a resumed download, the bytes of `destination` to keep (see ``ResumeData``).
    let resumeOffset: Int64?
    private let state: Locked<State>

    init(
        session: Session, target: any URLRequestConvertible, request: Result<HTTPRequest, CourierError>,
        destination: URL?, resumeOffset: Int64? = nil
    ) {
        self.session = session
        state = Locked(State(target: target, epoch: session.currentEpoch))
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

    /// Cancels the request: it completes with ``CourierError/cancelled`` unless it already finished,
    /// in which case nothing happens. Safe to call from any thread, any number of times.
    public func cancel() {
        let (token, task): ((any TransportCancellable)?, Task<Void, Never>?) = state.withLock { state in
            switch state.phase {
            case .finished: return (nil, nil)
            case .idle, .running:
                if state.completing { return (nil, nil) }
                state.cancelRequested = true
                return (state.token, state.own?.task)
            }
        }
        task?.cancel()
        token?.cancel()
    }

    var hasCustomValidation: Bool {
        state.withLock { state in
            state.validators.contains { if case .custom = $0 { return true } else { return false } }
        }
    }

    /// The progress relay, made on first use when `create` is true. One made after the request
    /// finished is finished at once with its outcome's final values, so its observers end.
    func progressRelay(create: Bool) -> ProgressRelay? {
        let (relay, finishedOutcome) = state.withLock { state -> (ProgressRelay?, Outcome?) in
            guard state.progress == nil, create else { return (state.progress, nil) }
            let relay = ProgressRelay()
            state.progress = relay
            if case .finished(let outcome) = state.phase { return (relay, outcome) }
            return (relay, nil)
        }
        if let finishedOutcome { relay?.finish(after: finishedOutcome) }
        return relay
    }

    /// Why this request must not start another attempt (the session was shut down, or
    /// ``Session/cancelAll()`` came after it was made); nil when it may.
    var interruption: CourierError? {
        session.interruption(since: state.withLock { $0.epoch })
    }

    /// True once `cancel()` was called on an unfinished request.
    public var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    /// Adds a validation step, run when the response arrives.
    func addValidator(_ validator: Validator) {
        state.withLock { $0.validators.append(validator) }
    }

    // MARK: Plugins and interceptors

    /// Adds a plugin for this request only, run after the session's (and service's) plugins.
    /// Add it before the first response handler: once the request has started it has no effect.
    @discardableResult
    public func plugin(_ plugin: any Plugin) -> Self {
        guard plugin.isEnabled else { return self }
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

    // MARK: Running

    /// Registers `handler` for the outcome and starts the transfer if this is the first one.
    /// The handler may run on the engine thread: it must only hand the outcome on.
    func whenComplete(_ handler: @escaping @Sendable (Outcome) -> Void) {
        enum Action { case none, start(hasOwnExtensions: Bool), deliver(Outcome) }
        let action: Action = state.withLock { state in
            switch state.phase {
            case .finished(let outcome):
                return .deliver(outcome)
            case .running:
                state.waiters.append(handler)
                return .none
            case .idle:
                state.waiters.append(handler)
                state.phase = .running
                return .start(hasOwnExtensions: state.own != nil)
            }
        }
        switch action {
        case .none: break
        case .deliver(let outcome): handler(outcome)
        case .start(let hasOwnExtensions): start(direct: !hasOwnExtensions && !session.hasExtensions)
        }
    }

    /// Starts the first attempt: on the direct path when no plugin or interceptor is involved.
    private func start(direct: Bool) {
        let request: HTTPRequest
        switch built {
        case .failure(let error):
            finish(Outcome(request: nil, head: nil, data: Data(), metrics: nil, error: error), direct: direct)
            return
        case .success(let built):
            request = built
        }
        let (cancelled, epoch) = state.withLock { ($0.cancelRequested, $0.epoch) }
        if let error = cancelled ? .cancelled : session.interruption(since: epoch) {
            finish(Outcome(request: request, head: nil, data: Data(), metrics: nil, error: error), direct: direct)
        } else if direct {
            send(request, attempt: 0)
        } else {
            run(request, through: resolvedExtensions())
        }
    }

    /// Completes a request that never reached the transport.
    private func finish(_ outcome: Outcome, direct: Bool) {
        if direct {
            complete(outcome)
        } else {
            complete(outcome, extensions: resolvedExtensions(), context: context(attempt: 0))
        }
    }

    /// The session's plugins and interceptors followed by this request's own.
    private func resolvedExtensions() -> RequestExtensions {
        let (plugins, interceptors) = state.withLock { ($0.own?.plugins ?? [], $0.own?.interceptors ?? []) }
        return session.extensions.appending(plugins: plugins, interceptors: interceptors)
    }

    /// The context handed to plugins and interceptors.
    func context(attempt: Int) -> RequestContext {
        RequestContext(
            target: state.withLock { $0.target }, session: session, requestID: session.nextRequestID(),
            attempt: attempt)
    }

    /// Starts a transfer of `request`: reserves the place of its cancellation token (installed
    /// once the transport returns it, see ``install(_:slot:stopIfFinished:)``) and makes its
    /// engine options, with the download destination, progress relay and target, in one lock.
    func beginTransfer(of request: HTTPRequest) -> (slot: UInt64, options: TransferOptions) {
        let (slot, progress, target, epoch) = state.withLock { state in
            state.lastSlot += 1
            return (state.lastSlot, state.progress, state.target, state.epoch)
        }
        var options = session.transferOptions(for: request, destination: destination)
        options.progress = progress
        options.target = target
        options.sessionEpoch = epoch
        if let resumeOffset {
            // Ranges count stored bytes: a body decompressed on the fly could not be continued.
            options.resumeOffset = resumeOffset
            options.automaticDecompression = false
        }
        return (slot, options)
    }

    /// Records the current cancellation token, cancelling at once if `cancel()` came first.
    /// With `stopIfFinished`, a token installed after the request already finished (a retry
    /// racing `cancel()`) is cancelled too. A token whose `slot` (see ``beginTransfer(of:)``;
    /// now when nil) is older than the installed one is ignored: its transfer already completed.
    func install(_ token: any TransportCancellable, slot reserved: UInt64? = nil, stopIfFinished: Bool = false) {
        let cancelNow: Bool = state.withLock { state in
            switch state.phase {
            case .finished: return stopIfFinished
            case .idle, .running:
                if state.completing { return stopIfFinished }
                let slot =
                    reserved
                    ?? {
                        state.lastSlot += 1; return state.lastSlot
                    }()
                guard slot >= state.tokenSlot else { return false }
                state.tokenSlot = slot
                state.token = token
                return state.cancelRequested
            }
        }
        if cancelNow { token.cancel() }
    }

    /// Keeps the task running this request's plugins and interceptors, so `cancel()` can cancel it.
    func adopt(_ task: Task<Void, Never>) {
        let cancelNow: Bool = state.withLock { state in
            switch state.phase {
            case .finished: return false
            case .idle, .running:
                if state.completing { return false }
                let own = state.own ?? OwnExtensions()
                own.task = task
                state.own = own
                return state.cancelRequested
            }
        }
        if cancelNow { task.cancel() }
    }

    /// True once the request has been completed (or is being completed).
    var isFinished: Bool {
        state.withLock { state in
            switch state.phase {
            case .finished: return true
            case .idle, .running: return state.completing
            }
        }
    }

    /// Completes the request with `raw`, unless it already was: runs validation, then hands
    /// the outcome to every waiter.
    func complete(_ raw: Outcome) {
        guard let validators = claimCompletion() else { return }
        publish(validated(raw, by: validators))
    }

    /// Completes the request with `raw`, unless it already was: runs validation, then the
    /// plugins' `process`, then hands the outcome to every waiter.
    func complete(_ raw: Outcome, extensions: RequestExtensions, context: RequestContext) {
        guard let validators = claimCompletion() else { return }
        var outcome = validated(raw, by: validators)
        if !extensions.plugins.isEmpty {
            outcome = extensions.process(outcome, context: context)
        }
        publish(outcome)
    }

    /// Marks the request as completing and returns the validators, or nil if it already completed
    /// (or is completing).
    private func claimCompletion() -> [Validator]? {
        state.withLock { state in
            switch state.phase {
            case .finished: return nil
            case .idle, .running:
                if state.completing { return nil }
                state.completing = true
                return state.validators
            }
        }
    }

    /// Records the final outcome and hands it to every waiter.
    private func publish(_ outcome: Outcome) {
        let (waiters, progress): ([@Sendable (Outcome) -> Void], ProgressRelay?) = state.withLock { state in
            state.phase = .finished(outcome)
            state.token = nil
            state.own?.task = nil
            let waiters = state.waiters
            state.waiters = []
            return (waiters, state.progress)
        }
        progress?.finish(after: outcome)
        for waiter in waiters { waiter(outcome) }
    }
}
