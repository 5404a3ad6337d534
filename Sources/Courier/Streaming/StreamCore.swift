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
    private enum Phase { case idle, running, finished }

    private struct State {
        var phase = Phase.idle
        var acceptsStatus: [@Sendable (Int) -> Bool] = []
        var contentTypes: [[String]] = []
        var token: (any TransportCancellable)?
        var task: Task<Void, Never>?
        var cancelRequested = false
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
        let start = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .running
            return true
        }
        if start { self.start() }
    }

    private func start() {
        let request: HTTPRequest
        switch built {
        case .failure(let error):
            return finish(request: nil, head: nil, metrics: nil, error: error)
        case .success(let built):
            request = built
        }
        if let error = session.interruption(since: epoch) {
            return finish(request: request, head: nil, metrics: nil, error: error)
        }
        let extensions = session.extensions
        if extensions.isEmpty {
            send(request, completion: { self.transferEnded(request: request, $0) })
            return
        }
        // Interceptors adapt the request and plugins see it, as for a DataRequest (no retries:
        // a body being read cannot be taken back). Their code never runs on the engine thread.
        let context = RequestContext(target: target, session: session, requestID: session.nextRequestID(), attempt: 0)
        let task = Task {
            let prepared: HTTPRequest, sent: URLRequest
            do throws(CourierError) {
                (prepared, sent) = try await extensions.prepare(request, context: context)
            } catch {
                return self.finish(request: request, head: nil, metrics: nil, error: error)
            }
            extensions.willSend(sent, context: context)
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<TransportResult, Never>) in
                self.send(prepared) { result in
                    self.buffer.complete(head: result.head, body: result.data, error: result.error)
                    self.finishProgress(error: result.error)
                    continuation.resume(returning: result)
                }
            }
            let response = self.response(of: result)
            extensions.didReceive(
                DataResponse(
                    request: response.request, responseHead: result.head, data: nil,
                    metrics: result.metrics, result: response.result.map { _ -> Data? in nil }),
                context: context)
            self.deliver(response)
        }
        adopt(task)
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
            guard case .running = state.phase else { return true }
            state.token = token
            return state.cancelRequested
        }
        if cancelNow { token.cancel() }
    }

    private func adopt(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    /// The transport finished (engine thread on the direct path).
    private func transferEnded(request: HTTPRequest, _ result: TransportResult) {
        buffer.complete(head: result.head, body: result.data, error: result.error)
        finishProgress(error: result.error)
        deliver(response(of: result))
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
            state.phase = .finished
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
        let (token, task, notStarted) = state.withLock {
            state -> ((any TransportCancellable)?, Task<Void, Never>?, Bool) in
            switch state.phase {
            case .finished: return (nil, nil, false)
            case .idle:
                state.cancelRequested = true
                state.phase = .running
                return (nil, nil, true)
            case .running:
                state.cancelRequested = true
                return (state.token, state.task, false)
            }
        }
        task?.cancel()
        token?.cancel()
        if notStarted {
            finish(request: try? built.get(), head: nil, metrics: nil, error: .cancelled)
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelRequested } }

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
