import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Proxy selection: an explicit proxy receives absolute-form requests; `.none` bypasses it.
final class ProxyTests: XCTestCase {
    func testRequestsGoThroughTheConfiguredProxy() async throws {
        let proxy = try TestHTTPServer()
        let origin = try TestHTTPServer()
        defer { proxy.shutdown(); origin.shutdown() }
        var configuration = Session.Configuration()
        configuration.proxy = .url(proxy.baseURL.absoluteString)
        // The origin host does not resolve: only the proxy can answer.
        _ = await Session(configuration: configuration).request(.url("http://origin.courier.invalid/echo?x=1"))
            .response()
        let seen = try XCTUnwrap(proxy.recordedRequests.first)
        XCTAssertEqual(seen.rawTarget, "http://origin.courier.invalid/echo?x=1", "a proxy gets the absolute URL")
        XCTAssertEqual(seen.header("Host"), "origin.courier.invalid")

        configuration.proxy = .url(proxy.baseURL.absoluteString, bypass: ["127.0.0.1"])
        let bypassed = await Session(configuration: configuration).request(.url(origin.url("/hello"))).response()
        XCTAssertEqual(bypassed.statusCode, 200)
        XCTAssertEqual(proxy.recordedRequests.count, 1, "bypassed hosts are reached directly")
        XCTAssertEqual(origin.requestsServed, 1)
    }

    func testEnvironmentProxyIsUsedUnlessDisabled() async throws {
        let proxy = try TestHTTPServer()
        let origin = try TestHTTPServer()
        defer { proxy.shutdown(); origin.shutdown() }
        // XCTest runs these tests one at a time, so the process environment is ours for a moment.
        setenv("http_proxy", proxy.baseURL.absoluteString, 1)
        defer { unsetenv("http_proxy") }
        let target = "http://origin.courier.invalid/hello"
        _ = await Session().request(.url(target)).response()
        XCTAssertEqual(proxy.recordedRequests.first?.rawTarget, target, "the default honours http_proxy")

        var configuration = Session.Configuration()
        configuration.proxy = .none
        let direct = await Session(configuration: configuration).request(.url(origin.url("/hello"))).response()
        XCTAssertEqual(direct.statusCode, 200)
        XCTAssertEqual(origin.requestsServed, 1)
        XCTAssertEqual(proxy.recordedRequests.count, 1, ".none ignores http_proxy")
    }

    func testTheEnvironmentIsReadWhenTheSessionIsCreated() async throws {
        let proxy = try TestHTTPServer()
        let origin = try TestHTTPServer()
        defer { proxy.shutdown(); origin.shutdown() }
        // No proxy variable when the session is created: it uses no proxy, even once one is set.
        let names = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        let saved = names.map { name in getenv(name).map { String(cString: $0) } }
        defer {
            for (name, value) in zip(names, saved) {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        for name in names { unsetenv(name) }
        let before = Session()
        setenv("http_proxy", proxy.baseURL.absoluteString, 1)
        let direct = await before.request(.url(origin.url("/hello"))).response()
        XCTAssertEqual(direct.statusCode, 200)
        XCTAssertEqual(origin.requestsServed, 1)
        XCTAssertEqual(proxy.recordedRequests.count, 0)
        // A session created now sees the variable.
        let target = "http://origin.courier.invalid/hello"
        _ = await Session().request(.url(target)).response()
        XCTAssertEqual(proxy.recordedRequests.map(\.rawTarget), [target])
    }
}
