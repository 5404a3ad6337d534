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
    /// ``remoteAddress`` as bytes: with no string inside, metrics are copied and destroyed as
    /// plain bytes (a `String` field made every copy and destroy of a response go through the
    /// runtime's value witnesses, ~1,000 instructions per request).
    private var address: IPAddress
    /// ``redirectCount`` and ``retryCount``, and the ports (0 for none), in 32 and 16 bits: the
    /// metrics are in every response and result, copied several times per request, and these
    /// as `Int` and `Int?` made them 46 bytes larger.
    private var redirects: UInt32 = 0
    private var retries: UInt32 = 0
    private var remote: UInt16 = 0
    private var local: UInt16 = 0
    /// The HTTP version of the final response; nil when there was none or libcurl did not say.
    public var httpVersion: HTTPVersion?
    /// True when the request went over a connection that was already open (keep-alive reuse).
    public var connectionReused: Bool
    /// Whether the response came from the session's cache (``CacheOutcome``); nil when the
    /// session has no cache or the request did not go through it.
    public var cacheOutcome: CacheOutcome?
    /// How many redirects were followed (kept in 32 bits: a larger or negative value set here
    /// reads back clamped to 0...4,294,967,295).
    public var redirectCount: Int {
        get { Int(redirects) }
        set { redirects = UInt32(clamping: newValue) }
    }
    /// How many times the request was sent again, by the session's ``RetryPolicy`` or by an
    /// interceptor (see ``RequestInterceptor``); clamped as ``redirectCount`` is.
    public var retryCount: Int {
        get { Int(retries) }
        set { retries = UInt32(clamping: newValue) }
    }
    /// How many times the request was sent in all: ``retryCount`` + 1.
    package var attempts: Int { retryCount + 1 }
    /// The IP address of the server, if a connection was made, in its standard text form
    /// (`127.0.0.1`, `::1`).
    ///
    /// Kept as the address itself, not as text: setting a string that is not an IPv4 or IPv6
    /// address leaves nil.
    public var remoteAddress: String? {
        get { address.text }
        set { address = IPAddress(newValue) }
    }
    /// The server port, if a connection was made (a value set here that is not a port number,
    /// 1...65535, reads back as nil).
    public var remotePort: Int? {
        get { remote == 0 ? nil : Int(remote) }
        set { remote = Self.port(newValue) }
    }
    /// The local port of the connection, if one was made (set as ``remotePort`` is).
    public var localPort: Int? {
        get { local == 0 ? nil : Int(local) }
        set { local = Self.port(newValue) }
    }

    /// A port number as stored: 0 for nil or anything outside 1...65535.
    private static func port(_ value: Int?) -> UInt16 {
        guard let value, (1...65535).contains(value) else { return 0 }
        return UInt16(value)
    }

    /// Creates metrics; Courier's transports and stubs measure them (a transport of your own passes
    /// none: `TransportResult(request:statusCode:…)` takes `metrics: nil` by default).
    package init(
        nameLookup: TimeInterval = 0, connect: TimeInterval = 0, tlsHandshake: TimeInterval = 0,
        preTransfer: TimeInterval = 0, timeToFirstByte: TimeInterval = 0, total: TimeInterval = 0,
        redirectTime: TimeInterval = 0, bytesSent: Int64 = 0, bytesReceived: Int64 = 0,
        httpVersion: HTTPVersion? = nil, connectionReused: Bool = false, redirectCount: Int = 0,
        remoteAddress: String? = nil, remotePort: Int? = nil, localPort: Int? = nil
    ) {
        self.init(
            nameLookup: nameLookup, connect: connect, tlsHandshake: tlsHandshake, preTransfer: preTransfer,
            timeToFirstByte: timeToFirstByte, total: total, redirectTime: redirectTime, bytesSent: bytesSent,
            bytesReceived: bytesReceived, httpVersion: httpVersion, connectionReused: connectionReused,
            redirectCount: redirectCount, address: IPAddress(remoteAddress), remotePort: remotePort,
            localPort: localPort)
    }

    /// Metrics with the address as libcurl's engine reads it (no `String` made).
    init(
        nameLookup: TimeInterval, connect: TimeInterval, tlsHandshake: TimeInterval, preTransfer: TimeInterval,
        timeToFirstByte: TimeInterval, total: TimeInterval, redirectTime: TimeInterval = 0, bytesSent: Int64,
        bytesReceived: Int64, httpVersion: HTTPVersion?, connectionReused: Bool, redirectCount: Int,
        address: IPAddress, remotePort: Int?, localPort: Int?
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
        self.address = address
        self.redirectCount = redirectCount
        self.remotePort = remotePort
        self.localPort = localPort
    }
}

/// An IPv4 or IPv6 address in binary form, with no heap storage.
struct IPAddress: Sendable, Equatable {
    /// The address bytes in network order (an IPv4 address in the first four). First, so that
    /// the version packs after them (17 bytes, not 24).
    private var bytes: (UInt64, UInt64) = (0, 0)
    /// 4 or 6; 0 for no address.
    private var version: UInt8 = 0

    /// The address `text` spells in IPv4 or IPv6 notation; none for nil or any other text.
    init(_ text: String?) {
        guard let text else { return }
        self = text.withCString { IPAddress(cString: $0) }
    }

    /// The address in the NUL-terminated text at `pointer` (libcurl's `CURLINFO_PRIMARY_IP`);
    /// none for nil, empty or anything that is not an address.
    init(cString pointer: UnsafePointer<CChar>?) {
        guard let pointer, pointer.pointee != 0 else { return }
        if let address = Self.dottedQuad(pointer) {
            // The usual case, read here: `inet_pton` cost about 300 instructions per transfer
            // on the engine thread. Anything else takes the library's way.
            version = 4
            withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: address, as: UInt32.self) }
        } else if inet_pton(AF_INET, pointer, &bytes) == 1 {
            version = 4
        } else if inet_pton(AF_INET6, pointer, &bytes) == 1 {
            version = 6
        } else {
            bytes = (0, 0)
        }
    }

    /// The four bytes of a plain IPv4 dotted quad ("127.0.0.1": four decimal parts of 0...255,
    /// without leading zeros, and nothing after), in memory as `inet_pton` stores them (network
    /// order: the first part in the first byte); nil for any other text, also for text
    /// `inet_pton` would accept some other way.
    static func dottedQuad(_ pointer: UnsafePointer<CChar>) -> UInt32? {
        var result: UInt32 = 0
        var offset = 0
        for part in 0..<4 {
            var value: UInt32 = 0
            var digits = 0
            while true {
                let byte = UInt8(bitPattern: pointer[offset])
                guard byte >= 0x30, byte <= 0x39 else { break }
                // A leading zero only as the whole part ("0", never "01").
                if digits == 1, value == 0 { return nil }
                value = value * 10 + UInt32(byte - 0x30)
                digits += 1
                guard digits <= 3, value <= 255 else { return nil }
                offset += 1
            }
            guard digits > 0 else { return nil }
            withUnsafeMutableBytes(of: &result) { $0[part] = UInt8(value) }
            let end = UInt8(bitPattern: pointer[offset])
            guard end == (part < 3 ? 0x2E : 0) else { return nil }
            offset += 1
        }
        return result
    }

    static func == (lhs: IPAddress, rhs: IPAddress) -> Bool {
        lhs.version == rhs.version && lhs.bytes.0 == rhs.bytes.0 && lhs.bytes.1 == rhs.bytes.1
    }

    /// Whether there is no address.
    var isEmpty: Bool { version == 0 }

    /// The address in its standard text form, or nil.
    var text: String? {
        guard version != 0 else { return nil }
        var address = bytes
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard let base = buffer.baseAddress,
                inet_ntop(version == 4 ? AF_INET : AF_INET6, &address, base, socklen_t(buffer.count)) != nil
            else { return nil }
            return String(cString: base)
        }
    }
}
