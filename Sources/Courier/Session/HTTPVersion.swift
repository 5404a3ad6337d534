/// An HTTP version: the one a response arrived with (``TransferMetrics/httpVersion``,
/// ``HTTPResponseHead/httpVersion``) and the highest one a session negotiates
/// (``Session/Configuration/maxHTTPVersion``).
public enum HTTPVersion: String, Sendable, Equatable {
    /// HTTP/1.0.
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1.
    case http1_1 = "HTTP/1.1"
    /// HTTP/2. Courier negotiates it over TLS (ALPN); cleartext HTTP/2 with prior knowledge is not
    /// offered, as it is unreliable in libcurl 7.88.
    case http2 = "HTTP/2"
    /// HTTP/3. The libcurl Courier runs on (Debian's 7.88) cannot speak it, so as a maximum it
    /// means the same as ``http2``.
    case http3 = "HTTP/3"

    /// The version's place in time, older first (`maxHTTPVersion.rank >= HTTPVersion.http2.rank`).
    var rank: Int {
        switch self {
        case .http1_0: return 0
        case .http1_1: return 1
        case .http2: return 2
        case .http3: return 3
        }
    }
}
