import Courier
import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Checks a `Transport` against the contract a `Session` relies on, so you can
/// run it on a transport of your own in your test suite:
/// ```swift
/// func testMyTransportKeepsTheContract() async {
///     let report = await TransportConformance(
///         transport: MyReplayStore(),
///         answered: try HTTPRequest(url: URL(string: "https://api.example.test/ping")!),  // gets a response
///         pending: try HTTPRequest(url: URL(string: "https://api.example.test/hang")!)    // never answers by itself
///     ).run()
///     XCTAssertTrue(report.failures.isEmpty, report.description)
/// }
/// ```
/// The checks:
/// - **answers once**: the `answered` request completes exactly once, with a response (a status
///   code and no error) for the request that was sent;
/// - **cancel after completion** does nothing: no second completion, from any thread;
/// - **cancel before completion** (needs `pending`): the request completes exactly once, with
///   `CourierError.cancelled`;
/// - **concurrent cancels** (needs `pending`): many threads cancelling at once still give one completion;
/// - **cancel racing the answer**: cancelling while the answer arrives gives one completion,
///   either the response or `.cancelled`;
/// - **concurrent calls**: `concurrency` requests started from many threads at once each
///   complete exactly once, with their own result (tagged with an `X-Courier-Conformance` header);
/// - **execute from a completion**: starting and cancelling another request from inside a
///   completion (as a retry does) works and does not deadlock.
///
/// Every completion is awaited for at most `timeout` seconds (a hang is reported, not waited
/// out); at the end the helper waits `settle` seconds more to catch late duplicate completions.
public struct TransportConformance: Sendable {
    /// The transport under test.
    package let transport: any Transport
    /// A request the transport answers with a response on its own.
    package let answered: HTTPRequest
    /// A request the transport leaves unanswered until it is cancelled; nil skips the checks needing one.
    package let pending: HTTPRequest?
    /// The options every call is given: those of a default `Session.Configuration()`.
    package let options: TransferOptions
    /// How many requests the concurrency checks start at once.
    package let concurrency: Int
    /// The longest wait, in seconds, for any one completion.
    package let timeout: TimeInterval
    /// How long, in seconds, to watch for late duplicate completions at the end.
    package let settle: TimeInterval

    /// Describes a run; nothing happens until ``run()``.
    public init(
        transport: any Transport, answered: HTTPRequest, pending: HTTPRequest? = nil, concurrency: Int = 32,
        timeout: TimeInterval = 10, settle: TimeInterval = 0.2
    ) {
        self.transport = transport
        self.answered = answered
        self.pending = pending
        self.options = TransferOptions(configuration: Session.Configuration())
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self.settle = settle
    }

    /// Runs every check and reports what failed.
    public func run() async -> TransportConformanceReport {
        var checks: [TransportConformanceReport.Check] = []
        var probes: [(String, Probe)] = []
        func record(_ name: String, _ outcome: (failures: [String], probes: [Probe])) {
            checks.append(.init(name: name, failures: outcome.failures, skippedBecause: nil))
            probes += outcome.probes.map { (name, $0) }
        }
        func skip(_ name: String) {
            checks.append(.init(name: name, failures: [], skippedBecause: "no pending request given"))
        }
        record("answers once", await answersOnce())
        record("cancel after completion", await cancelAfterCompletion())
        if let pending {
            record("cancel before completion", await cancelBeforeCompletion(pending))
            record("concurrent cancels", await concurrentCancels(pending))
        } else {
            skip("cancel before completion")
            skip("concurrent cancels")
        }
        record("cancel racing the answer", await cancelRacingAnswer())
        record("concurrent calls", await concurrentCalls())
        record("execute from a completion", await executeFromCompletion())

        // Late duplicates: every probe must still have exactly one completion.
        try? await Task.sleep(nanoseconds: UInt64(max(0, settle) * 1_000_000_000))
        let late = probes.filter { $0.1.count > 1 }
        if !late.isEmpty {
            let names = Set(late.map(\.0)).sorted().joined(separator: ", ")
            checks.append(
                .init(
                    name: "no late duplicate completions",
                    failures: ["\(late.count) call(s) completed more than once (in: \(names))"],
                    skippedBecause: nil))
        } else {
            checks.append(.init(name: "no late duplicate completions", failures: [], skippedBecause: nil))
        }
        return TransportConformanceReport(checks: checks)
    }

    // MARK: Checks

    private func answersOnce() async -> (failures: [String], probes: [Probe]) {
        let probe = start(answered)
        guard let result = await probe.first(within: timeout) else {
            return (["the answered request did not complete within \(timeout) s"], [probe])
        }
        var failures = [String]()
        if let error = result.error { failures.append("expected a response, got the error \(error)") }
        if result.error == nil, result.statusCode == nil {
            failures.append("a result with neither a status code nor an error")
        }
        if result.request.url != answered.url {
            failures.append("the result names \(result.request.url.absoluteString), not the request sent")
        }
        return (failures + probe.duplicates(), [probe])
    }

    private func cancelAfterCompletion() async -> (failures: [String], probes: [Probe]) {
        let probe = start(answered)
        guard await probe.first(within: timeout) != nil else {
            return (["the answered request did not complete within \(timeout) s"], [probe])
        }
        let token = probe.token
        DispatchQueue.concurrentPerform(iterations: 4) { _ in token?.cancel() }
        token?.cancel()
        return (probe.duplicates(), [probe])
    }

    private func cancelBeforeCompletion(_ pending: HTTPRequest) async -> (failures: [String], probes: [Probe]) {
        let probe = start(pending)
        probe.token?.cancel()
        return (await expectCancelled(probe), [probe])
    }

    private func concurrentCancels(_ pending: HTTPRequest) async -> (failures: [String], probes: [Probe]) {
        let probe = start(pending)
        let token = probe.token
        DispatchQueue.concurrentPerform(iterations: 8) { _ in token?.cancel() }
        return (await expectCancelled(probe), [probe])
    }

    private func cancelRacingAnswer() async -> (failures: [String], probes: [Probe]) {
        let probes = (0..<concurrency).map { _ in start(answered) }
        DispatchQueue.concurrentPerform(iterations: probes.count) { probes[$0].token?.cancel() }
        var failures = [String]()
        for probe in probes {
            guard let result = await probe.first(within: timeout) else {
                failures.append("a request cancelled while answering did not complete within \(timeout) s")
                continue
            }
            if let error = result.error, error != .cancelled {
                failures.append("expected the response or .cancelled, got \(error)")
            }
            failures += probe.duplicates()
        }
        return (Array(Set(failures)).sorted(), probes)
    }

    private func concurrentCalls() async -> (failures: [String], probes: [Probe]) {
        let requests = (0..<concurrency).map { index -> HTTPRequest in
            // A valid header on a valid request stays valid.
            (try? HTTPRequest(
                method: answered.method, url: answered.url,
                headers: answered.headers.merging([HTTPHeader(name: Self.tagHeader, value: String(index))]),
                body: answered.bodyData, timeout: answered.timeout)) ?? answered
        }
        let started = Locked([Int: Probe]())
        DispatchQueue.concurrentPerform(iterations: requests.count) { index in
            let probe = start(requests[index])
            started.withLock { $0[index] = probe }
        }
        let probes = started.withLock { $0 }.sorted { $0.key < $1.key }
        var failures = [String]()
        for (index, probe) in probes {
            guard let result = await probe.first(within: timeout) else {
                failures.append("request \(index) of \(requests.count) did not complete within \(timeout) s")
                continue
            }
            let tag = result.request.headers[Self.tagHeader]
            if tag != String(index) {
                failures.append("request \(index) completed with the result of request \(tag ?? "?")")
            }
            if let error = result.error { failures.append("request \(index) failed: \(error)") }
            failures += probe.duplicates()
        }
        return (failures, probes.map(\.value))
    }

    private func executeFromCompletion() async -> (failures: [String], probes: [Probe]) {
        let inner = Locked<Probe?>(nil)
        let outer = Probe()
        let transport = self.transport
        let options = self.options
        let followUp = pending ?? answered
        outer.token = transport.execute(answered, options: options) { [weak outer] result in
            outer?.complete(result)
            let probe = Probe()
            inner.withLock { $0 = probe }
            probe.token = transport.execute(followUp, options: options) { [weak probe] in probe?.complete($0) }
            probe.token?.cancel()
        }
        guard await outer.first(within: timeout) != nil else {
            return (["the first request did not complete within \(timeout) s"], [outer])
        }
        guard let probe = await waitForInner(inner), await probe.first(within: timeout) != nil else {
            return (
                ["a request started and cancelled inside a completion did not complete within \(timeout) s"], [outer]
            )
        }
        return (outer.duplicates() + probe.duplicates(), [outer, probe])
    }

    // MARK: Helpers

    static let tagHeader = "X-Courier-Conformance"

    private func start(_ request: HTTPRequest) -> Probe {
        let probe = Probe()
        // Weakly: the probe holds the token, and a token may keep its completion after finishing.
        probe.token = transport.execute(request, options: options) { [weak probe] in probe?.complete($0) }
        return probe
    }

    private func expectCancelled(_ probe: Probe) async -> [String] {
        guard let result = await probe.first(within: timeout) else {
            return ["a cancelled request did not complete within \(timeout) s"]
        }
        var failures = probe.duplicates()
        if result.error != .cancelled {
            failures.append(
                "expected .cancelled, got \(result.error.map { "\($0)" } ?? "status \(result.statusCode ?? 0)")")
        }
        return failures
    }

    private func waitForInner(_ inner: Locked<Probe?>) async -> Probe? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let probe = inner.withLock({ $0 }) { return probe }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return nil
    }
}

/// Counts the completions of one call and keeps the first result.
private final class Probe: Sendable {
    private struct State {
        var results: [TransportResult] = []
        var token: (any TransportCancellable)?
    }

    private let state = Locked(State())

    var token: (any TransportCancellable)? {
        get { state.withLock { $0.token } }
        set { state.withLock { $0.token = newValue } }
    }

    var count: Int { state.withLock { $0.results.count } }

    func complete(_ result: TransportResult) {
        state.withLock { $0.results.append(result) }
    }

    /// The first result, waiting up to `timeout` seconds for it.
    func first(within timeout: TimeInterval) async -> TransportResult? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let first = state.withLock({ $0.results.first }) { return first }
            guard Date() < deadline else { return nil }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    func duplicates() -> [String] {
        let count = self.count
        return count > 1 ? ["completed \(count) times"] : []
    }
}
