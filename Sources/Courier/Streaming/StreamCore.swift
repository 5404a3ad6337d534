import Dispatch
import Foundation
import CourierSync
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state behind a ``DataStreamRequest``: starting the transfer, validation of the head,
/// cancellation, and the one completion. The transport's completion holds this object, not the
/// public handle, so dropping the handle (and every iterator) can cancel the transfer.
final class StreamCore: Sendable {
    private struct State {
        /// Where the request is in its lifecycle: the same ``RequestStateMachine`` as a
        /// ``DataRequest``'s, without retries (a body being read cannot be taken back).
        var machine = RequestStateMachine(adapts: false, decides: false)
        var acceptsStatus: [@Sendable (Int) -> Bool] = []
        var contentTypes: [[String]] = []
        var token: (any TransportCancellable)?
        var task: Task<Void, Never>?
        var bodyClaimed = false
        var verdict: Result<ResponseHead, CourierError>?
        var completion: DataResponse<Void>?
        var waiters: [@Sendable (DataResponse<Void>) -> Void] = []
    }

    let session: Session
    let target: any URLRequestConvertible
    let built: Result<HTTPRequest, CourierError>
    let buffer: ResponseStreamBuffer
    /// The session's ``Session/cancelAll()`` epoch when the request was made.
    let epoch: UInt64
    /// Download progress; the engine watches it only when someone observes before the start.
    let progress = ProgressRelay()
    private let state = Locked(State())

    init(
        session: Session, target: any URLRequestConvertible, request: Result<HTTPRequest, CourierError>,
        bufferSize: Int, epoch: UInt64? = nil
    ) {
        self.session = session
        self.target = target
        built = request
        buffer = ResponseStreamBuffer(window: bufferSize)
        self.epoch = epoch ?? session.currentEpoch
    }

    // MARK: Validation

    func addStatusValidation(_ accepts: @escaping @Sendable (Int) -> Bool) {
        state.withLock { $0.acceptsStatus.append(accepts) }
    }

    func addContentTypeValidation(_ acceptable: [String]) {
        state.withLock { $0.contentTypes.append(acceptable) }
    }

    // MARK: Running

    func ensureStarted() {
        let extensions = session.extensions
        let invalid = if case .failure = built { true } else { false }
        let action = state.withLock { state -> RequestStateMachine.Action in
            guard state.machine.state == .idle else { return .none }
            state.machine = RequestStateMachine(adapts: !extensions.isEmpty, decides: false)
            return state.machine.handle(invalid ? .invalid : .start)
        }
        perform(action, extensions: extensions)
    }

    private func handle(_ event: RequestStateMachine.Event) -> RequestStateMachine.Action {
        state.withLock { $0.machine.handle(event) }
    }

    /// Carries out the lifecycle's first action: the transfer at once, or (with interceptors or
    /// plugins) a task that adapts the request and lets plugins see it, as for a ``DataRequest``.
    /// Their code never runs on the engine thread.
    private func perform(_ action: RequestStateMachine.Action, extensions: RequestExtensions) {
        switch action {
        case .complete:
            // The request could not be built.
            if case .failure(let error) = built {
                _ = handle(.completed)
                finish(request: nil, head: nil, metrics: nil, error: error)
            }
        case .send:
            guard case .success(let request) = built else { return }
            send(request) { result in
                if self.handle(.transportFinished) == .complete { self.transferEnded(result) }
            }
        case .adapt:
            guard case .success(let request) = built else { return }
            adopt(Task { await self.adaptAndSend(request, extensions: extensions) })
        default:
            break
        }
    }

    private func adaptAndSend(_ request: HTTPRequest, extensions: RequestExtensions) async {
        let context = RequestContext(target: target, session: session, requestID: session.nextRequestID(), attempt: 0)
        let prepared: HTTPRequest, sent: URLRequest
        do throws(CourierError) {
            (prepared, sent) = try await extensions.prepare(request, context: context)
        } catch {
            if handle(.adaptationFailed) == .complete {
                _ = handle(.completed)
                finish(request: request, head: nil, metrics: nil, error: error)
            }
            return
        }
        guard handle(.adapted) == .send(attempt: 0) else { return }
        extensions.willSend(sent, context: context)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<TransportResult, Never>) in
            self.send(prepared) { continuation.resume(returning: $0) }
        }
        guard handle(.transportFinished) == .complete else { return }
        buffer.complete(head: result.head, body: result.data, error: result.error)
        finishProgress(error: result.error)
        let response = self.response(of: result)
        extensions.didReceive(
            DataResponse(
                request: response.request, responseHead: result.head, data: nil,
                metrics: result.metrics, result: response.result.map { _ -> Data? in nil }),
            context: context)
        _ = handle(.completed)
        deliver(response)
    }

    /// Hands the request to the transport with the stream buffer attached.
    private func send(_ request: HTTPRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        var options = session.transferOptions(for: request)
        // A stream may rightly last for hours: only a time limit the request sets itself applies.
        if request.timeout == nil { options.requestTimeout = nil }
        options.responseStream = buffer
        options.progress = progress
        options.target = target
        options.sessionEpoch = epoch
        let token = session.execute(request, options: options, completion: completion)
        let cancelNow = state.withLock { state -> Bool in
            guard case .transferring(_, false) = state.machine.state else { return true }
            state.token = token
            return false
        }
        if cancelNow { token.cancel() }
    }

    private func adopt(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.machine.stopReason != nil
        }
        if cancelNow { task.cancel() }
    }

    /// The transport finished a request without plugins (on the engine thread: only Courier's
    /// own code runs here, handing the end to the buffer and the waiters).
    private func transferEnded(_ result: TransportResult) {
        buffer.complete(head: result.head, body: result.data, error: result.error)
        finishProgress(error: result.error)
        let response = response(of: result)
        _ = handle(.completed)
        deliver(response)
    }

    /// Ends a request that never reached the transport.
    private func finish(request: HTTPRequest?, head: ResponseHead?, metrics: TransferMetrics?, error: CourierError) {
        buffer.complete(head: nil, body: Data(), error: error)
        finishProgress(error: error)
        deliver(
            DataResponse(request: request, responseHead: head, data: nil, metrics: metrics, result: .failure(error)))
    }

    /// The final progress when the engine sent none (a stub transport, a request that never
    /// reached the engine, or nobody observing yet): the body bytes the buffer received. The
    /// engine's own final value, when it sent one, stands.
    private func finishProgress(error: CourierError?) {
        let received = Int64(buffer.receivedBytes)
        progress.finish(
            download: TransferProgress(completedBytes: received, totalBytes: error == nil ? received : nil),
            upload: TransferProgress(completedBytes: 0, totalBytes: nil))
    }

    /// The final response: a rejected head's validation error wins over the cancellation it
    /// caused. A head nobody asked for yet is judged now, so the completion always reflects it.
    private func response(of result: TransportResult) -> DataResponse<Void> {
        // A transfer cancelled mid-body has no head of its own in the result: the streamed one is it.
        let head = result.head ?? buffer.deliveredHead
        var rejection: CourierError?
        if let head, case .failure(let error) = settle(judge(head)) { rejection = error }
        let error = rejection ?? result.error
        return DataResponse(
            request: result.request, responseHead: head, data: nil,
            metrics: result.metrics, result: error.map { .failure($0) } ?? .success(()))
    }

    /// Records `verdict` unless one was recorded first; returns the one that counts.
    private func settle(_ verdict: Result<ResponseHead, CourierError>) -> Result<ResponseHead, CourierError> {
        state.withLock { state in
            if let earlier = state.verdict { return earlier }
            state.verdict = verdict
            return verdict
        }
    }

    /// Completes the request: the first call wins, every waiter gets the response once.
    private func deliver(_ response: DataResponse<Void>) {
        let waiters = state.withLock { state -> [@Sendable (DataResponse<Void>) -> Void] in
            guard state.completion == nil else { return [] }
            state.completion = response
            state.token = nil
            state.task = nil
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter(response) }
    }

    /// Cancels the transfer unless it has finished; before it started, finishes it at once.
    func cancel() {
        let (action, token, task) = state.withLock { state in
            (state.machine.handle(.cancel(.cancelled)), state.token, state.task)
        }
        switch action {
        case .cancelTransfer:
            token?.cancel()
        case .finish(let error):
            // Before the start, or while adapters ran: finished at once.
            task?.cancel()
            finish(request: try? built.get(), head: nil, metrics: nil, error: error)
        default:
            break
        }
    }

    var isCancelled: Bool { state.withLock { $0.machine.stopReason == .cancelled } }

    // MARK: Reading

    /// The validated head; a rejected head cancels the transfer and throws the validation error.
    func head() async throws(CourierError) -> ResponseHead {
        ensureStarted()
        if let verdict = state.withLock({ $0.verdict }) { return try verdict.get() }
        let head = await withTaskCancellationHandler {
            await buffer.head()
        } onCancel: {
            self.cancel()
        }
        guard let head else {
            throw buffer.end.error ?? .protocolViolation(message: "the transfer ended without a response")
        }
        let settled = settle(judge(head))
        if case .failure = settled { cancel() }
        return try settled.get()
    }

    private func judge(_ head: ResponseHead) -> Result<ResponseHead, CourierError> {
        let (statuses, types) = state.withLock { ($0.acceptsStatus, $0.contentTypes) }
        for accepts in statuses where !accepts(head.statusCode) {
            return .failure(.unacceptableStatusCode(head.statusCode))
        }
        for acceptable in types {
            // The body is not known yet, so the "empty body passes" rule cannot apply: check the type.
            if let error = DataRequest.Validator.check(
                contentType: head.value(forHeader: "Content-Type"),
                of: Data([0]), against: acceptable)
            {
                return .failure(error)
            }
        }
        return .success(head)
    }

    /// Marks the body as taken by an iterator; false when another one already has it.
    func claimBody() -> Bool {
        state.withLock { state in
            defer { state.bodyClaimed = true }
            return !state.bodyClaimed
        }
    }

    /// The next piece of the body, nil at its end; throws the transfer's (or validation's) error.
    func nextChunk() async throws(CourierError) -> Data? {
        let element = await withTaskCancellationHandler {
            await buffer.next()
        } onCancel: {
            self.cancel()
        }
        switch element {
        case .chunk(let chunk):
            return chunk
        case .end(let transportError):
            let rejection: CourierError? = state.withLock { state in
                if case .failure(let error)? = state.verdict { return error }
                return nil
            }
            if let error = rejection ?? transportError { throw error }
            return nil
        }
    }

    /// An iterator went away before the end: stop the transfer and drop what is buffered.
    func abandonBody() {
        cancel()
        buffer.discard()
    }

    /// Waits for the one completion.
    func completion() async -> DataResponse<Void> {
        ensureStarted()
        return await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<Void>, Never>) in
            let done = state.withLock { state -> DataResponse<Void>? in
                if let completion = state.completion { return completion }
                state.waiters.append { continuation.resume(returning: $0) }
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
