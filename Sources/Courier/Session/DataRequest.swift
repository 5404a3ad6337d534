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
    }

    private enum Phase {
        case idle, running, finished(Outcome)
    }

    private struct State {
        var phase = Phase.idle
        var validators: [Validator] = []
        var waiters: [@Sendable (Outcome) -> Void] = []
        var token: (any TransportCancellable)?
        var cancelRequested = false
    }

    /// The session that made this request.
    public let session: Session
    private let built: Result<URLRequest, CourierError>
    /// Where a download writes the body; nil for requests that buffer it in memory.
    let destination: URL?
    private let state = Locked(State())

    init(session: Session, request: Result<URLRequest, CourierError>, destination: URL?) {
        self.session = session
        self.built = request
        self.destination = destination
    }

    /// The request as it will be sent (default headers included), or nil if building it failed.
    public var request: URLRequest? {
        guard case .success(let request) = built else { return nil }
        return session.prepared(request)
    }

    /// Cancels the request: it completes with ``CourierError/cancelled`` unless it already finished,
    /// in which case nothing happens. Safe to call from any thread, any number of times.
    public func cancel() {
        let token: (any TransportCancellable)? = state.withLock { state in
            if case .finished = state.phase { return nil }
            state.cancelRequested = true
            return state.token
        }
        token?.cancel()
    }

    private var hasCustomValidation: Bool {
        state.withLock { state in
            state.validators.contains { if case .custom = $0 { return true } else { return false } }
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

    // MARK: Running

    /// Registers `handler` for the outcome and starts the transfer if this is the first one.
    /// The handler runs on the engine thread: it must only hand the outcome on.
    func whenComplete(_ handler: @escaping @Sendable (Outcome) -> Void) {
        enum Action { case none, start, deliver(Outcome) }
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
        let request: URLRequest
        switch built {
        case .failure(let error):
            complete(Outcome(request: nil, head: nil, data: Data(), metrics: nil, error: error))
            return
        case .success(let built):
            request = session.prepared(built)
        }
        if isCancelled {
            complete(Outcome(request: request, head: nil, data: Data(), metrics: nil, error: .cancelled))
            return
        }
        send(request, attempt: 0)
    }

    /// Hands the request to the transport; `attempt` counts retries already made.
    private func send(_ request: URLRequest, attempt: Int) {
        var options = session.transferOptions(for: request)
        options.destination = destination
        let token = session.transport.execute(request, options: options) { result in
            // Retains the request (and so its session) until the transfer has completed.
            if let delay = self.retryDelay(after: result, attempt: attempt) {
                self.retry(request, attempt: attempt + 1, after: delay)
                return
            }
            var outcome = Outcome(request: result.request, head: result.head, data: result.data,
                                  metrics: result.metrics, error: result.error,
                                  fileURL: result.error == nil ? self.destination : nil)
            outcome.metrics?.retryCount = attempt
            // This runs on the engine thread: user-written validations run elsewhere, so a slow
            // one cannot stall other transfers.
            if self.hasCustomValidation {
                let finished = outcome
                DispatchQueue.global().async { self.complete(finished) }
            } else {
                self.complete(outcome)
            }
        }
        install(token, stopIfFinished: attempt > 0)
    }

    /// Records the current cancellation token, cancelling at once if `cancel()` came first.
    /// With `stopIfFinished`, a transfer started after the request already finished (a retry
    /// racing `cancel()`) is stopped too.
    private func install(_ token: any TransportCancellable, stopIfFinished: Bool = false) {
        let cancelNow: Bool = state.withLock { state in
            if case .finished = state.phase { return stopIfFinished }
            state.token = token
            return state.cancelRequested
        }
        if cancelNow { token.cancel() }
    }

    private func retryDelay(after result: TransportResult, attempt: Int) -> TimeInterval? {
        let policy = session.configuration.retryPolicy
        guard policy.maxRetries > attempt, !isCancelled else { return nil }
        return policy.retryDelay(
            afterAttempt: attempt, method: result.request.httpMethod ?? "GET",
            statusCode: result.error == nil ? result.head?.statusCode : nil, error: result.error,
            retryAfter: result.head?.value(forHeader: "Retry-After"))
    }

    /// Waits `delay`, then sends `request` again; `cancel()` during the wait completes at once.
    ///
    /// The timer owns the request only through `waiting`, which `cancel()` empties: the timer must
    /// keep a request nobody else holds alive until it is retried, but a cancelled request (and its
    /// session) is released at once, not when the backoff ends.
    private func retry(_ request: URLRequest, attempt: Int, after delay: TimeInterval) {
        let cancelled = Outcome(request: request, head: nil, data: Data(), metrics: nil, error: .cancelled)
        let waiting = Locked<DataRequest?>(self)
        let take: @Sendable () -> DataRequest? = {
            waiting.withLock { owner in
                defer { owner = nil }
                return owner
            }
        }
        install(BackoffToken { take()?.complete(cancelled) })
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            guard let owner = take(), !owner.isFinished, !owner.isCancelled else { return }
            owner.send(request, attempt: attempt)
        }
    }

    private var isFinished: Bool {
        state.withLock { state in
            if case .finished = state.phase { return true }
            return false
        }
    }

    private func complete(_ raw: Outcome) {
        var outcome = raw
        let validators = state.withLock { $0.validators }
        if outcome.error == nil, let head = outcome.head {
            for validator in validators {
                if let error = validator.check(outcome, head: head) {
                    outcome.error = error
                    if let file = outcome.fileURL {
                        // A rejected download leaves no file behind, like a failed one.
                        try? FileManager.default.removeItem(at: file)
                        outcome.fileURL = nil
                    }
                    break
                }
            }
        }
        let waiters: [@Sendable (Outcome) -> Void] = state.withLock { state in
            if case .finished = state.phase { return [] }
            state.phase = .finished(outcome)
            state.token = nil
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
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

/// Stands for a request waiting to be retried: cancelling it completes the request.
private struct BackoffToken: TransportCancellable {
    let onCancel: @Sendable () -> Void
    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    func cancel() { onCancel() }
}
