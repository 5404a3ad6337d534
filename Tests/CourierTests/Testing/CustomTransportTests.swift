import Courier
import CourierSync
import CourierTestServer
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The public `Transport` seam: sessions over a transport of your own, or over a wrapper around
/// the engine, with everything above the transport unchanged.
final class CustomTransportTests: XCTestCase {
    /// The example from `Transport`'s documentation.
    struct Offline: Transport {
        struct Token: TransportCancellable { func cancel() {} }
        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            completion(TransportResult(request: request, error: .cannotConnect(message: "offline")))
            return Token()
        }
    }

    /// Fails every other request with a timeout, passing the rest to the engine.
    final class FaultInjector: Transport {
        struct Token: TransportCancellable { func cancel() {} }
        private let wrapped: any Transport
        private let calls = Locked(0)
        let targets = Locked<[String]>([])

        init(wrapping wrapped: any Transport) { self.wrapped = wrapped }

        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            targets.withLock { $0.append(options.target.map { "\($0)" } ?? "none") }
            let call = calls.withLock { count in
                defer { count += 1 }
                return count
            }
            guard call % 2 == 1 else { return wrapped.execute(request, options: options, completion: completion) }
            DispatchQueue.global().async { completion(TransportResult(request: request, error: .timedOut(.request))) }
            return Token()
        }
    }

    func testASessionOverATransportOfYourOwn() async {
        let response = await Session(transport: Offline()).request("https://api.example.test/me").response()
        XCTAssertSameError(response.error, .cannotConnect(message: "offline"))
    }

    func testWrappingTheEngine() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let injector = Locked<FaultInjector?>(nil)
        let session = Session { engine in
            let made = FaultInjector(wrapping: engine)
            injector.withLock { $0 = made }
            return made
        }
        let first = await session.request(server.url("/hello")).validate().response()
        let second = await session.request(server.url("/hello")).validate().response()
        let third = await session.request(server.url("/hello")).validate().response()
        XCTAssertEqual(first.data, Data("Hello, Courier".utf8))
        XCTAssertSameError(second.error, .timedOut(.request))
        XCTAssertEqual(third.data, Data("Hello, Courier".utf8))
        XCTAssertEqual(server.requestsServed, 2)
        XCTAssertEqual(injector.withLock { $0?.targets.withLock { $0 } }?.count, 3)
    }

    /// A transport may complete before `execute` returns; a retry started from inside that
    /// completion must still be cancellable during its backoff, with and without plugins.
    func testSynchronousCompletionsWithRetriesStayCancellable() async throws {
        struct Silent: Plugin {}
        for plugins in [[], [Silent()]] as [[any Plugin]] {
            let clock = TestClock(mode: .manual)
            var configuration = Session.Configuration()
            configuration.retryPolicy = RetryPolicy(maxRetries: 3, baseDelay: 600, maxDelay: 600)
            configuration.plugins = plugins
            configuration.clock = clock
            let calls = Locked(0)
            let session = Session(configuration: configuration, transport: AlwaysUnavailable(calls: calls))
            let request = session.request("https://api.example.test/status")
            let done = expectCancellation(of: request).done
            try await clock.waitUntilPending()  // the backoff before the first retry
            request.cancel()
            await fulfillment(of: [done], timeout: 10)
            XCTAssertEqual(calls.withLock { $0 }, 1, "plugins: \(plugins.count)")
        }
    }

    /// Answers 503 before `execute` returns.
    struct AlwaysUnavailable: Transport {
        struct Token: TransportCancellable { func cancel() {} }
        let calls: Locked<Int>
        func execute(
            _ request: HTTPRequest, options: TransferOptions,
            completion: @escaping @Sendable (TransportResult) -> Void
        ) -> any TransportCancellable {
            calls.withLock { $0 += 1 }
            completion(TransportResult(request: request, statusCode: 503))
            return Token()
        }
    }

    func testOptionsCarryTheTargetAndTheSessionsPolicies() async throws {
        struct Ping: Router {
            var baseURL: String { "https://api.example.test" }
            var path: String { "/ping" }
            var method: HTTPMethod { .get }
        }
        let seen = Locked<TransferOptions?>(nil)
        let stubs = StubTransport(sampleData: false) { _ in .empty(statusCode: 204) }
        struct Spy: Transport {
            let inner: StubTransport
            let seen: Locked<TransferOptions?>
            func execute(
                _ request: HTTPRequest, options: TransferOptions,
                completion: @escaping @Sendable (TransportResult) -> Void
            ) -> any TransportCancellable {
                seen.withLock { $0 = options }
                return inner.execute(request, options: options, completion: completion)
            }
        }
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 1234
        configuration.security.secretHeaders.insert("X-Private")
        _ = await Session(configuration: configuration, transport: Spy(inner: stubs, seen: seen)).request(Ping())
            .response()
        let options = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertTrue(options.target is Ping)
        XCTAssertEqual(options.bodyLimit, 1234)
        XCTAssertTrue(options.security.isSecret(header: "x-private"))
        XCTAssertEqual(options.requestTimeout, 60)
        XCTAssertNil(options.destination)
    }
}
