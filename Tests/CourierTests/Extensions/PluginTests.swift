@testable import Courier
import CourierSync
import CourierTestServer
import Dispatch
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plugins against the in-process server: order, mutation, the delivery guarantee, threads, failures.
final class PluginTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    func testHooksRunInRegistrationOrderSessionThenRequest() async {
        let log = EventLog()
        let session = Session.with(plugins: [RecordingPlugin(name: "A", log: log), RecordingPlugin(name: "B", log: log)]
        )
        let response = await session.request(.url(server.url("/hello"))).plugin(RecordingPlugin(name: "C", log: log))
            .response()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(
            log.all,
            [
                "A.prepare", "B.prepare", "C.prepare", "A.willSend", "B.willSend", "C.willSend",
                "A.didReceive.200", "B.didReceive.200", "C.didReceive.200",
                "A.process", "B.process", "C.process"
            ])
        XCTAssertEqual(
            server.recordedRequests(path: "/hello").first?.header("X-Plugins"), "A,B,C",
            "each prepare sees the previous one's request")
    }

    func testPrepareMayRewriteTheRequestAndProcessTheResult() async throws {
        struct Rewrite: Plugin {
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                var request = request
                request.url = request.url?.deletingLastPathComponent().appendingPathComponent("echo")
                request.setValue("yes", forHTTPHeaderField: "X-Rewritten")
                return request
            }
            func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
                response.map { _ in Data("processed".utf8) }
            }
        }
        let session = Session.with(plugins: [Rewrite()])
        let text = try await session.request(.url(server.url("/hello"))).string()
        XCTAssertEqual(text, "processed")
        XCTAssertEqual(server.recordedRequests(path: "/echo").first?.header("X-Rewritten"), "yes")
        XCTAssertTrue(server.recordedRequests(path: "/hello").isEmpty)
    }

    func testProcessCanTurnASuccessIntoATypedFailure() async {
        struct Envelope: Plugin {
            func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
                response.tryMap { body in
                    if body.map({ String(decoding: $0, as: UTF8.self) })?.contains("\"ok\":false") == true {
                        throw CourierError.unacceptableStatusCode(599)
                    }
                    return body
                }
            }
        }
        server.route("/flagged") { _ in .jsonString(#"{"ok":false}"#) }
        let response = await Session.with(plugins: [Envelope()]).request(.url(server.url("/flagged"))).response()
        XCTAssertSameError(response.error, .unacceptableStatusCode(599))
        XCTAssertEqual(response.statusCode, 200)
    }

    func testDidReceiveAndProcessFinishBeforeTheCompletionHandler() async {
        let log = EventLog()
        let session = Session.with(plugins: [RecordingPlugin(name: "P", log: log)])
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            session.request(.url(server.url("/hello"))).response { _ in continuation.resume(returning: log.all) }
        }
        XCTAssertTrue(seen.contains("P.didReceive.200"))
        XCTAssertEqual(seen.last, "P.process")
    }

    func testDidReceiveAndProcessFinishBeforeAnAsyncReturn() async {
        let log = EventLog()
        let session = Session.with(plugins: [RecordingPlugin(name: "P", log: log)])
        _ = await session.request(.url(server.url("/hello"))).response()
        XCTAssertEqual(log.all.last, "P.process", "the plugins ran before the await returned")
    }

    func testPluginsNeverRunOnTheEngineThread() async {
        // Request A's plugin blocks until request B (same session, same engine), sent only once
        // A's plugin is blocking, has completed. Run on the engine thread, it would stall B until
        // the plugin gives up (60 s, so that a broken build cannot hang).
        let bDone = DispatchSemaphore(value: 0)
        let threads = EventLog()
        struct Blocking: Plugin {
            let gate: DispatchSemaphore
            let threads: EventLog
            func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
                if response.request?.url.path == "/hello" {
                    threads.append("A blocks")
                    threads.append(gate.wait(timeout: .now() + 60) == .success ? "B finished first" : "B stalled")
                }
            }
        }
        let session = Session.with(plugins: [Blocking(gate: bDone, threads: threads)])
        let helloURL = server.url("/hello")
        async let a = session.request(.url(helloURL)).response()
        await waitUntil { threads.contains("A blocks") }
        XCTAssertTrue(threads.contains("A blocks"), "B is sent while A's plugin blocks")
        let b = await session.request(.url(server.url("/echo"))).response()
        bDone.signal()
        XCTAssertEqual(b.statusCode, 200)
        _ = await a
        XCTAssertTrue(threads.contains("B finished first"), "\(threads.all)")
    }

    func testThrowingPrepareFailsWithATypedErrorAndSendsNothing() async {
        struct Refuses: Plugin {
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                throw TestFailure("no way")
            }
        }
        let log = EventLog()
        let session = Session.with(plugins: [Refuses(), RecordingPlugin(name: "after", log: log)])
        let response = await session.request(.url(server.url("/hello"))).response()
        XCTAssertSameError(
            response.error, .pluginFailed(plugin: "Refuses", hook: .prepare, underlying: TestFailure("no way")))
        XCTAssertEqual(response.error?.subject, "Refuses")
        XCTAssertEqual((response.error?.underlying as? TestFailure)?.description, "no way")
        XCTAssertTrue(server.recordedRequests(path: "/hello").isEmpty)
        XCTAssertEqual(log.all, ["after.process"], "nothing was sent, but process still sees the failure")
    }

    func testACourierErrorThrownByAPluginIsKept() async {
        struct Offline: Plugin {
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                throw CourierError.cannotConnect(message: "offline mode")
            }
        }
        let response = await Session.with(plugins: [Offline()]).request(.url(server.url("/hello"))).response()
        XCTAssertSameError(response.error, .cannotConnect(message: "offline mode"))
    }

    func testThrowingProcessFailsTheResultAndLaterPluginsSeeTheFailure() async {
        struct Breaks: Plugin {
            func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
                throw TestFailure("broken")
            }
        }
        struct Sees: Plugin {
            let log: EventLog
            func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
                log.append(response.error.map { "\($0)" } ?? "success")
                return response
            }
        }
        let log = EventLog()
        let calls = Counter()
        let response = await withCheckedContinuation {
            (continuation: CheckedContinuation<DataResponse<Data?>, Never>) in
            Session.with(plugins: [Breaks(), Sees(log: log)]).request(.url(server.url("/hello"))).response { response in
                calls.increment()
                continuation.resume(returning: response)
            }
        }
        XCTAssertSameError(
            response.error, .pluginFailed(plugin: "Breaks", hook: .process, underlying: TestFailure("broken")))
        XCTAssertEqual(log.all, ["Plugin Breaks failed in process: broken"])
        XCTAssertEqual(calls.value, 1)
    }

    func testALoggerAtOffIsLeftOutLikeNoPlugin() async {
        let session = Session.with(plugins: [NetworkLogger(level: .off)])
        XCTAssertTrue(session.extensions.isEmpty, "a logger at .off leaves the session without plugins")
        let request = session.request(.url(server.url("/hello"))).plugin(NetworkLogger(level: .off))
        let response = await request.response()
        XCTAssertEqual(response.statusCode, 200)
    }

    func testPluginsSeeTheRouterAndOneRequestIDPerRequest() async {
        struct Seen: Plugin {
            let log: EventLog
            func willSend(_ request: URLRequest, context: RequestContext) {
                log.append("\(context.router?.path ?? "none") #\(context.requestID)")
            }
        }
        struct Hello: Router {
            let baseURL: String
            var path: String { "/hello" }
            var method: HTTPMethod { .get }
        }
        let log = EventLog()
        let session = Session.with(plugins: [Seen(log: log)])
        _ = await session.request(Hello(baseURL: server.baseURL.absoluteString)).response()
        _ = await session.request(.url(server.url("/hello"))).response()
        XCTAssertEqual(log.all, ["/hello #1", "none #2"])
    }

    func testAFailedBuildStillCompletesOnceThroughProcess() async {
        let log = EventLog()
        let response = await Session.with(plugins: [RecordingPlugin(name: "P", log: log)]).request(.url("ftp://x/"))
            .response()
        XCTAssertSameError(response.error, .unsupportedScheme("ftp"))
        XCTAssertEqual(log.all, ["P.process"])
    }
}
