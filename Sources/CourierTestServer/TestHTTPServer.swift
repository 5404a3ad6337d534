import Foundation

/// An in-process HTTP/1.1 server on the loopback interface, for integration tests
/// (with fault injection) and as the embedded demo server of the Examples.
///
/// It starts listening on an ephemeral port as soon as it is created, serves each TCP
/// connection on its own thread with persistent (keep-alive) connections, records every
/// request, and answers with custom routes (see ``route(_:_:_:)``) or the built-in routes:
///
/// | Route | Response |
/// |---|---|
/// | `/hello` | 200 `Hello, Courier` |
/// | `/echo` | 200 JSON ``TestHTTPEcho`` of the request |
/// | `/status/{code}` | that status, JSON `{"status":code}` (no body for 204/304) |
/// | `/delay?ms=N` | 200 `done` after N ms |
/// | `/never` | never answers |
/// | `/close-before-headers` | closes without answering |
/// | `/truncated?send=N&declared=M` | `Content-Length: M`, N bytes, close |
/// | `/chunked?chunks=N&size=M` | chunked, N chunks of M bytes of ``alphabetBytes(count:)`` |
/// | `/gzip`, `/gzip?size=N` | gzip of ``gzipPlainText`` / ``compressiblePayload(size:)`` |
/// | `/deflate`, `/deflate?size=N` | the same, zlib-wrapped (`Content-Encoding: deflate`) |
/// | `/deflate-bomb?size=N` | N zero bytes, deflate-compressed for real (about N / 159 bytes sent) |
/// | `/bytes?size=N&seed=S` | ``deterministicBytes(count:seed:)`` |
/// | `/redirect?to=URL&status=302` | redirect to URL |
/// | `/redirect-chain?n=N` | N redirects, then the echo |
/// | `/trickle?size=N&chunk=C&interval=ms` | N bytes, C at a time, `ms` apart |
/// | `/headers-then-stall` | `Content-Length: 1000`, 10 bytes, stall |
/// | `/set-cookie?name=value…` | a `Set-Cookie` per parameter |
/// | `/cookies` | JSON of the `Cookie` header |
/// | `/large-header?size=N` | an `X-Large` header of N bytes |
/// | `/upload` | JSON ``TestHTTPUploadSummary`` of the body |
/// | `/resumable?size=N&seed=S&cut=K,…&etag=E&weak=1&validators=0&ignoreRange=1` | ``deterministicBytes(count:seed:)`` with ETag, Last-Modified, `Range`/`If-Range` (206/416), cut at offsets K |
/// | `/sse?count=N&per=P&interval=ms&retry=ms` | server-sent events 1…N after `Last-Event-ID`, P per connection, then 204 |
/// | `/upload/digest` | the same, hashed while it arrives (any size, never kept in memory) |
/// | anything else | 404 JSON `{"error":"not found"}` |
///
/// Built-in routes answer any method; `HEAD` always gets headers only. Call
/// ``shutdown()`` (or drop the server) to stop it.
public final class TestHTTPServer: Sendable {
    let core: ServerCore
    private let host: String

    /// Starts listening on `host` (an IPv4/IPv6 literal; `localhost` means `127.0.0.1`)
    /// at an ephemeral port, or at `port` when given (e.g. for a demo server).
    /// Throws ``TestHTTPServerError`` if the socket cannot be set up (e.g. the port is taken).
    public init(host: String = "127.0.0.1", port: Int = 0) throws {
        core = try ServerCore(host: host, port: port)
        self.host = host == "localhost" ? "127.0.0.1" : host
    }

    deinit {
        core.shutdown()
    }

    /// The port the server listens on.
    public var port: Int { core.port }

    /// `http://<host>:<port>` (IPv6 hosts in brackets).
    public var baseURL: URL {
        let authority = core.isIPv6 ? "[\(host)]" : host
        return Self.makeURL("http://\(authority):\(port)")
    }

    /// `http://localhost:<port>`: the same server under a different host name, for
    /// cross-host tests (`localhost` resolves to 127.0.0.1 here).
    public var localhostURL: URL {
        Self.makeURL("http://localhost:\(port)")
    }

    /// ``baseURL`` plus `pathAndQuery`, e.g. `url("/echo?x=1")` (a missing leading `/` is added;
    /// characters not allowed in URLs are percent-encoded).
    public func url(_ pathAndQuery: String) -> URL {
        Self.makeURL(baseURL.absoluteString + (pathAndQuery.hasPrefix("/") ? "" : "/") + pathAndQuery)
    }

    /// The number of TCP connections accepted so far (keep-alive reuse keeps it low).
    public var connectionsAccepted: Int {
        core.state.withLock { $0.connectionsAccepted }
    }

    /// The number of connections currently open.
    public var openConnections: Int {
        core.state.withLock { $0.openConnections.count }
    }

    /// The number of complete requests received (counted before the response is written).
    public var requestsServed: Int {
        core.state.withLock { $0.requestsServed }
    }

    /// Every request received, in arrival order.
    public var recordedRequests: [TestHTTPRequest] {
        core.state.withLock { $0.recordedRequests }
    }

    /// The recorded requests whose path is `path`.
    public func recordedRequests(path: String) -> [TestHTTPRequest] {
        recordedRequests.filter { $0.path == path }
    }

    /// Forgets the recorded requests (counters are kept).
    public func clearRecordedRequests() {
        core.state.withLock { $0.recordedRequests.removeAll() }
    }

    /// Registers a custom route for the exact `path` (no query), optionally only for `method`
    /// (`nil` = any method; a `GET` route also answers `HEAD`, without the body).
    /// Custom routes win over built-in ones; a later registration wins over an earlier one.
    /// The handler runs on the connection's thread; it may block. Handlers are kept until
    /// ``shutdown()``; capture the server weakly in a handler if you rely on `deinit` to stop it.
    public func route(
        _ method: String? = nil, _ path: String, _ handler: @escaping @Sendable (TestHTTPRequest) -> TestHTTPResponse
    ) {
        core.state.withLock { $0.routes.append(CustomRoute(method: method, path: path, handler: handler)) }
    }

    /// Registers a custom route for the exact `path` and any method; shorthand for
    /// `route(nil, path, handler)`.
    public func route(_ path: String, _ handler: @escaping @Sendable (TestHTTPRequest) -> TestHTTPResponse) {
        route(nil, path, handler)
    }

    /// Removes every custom route.
    public func removeAllRoutes() {
        core.state.withLock { $0.routes.removeAll() }
    }

    /// Stops the server: closes the listening socket and every open connection, ends pending
    /// delays, stalls and never-answering responses, and waits (up to a few seconds) for the
    /// connection threads to finish. Idempotent; also called by `deinit`. May be called from
    /// a route handler (the handler's own response is then not delivered).
    public func shutdown() {
        core.shutdown()
    }

    /// Whether ``shutdown()`` has been called.
    public var isShutDown: Bool {
        core.isShutDown
    }

    /// Makes a URL from known-good text, percent-encoding stray characters if needed.
    private static func makeURL(_ string: String) -> URL {
        if let url = URL(string: string) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#[]%")
        if let encoded = string.addingPercentEncoding(withAllowedCharacters: allowed),
            let url = URL(string: encoded)
        {
            return url
        }
        return URL(fileURLWithPath: "/")
    }
}
