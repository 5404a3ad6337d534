import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``Session`` asks of its transport for one request, resolved from its configuration.
///
/// The libcurl engine reads every field; a transport of your own reads what applies to it
/// (a stub honours ``bodyLimit`` and ``destination``, a recorder redacts with ``security``).
public struct TransferOptions: Sendable {
    /// The fields a session resolves once from its configuration, with the ``HandleProfile`` they
    /// make, in one immutable object: each request copies its options, and that copy is then one
    /// reference instead of every field. Setting one of them makes a new object (and profile).
    private var shared: SharedTransferOptions

    /// Seconds allowed to establish a connection; nil for no limit.
    public var connectTimeout: TimeInterval? {
        get { shared.fields.handle.connectTimeout }
        set { shared = shared.replacing { $0.handle.connectTimeout = newValue } }
    }
    /// Seconds allowed for the whole request; nil for no limit.
    public var requestTimeout: TimeInterval?
    var idleTimeout: TimeInterval? {
        get { shared.fields.idleTimeout }
        set { shared = shared.replacing { $0.idleTimeout = newValue } }
    }
    var redirectPolicy: Session.RedirectPolicy {
        get { shared.fields.redirectPolicy }
        set { shared = shared.replacing { $0.redirectPolicy = newValue } }
    }
    /// The session's security rules: which headers are secrets (never print, log or store their
    /// values) and the body size limits.
    public var security: SecurityPolicy {
        get { shared.fields.security }
        set { shared = shared.replacing { $0.security = newValue } }
    }
    var automaticDecompression: Bool {
        get { shared.fields.handle.automaticDecompression }
        set { shared = shared.replacing { $0.handle.automaticDecompression = newValue } }
    }
    var tls: Session.TLSConfiguration {
        get { shared.fields.handle.tls }
        set { shared = shared.replacing { $0.handle.tls = newValue } }
    }
    var proxy: Session.Proxy {
        get { shared.fields.handle.proxy }
        set { shared = shared.replacing { $0.handle.proxy = newValue } }
    }
    var maxHTTPVersion: HTTPVersion {
        get { shared.fields.handle.maxHTTPVersion }
        set { shared = shared.replacing { $0.handle.maxHTTPVersion = newValue } }
    }
    var tcpKeepAlive: Bool {
        get { shared.fields.handle.tcpKeepAlive }
        set { shared = shared.replacing { $0.handle.tcpKeepAlive = newValue } }
    }
    var receiveBufferSize: Int? {
        get { shared.fields.handle.receiveBufferSize }
        set { shared = shared.replacing { $0.handle.receiveBufferSize = newValue } }
    }
    /// libcurl's upload buffer for bodies read through the read callback; nil keeps its 64 KiB.
    var uploadBufferSize: Int? {
        get { shared.fields.uploadBufferSize }
        set { shared = shared.replacing { $0.uploadBufferSize = newValue } }
    }
    /// When set, the final response body is written to this file instead of memory (the
    /// result's `data` stays empty).
    public var destination: URL?
    /// For a resumed download: the bytes of ``destination`` to keep; the body (a 206 from there, or
    /// a whole new body) is written after them, or over the file.
    package var resumeOffset: Int64?
    /// When set, progress is reported here (only read when someone observes it).
    package var progress: ProgressRelay?
    /// When set, the final response's head and body are handed here as they arrive, with
    /// backpressure, instead of being collected in memory.
    package var responseStream: ResponseStreamBuffer?
    /// The value the request was built from (a ``Router`` case, a URL...), when the request
    /// came from `Session.request(_:)`; stubs read a router's `sampleData` from it.
    public var target: (any URLRequestConvertible)?
    /// The session's ``Session/cancelAll()`` epoch when the request was made: the engine cancels
    /// the transfer if a later `cancelAll()` reached it first.
    package var sessionEpoch: UInt64 = 0
    /// This request's own cache policy (``DataRequest/cachePolicy(_:)``); nil uses the session's.
    package var cachePolicy: Session.CachePolicy?
    /// False when this request must not share a transfer with identical ones
    /// (``DataRequest/coalescing(_:)``).
    package var coalesces = true

    /// Options with these session-level fields and no request-level ones.
    init(_ fields: SharedTransferOptions.Fields, requestTimeout: TimeInterval?) {
        shared = SharedTransferOptions(fields)
        self.requestTimeout = requestTimeout
    }

    /// The body size limit that applies: ``SecurityPolicy/maxDownloadSize`` for a download to a
    /// file or a streamed response, ``SecurityPolicy/maxResponseSize`` for a body held in memory;
    /// nil for no limit. A transport delivering more must fail with
    /// ``CourierError/responseTooLarge``.
    public var bodyLimit: Int? {
        destination == nil && responseStream == nil ? security.maxResponseSize : security.maxDownloadSize
    }

    /// The session's options a pooled easy handle is configured with.
    var handleOptions: HandleProfile.Options { shared.fields.handle }

    /// The options a pooled easy handle keeps from one plain transfer to the next: the one profile
    /// of the session's fields for a body held in memory, which every such request of the session
    /// shares (the engine then matches a pooled handle by identity); a new one for a download or a
    /// streamed response, whose size limit differs.
    var handleProfile: HandleProfile {
        destination == nil && responseStream == nil ? shared.profile : HandleProfile(self)
    }
}

/// The session-level part of ``TransferOptions``: immutable, shared by every request of a session.
final class SharedTransferOptions: Sendable {
    /// The fields themselves.
    struct Fields: Sendable {
        /// What a pooled easy handle is configured with once (see ``HandleProfile``).
        var handle: HandleProfile.Options
        var idleTimeout: TimeInterval?
        var redirectPolicy: Session.RedirectPolicy
        var security: SecurityPolicy
        var uploadBufferSize: Int?
    }

    let fields: Fields
    /// The handle profile of ``fields`` for a body held in memory, built once.
    let profile: HandleProfile

    init(_ fields: Fields) {
        self.fields = fields
        profile = HandleProfile(fields.handle, bodyLimit: fields.security.maxResponseSize)
    }

    /// A new object with `change` applied to a copy of the fields.
    func replacing(_ change: (inout Fields) -> Void) -> SharedTransferOptions {
        var fields = fields
        change(&fields)
        return SharedTransferOptions(fields)
    }
}

extension TransferOptions {
    /// The options a session with `configuration` gives a request that sets no timeout of its own.
    /// Sessions build them; a transport receives them in ``Transport/execute(_:options:completion:)``.
    package init(configuration: Session.Configuration = Session.Configuration()) {
        self = Session.makeOptions(configuration)
    }
}

/// The outcome of one transfer, before validation and serialization: a response, or an error.
public struct TransportResult: Sendable {
    /// The request as last sent (after redirects).
    public var request: HTTPRequest
    var head: ResponseHead?
    /// The response body (empty when it went to ``TransferOptions/destination``).
    public var data: Data
    /// Timings and counters, if the transport measured any.
    public var metrics: TransferMetrics?
    /// The failure, if the transfer did not produce a usable response.
    public var error: CourierError?
    /// For a download to a file that stopped part-way, how to continue it (see ``ResumeData``).
    public var resumeData: ResumeData?
    /// The transfer's final progress as the engine counted it (body bytes received, written to a
    /// file or sent); nil from transports that do not count (the progress then falls back to the
    /// body in memory).
    var transferred: TransferTotals?

    /// The response's status code; nil when no response arrived.
    public var statusCode: Int? { head?.statusCode }

    /// The response's headers in arrival order; empty when no response arrived.
    public var headers: HTTPHeaders {
        HTTPHeaders((head?.fields.pairs ?? []).map { HTTPHeader(name: $0.0, value: $0.1) })
    }
}

// The initializers are in an extension so that the struct keeps its memberwise initializer
// (request, head, data, metrics, error, resumeData, transferred), which the engine uses: it
// builds the value in one piece, where an initializer assigning `self.x` one by one left the
// optimizer copying the whole result once more.
extension TransportResult {
    package init(
        request: HTTPRequest, head: ResponseHead?, data: Data, metrics: TransferMetrics?,
        error: CourierError?
    ) {
        self.init(
            request: request, head: head, data: data, metrics: metrics, error: error, resumeData: nil,
            transferred: nil)
    }

    /// A response to `request`: `statusCode`, `headers` in order (repeats allowed) and `body`.
    public init(
        request: HTTPRequest, statusCode: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(),
        httpVersion: String = "HTTP/1.1", metrics: TransferMetrics? = nil
    ) {
        let head = ResponseHead(
            url: request.url, statusCode: statusCode, httpVersion: httpVersion,
            fields: headers.map { ($0.name, $0.value) })
        self.init(request: request, head: head, data: body, metrics: metrics, error: nil)
    }

    /// A failure of `request`, such as ``CourierError/cancelled`` or ``CourierError/timedOut``.
    public init(request: HTTPRequest, error: CourierError) {
        self.init(request: request, head: nil, data: Data(), metrics: nil, error: error)
    }
}

/// Cancels a transfer that a transport started.
///
/// `cancel()` may be called from any thread, any number of times, before or after the transfer
/// completed. Before completion it makes the transfer complete promptly with
/// ``CourierError/cancelled`` (unless its result is already being delivered); after, it does nothing.
public protocol TransportCancellable: Sendable {
    /// Stops the transfer if it is still running.
    func cancel()
}

/// What moves a ``Session``'s bytes: the libcurl engine, a stub, a replay store, a fault injector.
///
/// Everything above the transport — default headers, plugins and interceptors, retries,
/// validation, serializers, services — is the same whichever transport a session uses, so a
/// transport of your own only turns one ``HTTPRequest`` into one ``TransportResult``:
/// ```swift
/// struct Offline: Transport {
///     struct Token: TransportCancellable { func cancel() {} }
///     func execute(_ request: HTTPRequest, options: TransferOptions,
///                  completion: @escaping @Sendable (TransportResult) -> Void) -> any TransportCancellable {
///         completion(TransportResult(request: request, error: .cannotConnect(message: "offline")))
///         return Token()
///     }
/// }
/// let session = Session(transport: Offline())
/// ```
/// The contract (`CourierTesting`'s `TransportConformance` checks it):
/// - `completion` is called **exactly once** per `execute`, whatever happens: success, failure,
///   cancellation before or after it started, cancellation racing the answer.
/// - It may be called on any thread, even before `execute` returns; it must not be called while
///   the transport holds a lock the session could need (the session may call `execute` or
///   `cancel` again from inside it, for a retry). Keep it short: hand the result on, do not block.
/// - `execute` and the returned token's `cancel()` may be called from any thread, concurrently.
/// - Cancelling before completion completes with ``CourierError/cancelled``; transport failures
///   are ``CourierError`` values, never thrown errors or crashes.
/// - Honour ``TransferOptions/bodyLimit`` and ``TransferOptions/destination`` when they are
///   set, so that limits and downloads behave as with the engine.
public protocol Transport: Sendable {
    /// Starts `request` and returns a token that cancels it; calls `completion` exactly once.
    ///
    /// The options and the result are handed over (`consuming`): the engine keeps the options and
    /// passes the result on without copying either. A transport of your own may declare the
    /// parameters without `consuming`, as in the example above.
    func execute(
        _ request: HTTPRequest,
        options: consuming TransferOptions,
        completion: @escaping @Sendable (consuming TransportResult) -> Void
    ) -> any TransportCancellable
}

/// A transfer's final progress in both directions, as the engine counted it.
struct TransferTotals: Sendable {
    var download: TransferProgress
    var upload: TransferProgress
}
