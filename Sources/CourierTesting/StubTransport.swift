import Courier
import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers from canned responses and records every request: give it to a
/// `Session` and everything above the transport runs for real (default headers,
/// plugins, interceptors, retries, validation, services and `judgeStatus`).
///
/// ```swift
/// let stubs = StubTransport()                          // routers' sampleData by default
/// stubs.on(.request(.post, "/auth/signin"),
///          reply: .json(#"{"status":409,"success":false,"message":"wrong password"}"#, statusCode: 409))
/// stubs.on(.request(.get, "/me"), reply: .empty(statusCode: 401), .json(me))   // a sequence: 401, then 200
/// let session = Session(transport: stubs)
/// ...
/// XCTAssertEqual(stubs.requests.map(\.path), ["/auth/signin", "/me", "/me"])
/// ```
/// How a request is answered, first match wins:
/// 1. the stubs registered with `on(...)`, the most recent first (so a test can override a
///    stub from `setUp`); a sequence answers its responses in order, then repeats the last;
/// 2. the `fallback` closure, if it returns a response;
/// 3. the router's `Router.sampleData` with its `Router.sampleStatusCode` and
///    `Router.sampleHeaders`, when the request came from a router that declares a sample
///    (non-empty data, or a status other than 200) and `sampleData` is on;
/// 4. otherwise the request fails with `CourierError.unhandledRequest`, whose
///    reason describes the request (method, URL, headers with secrets redacted, body excerpt)
///    and lists the stubs tried; it is also listed in ``unmatchedRequests``. Never a silent success.
public final class StubTransport: Transport {
    /// When stubs answer unless a response says otherwise.
    package let behavior: StubBehavior
    /// The clock `.delayed` answers wait on: the wall clock, or a `TestClock` for virtual time.
    package let clock: any CourierClock
    /// Whether routers' sample responses answer requests no stub matched.
    package let answersWithSampleData: Bool
    private let fallback: (@Sendable (RecordedRequest) -> StubResponse?)?

    /// A matcher and its responses; `served` counts the requests it answered.
    private final class Rule: Sendable {
        let matcher: RequestMatcher
        let responses: [StubResponse]
        private let served = Locked(0)

        init(matcher: RequestMatcher, responses: [StubResponse]) {
            self.matcher = matcher
            self.responses = responses
        }

        func nextResponse() -> StubResponse {
            let index = served.withLock { count in
                defer { count += 1 }
                return count
            }
            guard let last = responses.last else {
                return .failure(.unhandledRequest(reason: "the stub for \(matcher) has no responses"))
            }
            return index < responses.count ? responses[index] : last
        }
    }

    private struct State {
        var rules: [Rule] = []
        var requests: [RecordedRequest] = []
        var unmatched: [RecordedRequest] = []
    }

    private let state = Locked(State())

    /// Creates a stub transport.
    /// - Parameters:
    ///   - behavior: when answers come; a response's own (``StubResponse/with(_:)``) wins.
    ///   - clock: what `.delayed` answers wait on: the wall clock when nil; a ``TestClock`` makes
    ///     the wait virtual (pass the same clock to `Session.Configuration.clock` to drive retry
    ///     backoff too).
    ///   - sampleData: whether routers' sample responses answer requests no stub matched.
    ///   - fallback: asked before sample data for requests no stub matched; return nil to pass.
    public init(
        behavior: StubBehavior = .immediate, clock: (any CourierClock)? = nil, sampleData: Bool = true,
        fallback: (@Sendable (RecordedRequest) -> StubResponse?)? = nil
    ) {
        self.behavior = behavior
        self.clock = clock ?? SystemClock()
        self.answersWithSampleData = sampleData
        self.fallback = fallback
    }

    // MARK: Stubbing

    /// Answers requests matching `matcher` with `first`, then each of `rest` in turn; the last
    /// response answers every request after that. Overrides earlier stubs for the same requests.
    public func on(_ matcher: RequestMatcher, reply first: StubResponse, _ rest: StubResponse...) {
        on(matcher, replies: [first] + rest)
    }

    /// Answers requests matching `matcher` with `responses` in order, then repeats the last.
    public func on(_ matcher: RequestMatcher, replies responses: [StubResponse]) {
        state.withLock { $0.rules.append(Rule(matcher: matcher, responses: responses)) }
    }

    /// Forgets every stub registered with `on(...)` (recorded requests are kept).
    public func removeAllStubs() {
        state.withLock { $0.rules.removeAll() }
    }

    // MARK: Recording

    /// Every request received, in call order (retries and replays included).
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The requests that matched nothing and failed with `CourierError.unhandledRequest`.
    public var unmatchedRequests: [RecordedRequest] { state.withLock { $0.unmatched } }

    /// The recorded requests that `matcher` accepts, in call order.
    public func requests(matching matcher: RequestMatcher) -> [RecordedRequest] {
        requests.filter(matcher.matches)
    }

    /// Forgets the recorded requests (stubs are kept).
    public func clearRequests() {
        state.withLock { state in
            state.requests.removeAll()
            state.unmatched.removeAll()
        }
    }

    // MARK: Transport

    /// Records the request, picks its answer (see the type's documentation) and delivers it
    /// according to its behaviour; the completion runs exactly once, on another thread.
    public func execute(
        _ request: HTTPRequest, options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        let recorded = state.withLock { state in
            let recorded = RecordedRequest(
                request, target: options.target, index: state.requests.count,
                security: options.security)
            state.requests.append(recorded)
            return recorded
        }
        let call = StubCall(request: request, options: options, completion: completion)
        let response = answer(to: recorded)
        switch response.behavior ?? behavior {
        case .immediate:
            DispatchQueue.global().async { call.answer(with: response) }
        case .delayed(let seconds):
            clock.schedule(after: seconds) { call.answer(with: response) }
        case .never:
            break
        }
        return call
    }

    /// The response for `request`: a stub, the fallback, the router's sample, or a loud failure.
    private func answer(to request: RecordedRequest) -> StubResponse {
        let rules = state.withLock { $0.rules }
        if let rule = rules.last(where: { $0.matcher.matches(request) }) {
            return rule.nextResponse()
        }
        if let fallback, let response = fallback(request) {
            return response
        }
        if answersWithSampleData, let router = request.target as? any Router, Self.declaresSample(router) {
            return StubResponse(
                statusCode: router.sampleStatusCode, headers: router.sampleHeaders,
                body: router.sampleData)
        }
        state.withLock { $0.unmatched.append(request) }
        return .failure(.unhandledRequest(reason: unmatchedReason(request, rules: rules)))
    }

    /// A router declares a sample when its data is not empty or its status is not the default.
    private static func declaresSample(_ router: any Router) -> Bool {
        !router.sampleData.isEmpty || router.sampleStatusCode != 200
    }

    private func unmatchedReason(_ request: RecordedRequest, rules: [Rule]) -> String {
        var lines = ["no stub matches this request (StubTransport):", request.description]
        if rules.isEmpty {
            lines.append("no stubs are registered")
        } else {
            lines.append("stubs tried, most recent first:")
            lines += rules.reversed().map { "  - \($0.matcher)" }
        }
        if let router = request.target as? any Router, answersWithSampleData {
            lines.append("\(RecordedRequest.name(of: router)) declares no sampleData")
        }
        return lines.joined(separator: "\n")
    }
}
