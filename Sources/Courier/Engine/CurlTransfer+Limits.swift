import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the engine's deadline and admission checks ask a transfer. Loop thread only.
extension CurlTransfer {
    /// The origin (`https://host:port`) when the current hop may be multiplexed over HTTP/2, so
    /// that ``StreamAdmission`` paces it; nil for cleartext (never HTTP/2 here) and HTTP/1.1-only
    /// requests. Worked out once per hop, into ``CurlTransfer/multiplexOrigin``.
    static func multiplexOrigin(of request: HTTPRequest, options: TransferOptions) -> String? {
        let url = request.url
        // The scheme read from the URL's text first: `URL.scheme` parses, and a plain-http
        // request (no multiplexing) would pay for it on every transfer.
        guard options.maxHTTPVersion.rank >= HTTPVersion.http2.rank, Self.isHTTPS(url.absoluteString),
            let host = url.host?.lowercased()
        else { return nil }
        return "https://\(host):\(url.port ?? 443)"
    }

    /// Whether `text` starts with `https:`, in any case.
    static func isHTTPS(_ text: String) -> Bool {
        var matched = 0
        for (byte, expected) in zip(text.utf8, "https:".utf8) {
            guard byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0) == expected else { return false }
            matched += 1
        }
        return matched == 6
    }

    /// When the transfer counts as idle if no byte moves before; a deliberate pause (a slow
    /// reader or producer of a streamed body) is not idleness.
    func idleDeadline(now: MonotonicInstant) -> MonotonicInstant? {
        guard let limit = options.idleTimeout, limit > 0 else { return nil }
        if lifecycle.state.isPaused { lastActivity = now }
        return lastActivity.adding(milliseconds: Self.milliseconds(limit))
    }

    /// Whether the request's overall time limit is used up.
    var requestDeadlinePassed: Bool {
        guard let requestDeadline else { return false }
        return MonotonicInstant.now >= requestDeadline.adding(milliseconds: -1)
    }
}
