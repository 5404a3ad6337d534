import Dispatch
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Creates and runs requests over one connection pool.
///
/// ```swift
/// let session = Session()                      // or Session.default
/// let user = try await session.request(UserRouter.me).decodable(User.self)
/// ```
/// A session owns one libcurl engine thread with its own connection cache; reuse one session
/// (or a few) for a whole program rather than one per request. The thread sleeps while nothing
/// is in flight; ``shutdown()`` stops it (and frees every connection) when you are done, and
/// ``cancelAll()`` cancels every request without stopping it.
public final class Session: Sendable {
    /// A session with the default configuration, shared by the whole process.
    public static let `default` = Session()

    /// The configuration this session was created with.
    public let configuration: Configuration
    /// What moves this session's bytes: its libcurl engine, or the transport it was given.
    package let transport: any Transport
    let ownedEngine: CurlEngine?
    /// The engine options every request starts from, resolved once (with their handle profile).
    private let baseOptions: TransferOptions
    /// The enabled plugins, interceptors and retry policy of the configuration, resolved once.
    let extensions: RequestExtensions
    private let requestCounter = Atomic<UInt64>(0)
    /// How many times ``cancelAll()`` was called: a request made before the last call is cancelled.
    private let cancelEpoch = Atomic<UInt64>(0)
    /// Set by ``shutdown()``, never cleared.
    private let shutDownFlag = Atomic<Bool>(false)
    /// Whether awaiting tasks spin briefly before suspending (DataRequest+Await.swift).
    let awaitSpinner: AwaitSpinner
    /// Runs the drivers of requests whose completion handlers use the callback queue.
    let callbackExecutor: QueueExecutor
    /// Why every request fails when ``Configuration/defaultHeaders`` holds an invalid header.
    let defaultHeadersError: CourierError?
    /// A router's default headers (``HTTPHeaders/routerDefault``) with the session's default
    /// headers added, made once: most router requests carry exactly these, and share them.
    private let routerDefaultHeaders: HTTPHeaders

    /// Creates a session running its own libcurl engine.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, wrappingEngine: { $0 })
    }

    /// Creates a session whose requests go through `transport` instead of a libcurl engine:
    /// a stub or a replay store in tests, or a transport of your own (see ``Transport``).
    /// Everything above the transport (headers, retries, validation, services) is unchanged, and
    /// so is the ``Configuration/cache`` in front of it; identical requests are not coalesced
    /// (``Configuration/coalescesIdenticalRequests`` applies to the libcurl engine).
    public init(configuration: Configuration = Configuration(), transport: any Transport) {
        self.configuration = configuration
        baseOptions = Self.makeOptions(configuration)
        extensions = Self.makeExtensions(configuration)
        awaitSpinner = AwaitSpinner(enabled: configuration.spinsBeforeParking)
        defaultHeadersError = Self.headersError(configuration.defaultHeaders)
        routerDefaultHeaders = Self.adding(configuration.defaultHeaders, to: .routerDefault)
        callbackExecutor = QueueExecutor(configuration.callbackQueue)
        self.transport = CachingTransport.wrapping(transport, configuration: configuration, coalesces: false)
        ownedEngine = nil
    }

    /// Creates a session running its own libcurl engine, with `wrap` placed between the session
    /// and the engine: a fault injector, a recorder, a cache of your own.
    ///
    /// `wrap` is called once, with the engine; the session keeps the engine running as long as
    /// the session lives, so the wrapper must not outlive it.
    /// ```swift
    /// let session = Session { engine in FaultInjector(wrapping: engine, failEvery: 10) }
    /// ```
    public init(
        configuration: Configuration = Configuration(),
        wrappingEngine wrap: (_ engine: any Transport) -> any Transport
    ) {
        self.configuration = configuration
        baseOptions = Self.makeOptions(configuration)
        extensions = Self.makeExtensions(configuration)
        awaitSpinner = AwaitSpinner(enabled: configuration.spinsBeforeParking)
        defaultHeadersError = Self.headersError(configuration.defaultHeaders)
        routerDefaultHeaders = Self.adding(configuration.defaultHeaders, to: .routerDefault)
        callbackExecutor = QueueExecutor(configuration.callbackQueue)
        let engine = CurlEngine(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost,
            maxTotalConnections: configuration.maxTotalConnections,
            spinsBeforeParking: configuration.spinsBeforeParking, cookies: configuration.cookies)
        ownedEngine = engine
        transport = CachingTransport.wrapping(
            wrap(engine ?? UnavailableTransport()), configuration: configuration,
            coalesces: configuration.coalescesIdenticalRequests)
    }

    deinit {
        ownedEngine?.shutdown()
    }

    // MARK: Shutting down

    /// Cancels every request made on this session so far; the session stays usable.
    ///
    /// Each request made before the call that has not completed completes with
    /// ``CourierError/cancelled``, exactly once, wherever it is: queued, sending, receiving,
    /// streaming a body in either direction, writing a download, or between two attempts (a
    /// request waiting out a retry backoff completes when the wait ends, without another
    /// attempt). None of them is retried. Requests made after the call run as usual.
    /// Safe to call from any thread, any number of times.
    ///
    /// With a transport of your own (``init(configuration:transport:)``), an attempt it already
    /// runs ends when the transport completes it; no further attempt starts.
    public func cancelAll() {
        let epoch = cancelEpoch.add(1, ordering: .sequentiallyConsistent).newValue
        ownedEngine?.cancelAll(epoch: epoch)
    }

    /// Shuts the session down: cancels what is in flight, stops the engine thread and frees every
    /// libcurl handle and connection; returns when that is done.
    ///
    /// Requests in flight complete with ``CourierError/cancelled`` (as with ``cancelAll()``): a
    /// shutdown never waits on a server, so it ends promptly even with an event stream or a long
    /// poll open. To let requests finish first, await them, then shut down. Every request made or
    /// attempted afterwards — data, downloads, uploads and streams alike — completes at once with
    /// ``CourierError/sessionShutDown`` and is never retried.
    ///
    /// Calling it again (or from several tasks) waits for the same shutdown. A session that is
    /// simply released shuts down the same way, without anyone waiting. With a transport of your
    /// own, only Courier's side stops: the transport is not told.
    public func shutdown() async {
        shutDownFlag.store(true, ordering: .sequentiallyConsistent)
        cancelAll()
        await ownedEngine?.shutdownAndWait()
    }

    /// True once ``shutdown()`` was called: new requests then fail with ``CourierError/sessionShutDown``.
    public var isShutDown: Bool { shutDownFlag.load(ordering: .sequentiallyConsistent) }

    /// The ``cancelAll()`` epoch a new request records.
    var currentEpoch: UInt64 { cancelEpoch.load(ordering: .sequentiallyConsistent) }

    /// Why a request made at `epoch` must not start another attempt: the session was shut down,
    /// or ``cancelAll()`` came after the request was made; nil when it may.
    func interruption(since epoch: UInt64) -> CourierError? {
        if shutDownFlag.load(ordering: .acquiring) { return .sessionShutDown }
        if cancelEpoch.load(ordering: .acquiring) != epoch { return .cancelled }
        return nil
    }

    /// Hands an attempt to the transport, unless ``interruption(since:)`` says it must not start:
    /// then it completes at once with that error.
    func execute(
        _ request: HTTPRequest, options: consuming TransferOptions,
        completion: @escaping @Sendable (consuming TransportResult) -> Void
    ) -> any TransportCancellable {
        if let error = interruption(since: options.sessionEpoch) {
            completion(TransportResult(request: request, error: error))
            return UnavailableTransport.Token()
        }
        return transport.execute(request, options: options, completion: completion)
    }

    // Disfavored: Swift prefers a non-generic overload, so without it a router would come here
    // instead of to `request(_:)` for a `Router`, and pay a dynamic cast.

    /// Prepares a request. It starts when the first response handler is added (or an async
    /// accessor is awaited), so `validate()` calls made before that apply.
    ///
    /// The request is built and validated here; if that fails, the request completes with the
    /// error.
    @_disfavoredOverload
    public func request(_ convertible: any URLRequestConvertible) -> DataRequest {
        makeRequest(convertible, destination: nil)
    }

    /// Prepares the request of a ``Router`` case: the same as `request(_:)` with any
    /// ``URLRequestConvertible``, chosen by the compiler for a router, whose request is then built
    /// directly (without a dynamic cast to find out that it is a router, which costs more than
    /// building it).
    public func request<R: Router>(_ router: R) -> DataRequest {
        DataRequest(session: self, target: router, request: build(router: router), destination: nil)
    }

    private func makeRequest(_ convertible: any URLRequestConvertible, destination: URL?) -> DataRequest {
        DataRequest(session: self, target: convertible, request: build(convertible), destination: destination)
    }

    /// Prepares a request whose response body is written straight to `destination` as it
    /// arrives, so memory stays flat whatever the size (`response.fileURL` names the file).
    ///
    /// The file is created or truncated when the transfer starts; only the final response's body
    /// lands there (redirect bodies are discarded), and it is removed again if the request fails
    /// — unless the download can be continued: then the partial file stays and
    /// `response.resumeData` says how (see ``download(_:resumingWith:)``).
    /// `security.maxDownloadSize` (8 GiB by default) applies to the bytes written. Validation and status handling are as for
    /// `request(_:)`; the in-memory `data` of the response stays empty.
    public func download(_ convertible: any URLRequestConvertible, to destination: URL) -> DataRequest {
        guard destination.isFileURL else {
            return DataRequest(
                session: self, target: convertible,
                request: .failure(
                    .invalidRequest(
                        reason: "download destination must be a file URL, got \(destination.absoluteString)")),
                destination: nil)
        }
        return makeRequest(convertible, destination: destination)
    }

    /// The request as it will be sent: the session's default headers added, after the request's
    /// own, where the request has none of that name.
    package func prepared(_ request: consuming HTTPRequest) -> HTTPRequest {
        if request.hasRouterDefaultHeaders {
            // The usual router request: the merge is ready-made, and shared (no copy to grow).
            request.headers = routerDefaultHeaders
        } else if !configuration.defaultHeaders.isEmpty {
            request.headers = Self.adding(configuration.defaultHeaders, to: request.headers)
        }
        return request
    }

    /// `headers` with each of `defaults` that it does not name appended, in order.
    private static func adding(_ defaults: HTTPHeaders, to headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        for header in defaults where headers[header.name] == nil {
            headers.update(header)
        }
        return headers
    }

    /// The engine options for `request`, writing its body to `destination` when given.
    package func transferOptions(for request: HTTPRequest, destination: URL? = nil) -> TransferOptions {
        var options = baseOptions
        // Set only when there is one: setting it drops the options' cached handle profile.
        if let destination { options.destination = destination }
        if let timeout = request.timeout { options.requestTimeout = timeout }
        return options
    }

    static func makeOptions(_ configuration: Configuration) -> TransferOptions {
        TransferOptions(
            SharedTransferOptions.Fields(
                handle: HandleProfile.Options(
                    connectTimeout: configuration.timeouts.connect,
                    automaticDecompression: configuration.automaticDecompression,
                    tls: configuration.tls,
                    proxy: configuration.proxy == .environment && !environmentNamesProxy()
                        ? .none : configuration.proxy,
                    maxHTTPVersion: configuration.maxHTTPVersion,
                    tcpKeepAlive: configuration.tcpKeepAlive,
                    receiveBufferSize: configuration.receiveBufferSize),
                idleTimeout: configuration.timeouts.idle,
                redirectPolicy: configuration.redirectPolicy,
                security: configuration.security,
                uploadBufferSize: configuration.uploadBufferSize),
            requestTimeout: configuration.timeouts.request)
    }

    /// Whether one of the variables libcurl takes a proxy from is set and not empty: `http_proxy`
    /// (never `HTTP_PROXY`, see "httpoxy"), `https_proxy` or `HTTPS_PROXY`, `all_proxy` or
    /// `ALL_PROXY`. Without one, ``Proxy/environment`` is ``Proxy/none`` for the session's life
    /// (and `no_proxy` does not matter), so libcurl does not read them for every request.
    private static func environmentNamesProxy() -> Bool {
        ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains { name in
            guard let value = getenv(name) else { return false }
            return value.pointee != 0
        }
    }

    private static func makeExtensions(_ configuration: Configuration) -> RequestExtensions {
        RequestExtensions(
            plugins: configuration.plugins.filter(NetworkLogger.takesPart), interceptors: configuration.interceptors,
            retryPolicy: configuration.retryPolicy)
    }

    private static func headersError(_ headers: HTTPHeaders) -> CourierError? {
        do throws(CourierError) {
            try headers.validated()
            return nil
        } catch {
            return error
        }
    }

    /// A new number for a request's ``RequestContext/requestID``.
    func nextRequestID() -> UInt64 {
        requestCounter.add(1, ordering: .relaxed).newValue
    }

    /// libcurl easy handles currently alive in this session's engine (tests check for leaks).
    var liveHandleCount: Int? { ownedEngine?.liveHandles.load(ordering: .relaxed) }

    /// Rounds this session's engine loop has run: unchanged while it sleeps (tests).
    var engineRounds: Int? { ownedEngine?.rounds.load(ordering: .relaxed) }

    /// True once this session's engine thread has stopped; nil without an engine (tests).
    var engineHasStopped: Bool? { ownedEngine?.hasStopped }

    /// The name the system reports for this session's engine thread; nil without an engine (tests).
    var engineThreadName: String? { ownedEngine?.loopThreadName }

    /// True while this session's engine waits for a command (tests).
    var engineIsWaiting: Bool { ownedEngine?.isWaitingForCommands ?? false }
}

/// Used only if libcurl could not be initialised: every request fails with a clear error.
struct UnavailableTransport: Transport {
    struct Token: TransportCancellable { func cancel() {} }

    func execute(
        _ request: HTTPRequest, options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        completion(
            TransportResult(
                request: request, head: nil, data: Data(), metrics: nil,
                error: .transport(code: 2, message: "libcurl could not be initialised")))
        return Token()
    }
}
