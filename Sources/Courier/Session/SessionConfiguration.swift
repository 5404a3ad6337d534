import Dispatch
import Foundation

extension Session {
    /// Everything a ``Session`` lets you tune. Start from the defaults and change what you need:
    /// ```swift
    /// var configuration = Session.Configuration()
    /// configuration.timeouts.request = 15
    /// configuration.security.maxResponseSize = 10 << 20
    /// let session = Session(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Time limits; `nil` disables a limit.
        public var timeouts = Timeouts()
        /// Whether and how far redirects are followed. Default: up to 10.
        public var redirectPolicy = RedirectPolicy.follow(max: 10)
        /// When failed idempotent requests are sent again. Default: ``RetryPolicy/disabled``.
        /// It is the last retrier asked, after every interceptor.
        public var retryPolicy = RetryPolicy.disabled
        /// Plugins every request runs through, in this order, before a service's or a request's
        /// own (see ``Plugin``). Default: none.
        public var plugins: [any Plugin] = []
        /// Interceptors every request runs through, in this order, before a request's own (see
        /// ``RequestInterceptor``). Default: none.
        public var interceptors: [any RequestInterceptor] = []
        /// The time source for retry backoff and `Retry-After` dates. Default: the wall clock.
        public var clock: any CourierClock = SystemClock()
        /// The security rules: which headers are secrets (dropped when a redirect changes scheme,
        /// host or port, redacted in cURL descriptions and logs), whether `https` → `http`
        /// redirects are refused (by default they are), and the response size limits.
        public var security = SecurityPolicy()
        /// Where the session keeps the cookies servers set. Default: ``CookieStorage/inMemory``.
        ///
        /// On by default, as in URLSession and Alamofire: a login that answers with a session
        /// cookie works on the next request, as users expect of a client. The jar lives in memory
        /// and dies with the session, and each session has its own: a service that talks to many
        /// tenants or users keeps one session per tenant, or sets ``CookieStorage/off`` so that no
        /// request ever carries a cookie one of them set. ``CookieStorage/persistent(file:)``
        /// keeps the jar in a file across runs. The jar is libcurl's RFC 6265 engine, with public
        /// suffix checks; what it does and does not do: docs/cookies-and-cache.md.
        public var cookies = CookieStorage.inMemory
        /// Where responses are kept for reuse (RFC 9111, private). Default: ``CacheStorage/off``:
        /// reusing a response changes what a request returns, so a program turns it on knowingly
        /// (docs/cookies-and-cache.md explains why).
        public var cache = CacheStorage.off
        /// How requests use ``cache``. Default: ``CachePolicy/useProtocol``.
        public var cachePolicy = CachePolicy.useProtocol
        /// Whether identical GETs without a body in flight at the same time share one transfer;
        /// each caller still gets its own response, and cancelling one leaves the others
        /// (``DataRequest/coalescing(_:)`` opts one request out). Default: off, so that every
        /// request reaches the server as before; docs/cookies-and-cache.md says when to turn it on.
        public var coalescesIdenticalRequests = false
        /// Ask for gzip, br and zstd (`Accept-Encoding`) and decode the body transparently, a
        /// deflated one too. Default: on.
        public var automaticDecompression = true
        /// Certificate verification, custom trust, client certificates and key pinning.
        public var tls = TLSConfiguration()
        /// Which proxy to use. Default: the `http_proxy`/`https_proxy`/`no_proxy` environment.
        public var proxy = Proxy.environment
        /// The highest HTTP version to negotiate. Default ``HTTPVersion/http2``: HTTP/2 over TLS
        /// when the server offers it, else HTTP/1.1; ``HTTPVersion/http1_1`` never uses HTTP/2.
        public var maxHTTPVersion = HTTPVersion.http2
        /// Headers added to every request that does not set them itself.
        public var defaultHeaders: HTTPHeaders = ["User-Agent": "Courier/\(CourierInfo.version)"]
        /// The most connections open to one host at a time (0 for no limit). Further requests wait.
        public var maxConnectionsPerHost = 64
        /// The most connections open in total (0 for no limit).
        public var maxTotalConnections = 0
        /// Enable TCP keep-alive probes on connections.
        public var tcpKeepAlive = true
        /// libcurl's receive buffer in bytes (`nil` keeps libcurl's 16 KiB); larger helps bulk downloads.
        public var receiveBufferSize: Int?
        /// libcurl's buffer for request bodies read while sending (files, streams, forms with
        /// files), in bytes; `nil` keeps libcurl's 64 KiB. Larger (up to 2 MiB) helps bulk uploads.
        public var uploadBufferSize: Int?
        /// Whether a thread that waits for a quick event spins briefly before it sleeps. Default:
        /// `true`.
        ///
        /// After a request, the engine thread watches for the next one for a short window before
        /// it parks in `curl_multi_poll`, and a task awaiting the session's only request watches
        /// for the outcome before it suspends. An event caught while spinning needs no system call
        /// and no thread wake-up, which is most of the cost of a small sequential request: on an
        /// otherwise idle machine it doubles their rate (docs/performance.md). The window adapts
        /// to what is observed (twice the last wait, at most 200 µs) and shrinks to nothing while
        /// events take longer; a spin that finds its thread was descheduled (every core busy)
        /// makes the next waits park at once. A spinning task holds its thread of the concurrency
        /// pool for at most that window. Set
        /// `false` where CPU time counts more than latency, for example many sessions sharing
        /// few cores: every wait then parks at once.
        public var spinsBeforeParking = true
        /// The queue completion handlers run on when a call does not name one.
        ///
        /// Defaults to a global concurrent queue, never the main queue: a command-line program on
        /// Linux has no main run loop, so handlers queued on `.main` would never run there unless
        /// the program calls `dispatchMain()`.
        public var callbackQueue: DispatchQueue = .global()
        /// How response bodies are decoded by `responseDecodable`, `decodable` and
        /// `decodableResponse` when a call does not pass its own decoder, and by services on this
        /// session that do not declare one. Default: ``CourierJSONDecoder`` (the same results as
        /// Foundation's `JSONDecoder`, several times faster); set `JSONDecoder()`, configured as
        /// you like, to decode with Foundation. See docs/decoding.md.
        public var decoder: any DataDecoder = CourierJSONDecoder()

        /// The default configuration.
        public init() {}
    }

    /// Time limits for a request. Each is in seconds; `nil` means no limit.
    ///
    /// The engine enforces them itself, wherever the request is (waiting behind the connection
    /// limit, connecting, or transferring): each fires within a few milliseconds of its deadline.
    public struct Timeouts: Sendable, Equatable {
        /// Establishing a connection: DNS, TCP and TLS, counted from when the request starts
        /// connecting. Default 10 s.
        public var connect: TimeInterval? = 10
        /// The whole request, counted from when it is made: time queued behind the connection
        /// limit and redirects included. Default 60 s. A `URLRequest` whose `timeoutInterval` was
        /// changed from Foundation's default (60 s) uses its own value.
        public var request: TimeInterval? = 60
        /// Fail when no byte moves in either direction for this long (a paused streamed body
        /// does not count as idle). Default: off.
        public var idle: TimeInterval?

        /// Creates time limits.
        public init(connect: TimeInterval? = 10, request: TimeInterval? = 60, idle: TimeInterval? = nil) {
            self.connect = connect
            self.request = request
            self.idle = idle
        }
    }

    /// How redirects are handled.
    public enum RedirectPolicy: Sendable, Equatable {
        /// Follow up to `max` redirects, then fail with ``CourierError/tooManyRedirects``.
        case follow(max: Int)
        /// Return 3xx responses to the caller as they are.
        case doNotFollow
    }

    /// TLS settings. Certificate and host verification are always on.
    public struct TLSConfiguration: Sendable, Equatable {
        /// A PEM file of trusted CA certificates, replacing the system bundle.
        public var caCertificateFile: String?
        /// A client certificate for mutual TLS.
        public var clientCertificate: ClientCertificate?
        /// Base64 SHA-256 hashes of the server's SubjectPublicKeyInfo; when non-empty, a server whose
        /// key matches none fails with ``CourierError/pinnedKeyMismatch``.
        public var pinnedPublicKeyHashes: [String] = []

        /// Creates TLS settings.
        public init(
            caCertificateFile: String? = nil, clientCertificate: ClientCertificate? = nil,
            pinnedPublicKeyHashes: [String] = []
        ) {
            self.caCertificateFile = caCertificateFile
            self.clientCertificate = clientCertificate
            self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
        }
    }

    /// A client certificate (PEM) and its private key.
    public struct ClientCertificate: Sendable, Equatable {
        /// Path of the PEM certificate.
        package var certificateFile: String
        /// Path of the PEM private key, if not inside the certificate file.
        package var privateKeyFile: String?
        /// The key's pass phrase, if it has one.
        package var password: String?

        /// Creates a client certificate reference: the PEM certificate at `certificateFile`, the
        /// PEM private key at `privateKeyFile` when it is not inside the certificate file, and
        /// the key's pass phrase `password` when it has one.
        public init(certificateFile: String, privateKeyFile: String? = nil, password: String? = nil) {
            self.certificateFile = certificateFile
            self.privateKeyFile = privateKeyFile
            self.password = password
        }
    }

    /// Proxy selection.
    public enum Proxy: Sendable, Equatable {
        /// Use the `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` environment variables,
        /// as libcurl reads them. Courier looks at them when the session is created: if none
        /// names a proxy then, the session uses none.
        case environment
        /// Never use a proxy.
        case none
        /// Use this proxy URL (e.g. `http://proxy:3128`), except for hosts in `bypass`.
        case url(String, bypass: [String] = [])
    }

}

/// Library-wide constants.
public enum CourierInfo {
    /// This version of Courier, as sent in the default `User-Agent`: the one place it is set
    /// (CHANGELOG.md names the same version, and `scripts/api-breakage.sh` checks against the last).
    public static let version = "0.2.0"
}
