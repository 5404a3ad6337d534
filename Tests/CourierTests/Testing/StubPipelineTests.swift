import Courier
import CourierSync
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline above a `StubTransport` (retries, plugins, interceptors, streams, validation,
/// downloads) and the recorder of what was sent.
final class StubPipelineTests: XCTestCase {
    typealias Profile = StubFixtures.Profile
    typealias ProfileAPI = StubFixtures.ProfileAPI
    typealias ProfileService = StubFixtures.ProfileService

    func testRetriesAreSeparateRecordedCalls() async throws {
        var configuration = Session.Configuration()
        configuration.retryPolicy = RetryPolicy(maxRetries: 2, baseDelay: 0.001, maxDelay: 0.01)
        let stubs = StubTransport()
        stubs.on(
            .request(.get, "/v1/me"), reply: .empty(statusCode: 503), .failure(.timedOut(.connect)),
            .json(Profile(name: "Ada")))
        let response = await Session(configuration: configuration, transport: stubs)
            .request(ProfileAPI.me).validate().decodableResponse(of: Profile.self)
        XCTAssertEqual(try response.result.get(), Profile(name: "Ada"))
        XCTAssertEqual(response.metrics?.retryCount, 2)
        XCTAssertEqual(
            stubs.requests.map { "\($0.method) \($0.request.url.absoluteString)" },
            Array(repeating: "GET https://api.example.test/v1/me", count: 3))
        XCTAssertEqual(stubs.requests.map(\.index), [0, 1, 2])
    }

    func testPluginsAndInterceptorsRunAroundStubs() async throws {
        struct Stamp: Plugin {
            let seen: Locked<[String]>
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                var request = request
                request.setValue("attempt-\(context.attempt)", forHTTPHeaderField: "X-Attempt")
                return request
            }
            func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
                seen.withLock {
                    $0.append("\(context.router.map { RecordedRequestName.of($0) } ?? "?") \(response.statusCode ?? 0)")
                }
            }
        }
        struct Token: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
                return request
            }
            func retry(
                _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
            ) async -> RetryDecision {
                response.statusCode == 503 && context.attempt == 0 ? .retry(after: 0) : .doNotRetry
            }
        }
        let seen = Locked<[String]>([])
        var configuration = Session.Configuration()
        configuration.plugins = [Stamp(seen: seen)]
        configuration.interceptors = [Token()]
        let stubs = StubTransport()
        stubs.on(.request(.get, "/v1/me"), reply: .empty(statusCode: 503), .json(Profile(name: "Ada")))
        let result = await ProfileService(session: Session(configuration: configuration, transport: stubs)).me()
        XCTAssertEqual(result.value, Profile(name: "Ada"))
        XCTAssertEqual(stubs.requests.map { $0.header("X-Attempt") }, ["attempt-0", "attempt-1"])
        XCTAssertEqual(stubs.requests.map { $0.header("Authorization") }, ["Bearer t", "Bearer t"])
        XCTAssertEqual(seen.withLock { $0 }, ["me 503", "me 200"])
    }

    func testStreamsAndEventStreamsReadStubbedBodies() async throws {
        enum Feed: Router {
            case events
            var baseURL: String { "https://api.example.test" }
            var path: String { "/events" }
            var method: HTTPMethod { .get }
            var sampleData: Data { Data("data: first\n\ndata: second\n\n".utf8) }
            var sampleHeaders: HTTPHeaders { [.contentType("text/event-stream")] }
        }
        let stubs = StubTransport()
        stubs.on(.request(.get, "/lines"), reply: .text("one\ntwo\n"))
        let session = Session(transport: stubs)
        var lines: [String] = []
        for try await line in session.streamRequest(.url("https://api.example.test/lines")).lines(
            maximumLineLength: 100)
        {
            lines.append(line)
        }
        XCTAssertEqual(lines, ["one", "two"])
        var events: [String] = []
        for try await event in session.streamRequest(Feed.events).events {
            events.append(event.data)
        }
        XCTAssertEqual(events, ["first", "second"], "from the router's sample")
        XCTAssertTrue(stubs.requests.last?.target is Feed)
    }

    func testValidationSeesStubbedStatuses() async {
        let stubs = StubTransport()
        stubs.on(.request(.get, "/v1/me"), reply: .json(#"{"error":"boom"}"#, statusCode: 500))
        let response = await Session(transport: stubs).request(ProfileAPI.me).validate().response()
        XCTAssertSameError(response.error, .unacceptableStatusCode(500))
    }

    // MARK: Recorder

    func testTheRecorderShowsWhatWasSentInOrder() async throws {
        let stubs = StubTransport()
        stubs.on(.any, reply: .empty())
        var configuration = Session.Configuration()
        configuration.defaultHeaders["X-Client"] = "tests"
        let session = Session(configuration: configuration, transport: stubs)
        _ = await session.request(ProfileAPI.rename(id: 4, name: "Grace")).response()
        _ = await session.request(ProfileAPI.search(term: "tea cups", page: 2)).response()

        let sent = stubs.requests
        XCTAssertEqual(sent.map(\.method), ["PUT", "GET"])
        XCTAssertEqual(sent[0].request.url.absoluteString, "https://api.example.test/v1/profiles/4")
        XCTAssertEqual(sent[0].header("content-type"), "application/json")
        XCTAssertEqual(sent[0].header("X-Client"), "tests")
        XCTAssertEqual(sent[0].json, ["name": "Grace"])
        XCTAssertEqual(try JSONDecoder().decode(Profile.self, from: sent[0].body), Profile(name: "Grace"))
        XCTAssertEqual(sent[0].bodyText, #"{"name":"Grace"}"#)
        guard case .rename(let id, _) = sent[0].target as? ProfileAPI else { return XCTFail("target kept") }
        XCTAssertEqual(id, 4)
        XCTAssertEqual(sent[1].path, "/v1/search")
        XCTAssertEqual(sent[1].query("q"), "tea cups")
        XCTAssertEqual(sent[1].query("page"), "2")
        XCTAssertEqual(sent[1].json, nil)
        XCTAssertEqual(stubs.requests(matching: .request(.put, "/v1/profiles/4")).count, 1)
        stubs.clearRequests()
        XCTAssertTrue(stubs.requests.isEmpty)
    }

    func testDownloadsAndSizeLimitsBehaveAsWithTheEngine() async throws {
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 8
        let stubs = StubTransport()
        stubs.on(.request(.get, "/big"), reply: .text("far too large"))
        stubs.on(.request(.get, "/file"), reply: .text("file"))
        let session = Session(configuration: configuration, transport: stubs)
        let big = await session.request(.url("https://stub.test/big")).response()
        XCTAssertSameError(big.error, .responseTooLarge(limit: 8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stubs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = await session.download(.url("https://stub.test/file"), to: file).validate().response()
        XCTAssertEqual(download.fileURL, file)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "file")
    }
}
