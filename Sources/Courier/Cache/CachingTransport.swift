import CourierSync
import Foundation

/// The cache and the coalescer in front of a transport: what the request driver calls for each
/// transfer instead of the transport itself, when the session has a cache or coalesces.
///
/// Order: identical requests are coalesced first (``RequestCoalescer``), so one shared transfer
/// reads and writes the cache once; the leader then asks the cache (``HTTPCache``), sends what it
/// plans (with a revalidation's conditions), and hands the outcome to every member. Downloads to a
/// file, streamed responses and resumed transfers pass straight through. A response reached
/// through a redirect is delivered but not stored (its URL is not the request's).
final class CachingTransport: Transport {
    let wrapped: any Transport
    let cache: HTTPCache?
    let coalescer: RequestCoalescer?
    let policy: Session.CachePolicy
    private let now: @Sendable () -> Date

    /// `transport` behind the cache and coalescing `configuration` asks for (coalescing only when
    /// `coalesces`), or `transport` itself when it asks for neither.
    static func wrapping(
        _ transport: any Transport, configuration: Session.Configuration, coalesces: Bool
    ) -> any Transport {
        let cache = HTTPCache(configuration.cache)
        guard cache != nil || coalesces else { return transport }
        return CachingTransport(
            wrapping: transport, cache: cache, coalesces: coalesces, policy: configuration.cachePolicy)
    }

    init(
        wrapping transport: any Transport, cache: HTTPCache?, coalesces: Bool, policy: Session.CachePolicy,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        wrapped = transport
        self.cache = cache
        coalescer = coalesces ? RequestCoalescer() : nil
        self.policy = policy
        self.now = now
    }

    func execute(
        _ request: HTTPRequest, options: TransferOptions, completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        guard options.destination == nil, options.responseStream == nil, options.resumeOffset == nil else {
            return wrapped.execute(request, options: options, completion: completion)
        }
        guard let coalescer, options.coalesces,
            let key = CoalescingKey(
                method: request.method, url: request.url, headers: request.headers, hasBody: request.body != .none,
                scope: CoalescingKey.Scope(
                    epoch: options.sessionEpoch, requestTimeout: options.requestTimeout,
                    connectTimeout: options.connectTimeout))
        else {
            return fetch(request, options: options, completion: completion)
        }
        let (ticket, action) = coalescer.join(
            key, leaving: TransportResult(request: request, error: .cancelled), deliver: completion)
        if case .start(let group) = action {
            coalescer.started(group, transfer: fetch(request, options: options) { coalescer.finish(group, with: $0) })
        }
        return MemberToken(coalescer: coalescer, ticket: ticket)
    }

    /// One request through the cache (when there is one) and the wrapped transport.
    private func fetch(
        _ request: HTTPRequest, options: TransferOptions, completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        guard let cache else { return wrapped.execute(request, options: options, completion: completion) }
        // A request with a body is never answered from the cache (nor stored); an unsafe one
        // still invalidates what is stored for its URL.
        let cacheRequest = CacheRequest(request)
        if request.body != .none, CacheRules.safeMethods.contains(cacheRequest.method.uppercased()) {
            return wrapped.execute(request, options: options, completion: completion)
        }
        let plan = cache.prepare(cacheRequest, policy: options.cachePolicy ?? policy, now: now())
        switch plan.action {
        case .respond(let response, let outcome):
            completion(Self.result(response, for: request, outcome: outcome, metrics: TransferMetrics()))
            return SharedToken()
        case .send(let conditions):
            var sent = request
            for condition in conditions { sent.headers.update(name: condition.name, value: condition.value) }
            let token = SharedToken()
            send(
                sent, answering: request, plan: plan, cacheRequest: cacheRequest, options: options, token: token,
                completion: completion)
            return token
        }
    }

    /// Sends `sent` (the caller's `request`, maybe with conditions added) to the wrapped transport
    /// under `token`; its result goes through ``finish(_:plan:request:cacheRequest:sentAt:options:token:completion:)``.
    private func send(
        _ sent: HTTPRequest, answering request: HTTPRequest, plan: HTTPCache.Plan, cacheRequest: CacheRequest,
        options: TransferOptions, token: SharedToken, completion: @escaping @Sendable (TransportResult) -> Void
    ) {
        let sentAt = now()
        let transfer = token.nextTransfer()
        token.set(
            transfer,
            wrapped.execute(sent, options: options) { [self] result in
                token.transferEnded(transfer)
                self.finish(
                    result, plan: plan, request: request, cacheRequest: cacheRequest, sentAt: sentAt,
                    options: options, token: token, completion: completion)
            })
    }

    private func finish(
        _ result: TransportResult, plan: HTTPCache.Plan, request: HTTPRequest, cacheRequest: CacheRequest,
        sentAt: Date, options: TransferOptions, token: SharedToken,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) {
        guard let cache, result.error == nil, let head = result.head else { return completion(result) }
        let redirected = (result.metrics?.redirectCount ?? 0) > 0
        let effectivePlan = HTTPCache.Plan(
            action: plan.action, revalidating: plan.revalidating, storable: plan.storable && !redirected)
        let response = CacheResponse(
            statusCode: head.statusCode, headers: head.fields.pairs.map { CacheHeader($0.0, $0.1) }, body: result.data)
        switch cache.complete(
            effectivePlan, request: cacheRequest, response: response, requestTime: sentAt, responseTime: now())
        {
        case .deliver(let delivered, let outcome):
            if outcome == .miss {
                // The server's response as it came (its final URL and HTTP version kept).
                var passed = result
                passed.metrics = (result.metrics ?? TransferMetrics()).with(outcome)
                return completion(passed)
            }
            completion(
                Self.result(delivered, for: request, outcome: outcome, metrics: result.metrics ?? TransferMetrics()))
        case .refetch:
            let again = HTTPCache.Plan(action: .send(addingHeaders: []), revalidating: nil, storable: plan.storable)
            send(
                request, answering: request, plan: again, cacheRequest: cacheRequest, options: options, token: token,
                completion: completion)
        }
    }

    private static func result(
        _ response: CacheResponse, for request: HTTPRequest, outcome: TransferMetrics.CacheOutcome,
        metrics: TransferMetrics
    ) -> TransportResult {
        TransportResult(
            request: request, statusCode: response.statusCode,
            headers: HTTPHeaders(response.headers.map { HTTPHeader(name: $0.name, value: $0.value) }),
            body: response.body, metrics: metrics.with(outcome))
    }
}

extension TransferMetrics {
    fileprivate func with(_ outcome: TransferMetrics.CacheOutcome) -> TransferMetrics {
        var metrics = self
        metrics.cacheOutcome = outcome
        return metrics
    }
}

extension CacheRequest {
    /// The cache's view of a request about to be sent.
    init(_ request: HTTPRequest) {
        self.init(
            method: request.method.rawValue, url: request.url,
            headers: request.headers.map { CacheHeader($0.name, $0.value) })
    }
}

/// The cancel handle of a transfer that may be started, or restarted, after the handle was given
/// out: a `cancel()` before then cancels what is set later.
final class SharedToken: TransportCancellable {
    /// The current transfer's handle; its number (one per `send`); whether it ended.
    private let state = Locked(
        (token: (any TransportCancellable)?.none, cancelled: false, transfer: 0, ended: false))

    /// Numbers the next transfer, before it is started.
    func nextTransfer() -> Int {
        state.withLock { state in
            state.transfer += 1
            state.ended = false
            return state.transfer
        }
    }

    /// Keeps `token`, the handle of transfer number `transfer`, for ``cancel()``; not when that
    /// transfer already ended (it can end before `execute` returns its handle, and a handle kept
    /// then would never be forgotten).
    func set(_ transfer: Int, _ token: any TransportCancellable) {
        let cancelNow = state.withLock { state -> Bool in
            if state.transfer == transfer, !state.ended { state.token = token }
            return state.cancelled
        }
        if cancelNow { token.cancel() }
    }

    func cancel() {
        let token = state.withLock { state -> (any TransportCancellable)? in
            state.cancelled = true
            return state.token
        }
        token?.cancel()
    }

    /// Forgets transfer number `transfer` once it has completed: its completion holds this token,
    /// and the transport's handle may hold its completion, so keeping the handle would keep both
    /// alive.
    func transferEnded(_ transfer: Int) {
        state.withLock { state in
            guard state.transfer == transfer else { return }
            state.token = nil
            state.ended = true
        }
    }
}

/// One coalesced caller's cancel handle: it leaves the group (and its caller completes with
/// ``CourierError/cancelled`` at once); the last one leaving cancels the shared transfer. Three
/// words, so that it is stored inline in the existential.
private struct MemberToken: TransportCancellable {
    let coalescer: RequestCoalescer
    let ticket: RequestCoalescer.Ticket

    func cancel() {
        coalescer.leave(ticket)
    }
}
