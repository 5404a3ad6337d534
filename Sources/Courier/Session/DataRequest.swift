import Dispatch
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
    /// Decides whether a response is acceptable; return a failure to turn it into an error.
    public typealias Validation = @Sendable (_ request: URLRequest?, _ response: HTTPURLResponse, _ data: Data?)
        -> Result<Void, CourierError>

    /// What the transport delivered, plus the validation verdict.
    struct Outcome: Sendable {
        var request: URLRequest?
        var head: ResponseHead?
        var data: Data
        var metrics: TransferMetrics?
        var error: CourierError?
        var fileURL: URL? = nil

        /// Removes a downloaded file: a failed or rejected download leaves nothing behind.
        mutating func discardFile() {
            guard let file = fileURL else { return }
            try? FileManager.default.removeItem(at: file)
            fileURL = nil
        }
    }

    /// `finishing`: validation and the plugins' `process` are running; waiters still queue up.
    private enum Phase {
        case idle, running, finishing, finished(Outcome)
    }

    private struct State {
        var phase = Phase.idle
        var validators: [Validator] = []
        var waiters: [@Sendable (Outcome) -> Void] = []
        var token: (any TransportCancellable)?
        var cancelRequested = false
        /// This request's own plugins and interceptors.
        var plugins: [any Plugin] = []
        var interceptors: [any RequestInterceptor] = []
        /// The task running plugins and interceptors, if any.
        var task: Task<Void, Never>?
        /// Created by the first progress observer (DataRequest+Progress.swift).
        var progress: ProgressRelay?
    }

    /// The session that made this request.
    public let session: Session
    /// What the request was made from.
    let target: any URLRequestConvertible
    private let built: Result<URLRequest, CourierError>
    /// Where a download writes the body; nil for requests that buffer it in memory.
    let destination: URL?
    private let state = Locked(State())

    init(session: Session, target: any URLRequestConvertible, request: Result<URLRequest, CourierError>,
         destination: URL?) {
        self.session = session
        self.target = target
        self.built = request
        self.destination = destination
    }

    /// The request as built, with the session's default headers, or nil if building it failed.
    /// Interceptors and plugins may still change what is actually sent.
    public var request: URLRequest? {
        guard case .success(let request) = built else { return nil }
        return session.prepared(request)
    }

    /// Cancels the request: it completes with ``CourierError/cancelled`` unless it already finished,
    /// in which case nothing happens. Safe to call from any thread, any number of times.
    public func cancel() {
        let (token, task): ((any TransportCancellable)?, Task<Void, Never>?) = state.withLock { state in
            switch state.phase {
            case .finishing, .finished: return (nil, nil)
            case .idle, .running:
                state.cancelRequested = true
                return (state.token, state.task)
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

    /// The progress relay, made on first use when `create` is true.
    func progressRelay(create: Bool) -> ProgressRelay? {
        state.withLock { state in
            if state.progress == nil, create { state.progress = ProgressRelay() }
            return state.progress
        }
    }

    /// True once `cancel()` was called on an unfinished request.
    public var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    // MARK: Validation

    /// A validation step. Built-in checks read the status and headers directly; only custom
    /// closures need the Foundation `HTTPURLResponse`.
    enum Validator: Sendable {
        case statusCode(@Sendable (Int) -> Bool)
        case contentType([String])
        case custom(Validation)

        func check(_ outcome: Outcome, head: ResponseHead) -> CourierError? {
            switch self {
            case .statusCode(let accepts):
                return accepts(head.statusCode) ? nil : .unacceptableStatusCode(head.statusCode)
            case .contentType(let acceptable):
                return Self.check(contentType: head.value(forHeader: "Content-Type"), of: outcome.data,
                                  against: acceptable)
            case .custom(let validation):
                guard let response = head.foundationResponse else { return nil }
                if case .failure(let error) = validation(outcome.request, response, outcome.data) { return error }
                return nil
            }
        }

        /// `type/subtype`, `type/*` and `*/*` patterns; an empty body passes.
        static func check(contentType received: String?, of data: Data, against acceptable: [String]) -> CourierError? {
            guard !data.isEmpty else { return nil }
            let mime = received?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            let parts = mime.split(separator: "/")
            for pattern in acceptable.map({ $0.lowercased() }) {
                let wanted = pattern.split(separator: "/")
                guard wanted.count == 2, parts.count == 2 else { continue }
                if (wanted[0] == "*" || wanted[0] == parts[0]) && (wanted[1] == "*" || wanted[1] == parts[1]) {
                    return nil
                }
            }
            return .unacceptableContentType(received)
        }
    }

    /// Adds a validation run when the response arrives, before any handler sees it. It runs on
    /// a global queue, never on the engine thread.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        state.withLock { $0.validators.append(.custom(validation)) }
        return self
    }

    /// Accepts only status codes in `acceptable`; others fail with ``CourierError/unacceptableStatusCode(_:)``.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptable: S) -> Self where S.Element == Int {
        state.withLock { $0.validators.append(.statusCode({ acceptable.contains($0) })) }
        return self
    }

    /// Accepts only responses whose `Content-Type` matches one of `acceptable` (`type/subtype`,
    /// `type/*` or `*/*`). An empty body passes.
    @discardableResult
    public func validate(contentType acceptable: [String]) -> Self {
        state.withLock { $0.validators.append(.contentType(acceptable)) }
        return self
    }

    /// Accepts only 2xx status codes.
    @discardableResult
    public func validate() -> Self {
        validate(statusCode: 200..<300)
    }

    // MARK: Plugins and interceptors

    /// Adds a plugin for this request only, run after the session's (and service's) plugins.
    /// Add it before the first response handler: once the request has started it has no effect.
    @discardableResult
    public func plugin(_ plugin: any Plugin) -> Self {
        guard plugin.isEnabled else { return self }
        state.withLock { $0.plugins.append(plugin) }
        return self
    }

    /// Adds an interceptor for this request only: its adapter runs after the session's, and it
    /// is asked about retries after the session's interceptors (and before the session's
    /// ``Session/Configuration/retryPolicy``). Add it before the first response handler: once
    /// the request has started it has no effect.
    @discardableResult
    public func interceptor(_ interceptor: any RequestInterceptor) -> Self {
        state.withLock { $0.interceptors.append(interceptor) }
        return self
    }

    // MARK: Running

    /// Registers `handler` for the outcome and starts the transfer if this is the first one.
    /// The handler may run on the engine thread: it must only hand the outcome on.
    func whenComplete(_ handler: @escaping @Sendable (Outcome) -> Void) {
        enum Action { case none, start, deliver(Outcome) }
        let action: Action = state.withLock { state in
            switch state.phase {
            case .finished(let outcome):
                return .deliver(outcome)
            case .running, .finishing:
                state.waiters.append(handler)
                return .none
            case .idle:
                state.waiters.append(handler)
                state.phase = .running
                return .start
            }
        }
        switch action {
        case .none: break
        case .deliver(let outcome): handler(outcome)
        case .start: start()
        }
    }

    private func start() {
        let extensions = resolvedExtensions()
        let request: URLRequest
        switch built {
        case .failure(let error):
            finish(Outcome(request: nil, head: nil, data: Data(), metrics: nil, error: error), extensions)
            return
        case .success(let built):
            request = session.prepared(built)
        }
        if isCancelled {
            finish(Outcome(request: request, head: nil, data: Data(), metrics: nil, error: .cancelled), extensions)
        } else if extensions.isEmpty {
            send(request, attempt: 0)
        } else {
            run(request, through: extensions)
        }
    }

    /// Completes a request that never reached the transport.
    private func finish(_ outcome: Outcome, _ extensions: RequestExtensions) {
        if extensions.plugins.isEmpty {
            complete(outcome)
        } else {
            complete(outcome, extensions: extensions, context: context(attempt: 0))
        }
    }

    /// The session's plugins and interceptors followed by this request's own.
    private func resolvedExtensions() -> RequestExtensions {
        let (plugins, interceptors) = state.withLock { ($0.plugins, $0.interceptors) }
        return session.extensions.appending(plugins: plugins, interceptors: interceptors)
    }

    /// The context handed to plugins and interceptors.
    func context(attempt: Int) -> RequestContext {
        RequestContext(target: target, session: session, requestID: session.nextRequestID(), attempt: attempt)
    }

    /// Records the current cancellation token, cancelling at once if `cancel()` came first.
    /// With `stopIfFinished`, a token installed after the request already finished (a retry
    /// racing `cancel()`) is cancelled too.
    func install(_ token: any TransportCancellable, stopIfFinished: Bool = false) {
        let cancelNow: Bool = state.withLock { state in
            switch state.phase {
            case .finishing, .finished: return stopIfFinished
            case .idle, .running:
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
            case .finishing, .finished: return false
            case .idle, .running:
                state.task = task
                return state.cancelRequested
            }
        }
        if cancelNow { task.cancel() }
    }

    /// True once the request has been completed (or is being completed).
    var isFinished: Bool {
        state.withLock { state in
            switch state.phase {
            case .finishing, .finished: return true
            case .idle, .running: return false
            }
        }
    }

    /// Completes the request with `raw`, unless it already was: runs validation, then the
    /// plugins' `process`, then hands the outcome to every waiter.
    func complete(_ raw: Outcome, extensions: RequestExtensions? = nil, context: RequestContext? = nil) {
        let validators: [Validator]? = state.withLock { state in
            switch state.phase {
            case .finishing, .finished: return nil
            case .idle, .running:
                state.phase = .finishing
                return state.validators
            }
        }
        guard let validators else { return }
        var outcome = raw
        if outcome.error == nil, let head = outcome.head {
            for validator in validators {
                if let error = validator.check(outcome, head: head) {
                    outcome.error = error
                    outcome.discardFile()
                    break
                }
            }
        }
        if let extensions, let context, !extensions.plugins.isEmpty {
            outcome = extensions.process(outcome, context: context)
        }
        let waiters: [@Sendable (Outcome) -> Void] = state.withLock { state in
            state.phase = .finished(outcome)
            state.token = nil
            state.task = nil
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        progressRelay(create: false)?.finish(after: outcome)
        for waiter in waiters { waiter(outcome) }
    }

    /// Delivers a serialized response on `queue` (the session's callback queue when nil).
    func deliver<Value: Sendable>(
        on queue: DispatchQueue?,
        serializer: @escaping @Sendable (Outcome) -> Result<Value, CourierError>,
        completionHandler: @escaping @Sendable (DataResponse<Value>) -> Void
    ) {
        let queue = queue ?? session.configuration.callbackQueue
        whenComplete { outcome in
            queue.async {
                completionHandler(Self.makeResponse(outcome, serializer: serializer))
            }
        }
    }

    /// Waits for the outcome, cancelling the request if the awaiting task is cancelled.
    func outcome() async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                whenComplete { continuation.resume(returning: $0) }
            }
        } onCancel: {
            self.cancel()
        }
    }

    static func makeResponse<Value: Sendable>(
        _ outcome: Outcome, serializer: (Outcome) -> Result<Value, CourierError>
    ) -> DataResponse<Value> {
        let result: Result<Value, CourierError> = outcome.error.map { .failure($0) } ?? serializer(outcome)
        var response = DataResponse(request: outcome.request, head: outcome.head,
                                    data: outcome.data.isEmpty && outcome.head == nil ? nil : outcome.data,
                                    metrics: outcome.metrics, result: result)
        response.fileURL = outcome.error == nil ? outcome.fileURL : nil
        return response
    }
}
