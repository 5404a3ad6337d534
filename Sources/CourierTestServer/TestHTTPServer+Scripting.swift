import CourierSync
import Foundation

extension TestHTTPServer {
    /// Registers a route answering `responses` in order, one per request, then repeating the
    /// last: a session that expires (`401` then `200`), a flaky endpoint (`503`, `503`, `200`).
    /// `method` and `path` match as in ``route(_:_:_:)``; an empty list answers 500.
    /// ```swift
    /// server.route("GET", "/me", responses: [.jsonString(#"{"error":"expired"}"#, status: 401), .json(me)])
    /// ```
    public func route(_ method: String? = nil, _ path: String, responses: [TestHTTPResponse]) {
        let served = Locked(0)
        route(method, path) { _ in
            let index = served.withLock { count in
                defer { count += 1 }
                return count
            }
            guard let last = responses.last else { return .text("no responses for \(path)", status: 500) }
            return index < responses.count ? responses[index] : last
        }
    }

    /// Registers a route for `path` and any method answering `responses` in order; shorthand for
    /// `route(nil, path, responses: responses)`.
    public func route(_ path: String, responses: [TestHTTPResponse]) {
        route(nil, path, responses: responses)
    }

    /// Makes the next `count` requests to `path` (any path when nil) misbehave: their normal
    /// response (custom or built-in route) is sent with `behaviour`, such as
    /// `.closeBeforeHeaders`, `.truncate(sendBytes:declaredLength:)` or `.delay(ms:)`. Later
    /// requests are answered normally. Queued faults apply in the order they were queued.
    /// ```swift
    /// server.failNext(2, path: "/items", with: .closeBeforeHeaders)   // a retrying client's third try succeeds
    /// ```
    public func failNext(_ count: Int = 1, path: String? = nil, with behaviour: TestHTTPResponse.Behaviour) {
        queue(InjectedFault(path: path, change: .behaviour(behaviour), remaining: count))
    }

    /// Makes the next `count` requests to `path` (any path when nil) get `response` instead of
    /// their normal one, such as `.empty(status: 503)`. Later requests are answered normally.
    public func failNext(_ count: Int = 1, path: String? = nil, with response: TestHTTPResponse) {
        queue(InjectedFault(path: path, change: .response(response), remaining: count))
    }

    /// Forgets the faults queued with `failNext` that have not been used up.
    public func removeAllFaults() {
        core.state.withLock { $0.faults.removeAll() }
    }

    /// Waits (up to `timeout` seconds) until at least `count` requests to `path` (any path when
    /// nil) have been received; returns whether they were. Use it before cancelling or shutting
    /// down, to be sure a request reached the server.
    public func waitForRequests(count: Int = 1, path: String? = nil, timeout: TimeInterval = 10) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let received = path.map { recordedRequests(path: $0).count } ?? recordedRequests.count
            if received >= count { return true }
            if Date() >= deadline { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    private func queue(_ fault: InjectedFault) {
        guard fault.remaining > 0 else { return }
        core.state.withLock { $0.faults.append(fault) }
    }
}
