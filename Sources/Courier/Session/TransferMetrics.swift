import Foundation

/// Timings and counters libcurl measured for one request.
///
/// Times are seconds from the start of the final transfer (after the last redirect), as libcurl
/// reports them: `nameLookup ≤ connect ≤ tlsHandshake ≤ preTransfer ≤ timeToFirstByte ≤ total`.
/// `tlsHandshake` is zero for plain HTTP.
public struct TransferMetrics: Sendable, Equatable {
    /// Seconds until the host name was resolved.
    public var nameLookup: TimeInterval
    /// Seconds until the TCP connection was established.
    public var connect: TimeInterval
    /// Seconds until the TLS handshake completed (zero without TLS).
    public var tlsHandshake: TimeInterval
    /// Seconds until the request was about to be sent.
    public var preTransfer: TimeInterval
    /// Seconds until the first response byte arrived.
    public var timeToFirstByte: TimeInterval
    /// Seconds the final transfer took in all.
    public var total: TimeInterval
    /// Seconds spent on redirects before the final transfer, as measured by Courier.
    public var redirectTime: TimeInterval
    /// Bytes sent: request line, headers and body.
    public var bytesSent: Int64
    /// Bytes received: headers plus the body as it came over the wire (before decompression).
    public var bytesReceived: Int64
    /// The HTTP version of the final response; nil when there was none or libcurl did not say.
    public var httpVersion: HTTPVersion?
    /// True when the request went over a connection that was already open (keep-alive reuse).
    public var connectionReused: Bool
    /// How many redirects were followed.
    public var redirectCount: Int
    /// How many times the request was sent again, by the session's ``RetryPolicy`` or by an
    /// interceptor (see ``RequestInterceptor``).
    public var retryCount: Int = 0
    /// How many times the request was sent in all: ``retryCount`` + 1.
    package var attempts: Int { retryCount + 1 }
    /// Whether the response came from the session's cache (``CacheOutcome``); nil when the
    /// session has no cache or the request did not go through it.
    public var cacheOutcome: CacheOutcome?
    /// The IP address of the server, if a connection was made.
    public var remoteAddress: String?
    /// The server port, if a connection was made.
    public var remotePort: Int?
    /// The local port of the connection, if one was made.
    public var localPort: Int?

    /// Creates metrics; Courier's transports and stubs measure them (a transport of your own passes
    /// none: `TransportResult(request:statusCode:…)` takes `metrics: nil` by default).
    package init(
        nameLookup: TimeInterval = 0, connect: TimeInterval = 0, tlsHandshake: TimeInterval = 0,
        preTransfer: TimeInterval = 0, timeToFirstByte: TimeInterval = 0, total: TimeInterval = 0,
        redirectTime: TimeInterval = 0, bytesSent: Int64 = 0, bytesReceived: Int64 = 0,
        httpVersion: HTTPVersion? = nil, connectionReused: Bool = false, redirectCount: Int = 0,
        remoteAddress: String? = nil, remotePort: Int? = nil, localPort: Int? = nil
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.preTransfer = preTransfer
        self.timeToFirstByte = timeToFirstByte
        self.total = total
        self.redirectTime = redirectTime
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
        self.connectionReused = connectionReused
        self.redirectCount = redirectCount
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.localPort = localPort
    }
}
