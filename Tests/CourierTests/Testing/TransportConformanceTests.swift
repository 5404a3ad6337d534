import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `TransportConformance` run against every transport Courier ships, and shown to catch
/// transports that break the contract.
final class TransportConformanceTests: XCTestCase {
    private func request(_ url: String) -> HTTPRequest { HTTPRequest(testing: URL(string: url)!) }

    func testTheEngineConforms() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let engine = Locked<(any Transport)?>(nil)
        let session = Session { live in
            engine.withLock { $0 = live }
            return live
        }
        let transport = try XCTUnwrap(engine.withLock { $0 })
        let report = await TransportConformance(
            transport: transport, answered: HTTPRequest(testing: server.url("/hello")),
            pending: HTTPRequest(testing: server.url("/never"))
        ).run()
        XCTAssertTrue(report.failures.isEmpty, report.description)
        XCTAssertEqual(report.checks.filter { $0.skippedBecause != nil }.count, 0)
        withExtendedLifetime(session) {}
    }

    /// The report on a stub transport with `behavior` that answers `/answered` and never `/pending`.
    private func stubReport(_ behavior: StubBehavior) async -> TransportConformanceReport {
        let stubs = StubTransport(behavior: behavior)
        stubs.on(.request(.get, "/answered"), reply: .text("ok"))
        stubs.on(.request(.get, "/pending"), reply: StubResponse(behavior: .never))
        return await TransportConformance(
            transport: stubs, answered: request("https://stub.test/answered"),
            pending: request("https://stub.test/pending")
        ).run()
    }

    func testTheStubTransportConforms() async {
        let report = await stubReport(.immediate)
        XCTAssertTrue(report.failures.isEmpty, report.description)
    }

    func testTheDelayedStubTransportConforms() async {
        let report = await stubReport(.delayed(seconds: 0.01))
        XCTAssertTrue(report.failures.isEmpty, report.description)
    }

    func testTheReplayTransportConformsInReplayAndRecordModes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try TestHTTPServer()
        let recording = ReplayTransport(fixtures: directory, mode: .record)
        let recordReport = await TransportConformance(
            transport: recording, answered: HTTPRequest(testing: server.url("/hello")),
            pending: HTTPRequest(testing: server.url("/never"))
        ).run()
        XCTAssertTrue(recordReport.failures.isEmpty, recordReport.description)
        server.shutdown()

        let replaying = ReplayTransport(fixtures: directory, mode: .replay)
        let replayReport = await TransportConformance(
            transport: replaying,
            answered: HTTPRequest(testing: server.url("/hello"))
        ).run()
        XCTAssertTrue(replayReport.failures.isEmpty, replayReport.description)
        XCTAssertEqual(
            replayReport.checks.filter { $0.skippedBecause != nil }.map(\.name),
            ["cancel before completion", "concurrent cancels"])
    }

    // MARK: The helper catches broken transports

    /// Completes twice, and ignores cancellation.
    struct Careless: Transport {
        struct Token: TransportCancellable { func cancel() {} }
        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            let hangs = request.url.path == "/pending"
            DispatchQueue.global().async {
                guard !hangs else { return }
                completion(TransportResult(request: request, statusCode: 200))
                completion(TransportResult(request: request, statusCode: 200))
            }
            return Token()
        }
    }

    /// Answers every request with the result of the first one it saw.
    final class Mixer: Transport {
        struct Token: TransportCancellable { func cancel() {} }
        private let first = Locked<HTTPRequest?>(nil)
        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            let answered = first.withLock { stored in
                if stored == nil { stored = request }
                return stored ?? request
            }
            DispatchQueue.global().async { completion(TransportResult(request: answered, statusCode: 200)) }
            return Token()
        }
    }

    func testTheHelperReportsDoubleCompletionsAndIgnoredCancellation() async {
        let report = await TransportConformance(
            transport: Careless(), answered: request("https://x.test/ok"),
            pending: request("https://x.test/pending"), timeout: 0.5
        ).run()
        XCTAssertFalse(report.failures.isEmpty)
        let failed = Set(report.checks.filter { !$0.failures.isEmpty }.map(\.name))
        XCTAssertTrue(
            failed.isSuperset(of: [
                "answers once", "cancel before completion", "concurrent cancels",
                "concurrent calls"
            ]), report.description)
        XCTAssertTrue(report.description.contains("completed 2 times"), report.description)
        XCTAssertTrue(report.description.contains("did not complete within 0.5 s"), report.description)
    }

    func testTheHelperReportsCrossedResults() async {
        let report = await TransportConformance(
            transport: Mixer(), answered: request("https://x.test/ok"),
            concurrency: 8
        ).run()
        let concurrent = report.checks.first { $0.name == "concurrent calls" }
        XCTAssertFalse(concurrent?.failures.isEmpty ?? true, report.description)
        XCTAssertTrue(report.description.contains("completed with the result of request"), report.description)
    }
}
