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
    /// requests. Pure (the token works it out on the caller's thread for the first hop, the
    /// loop for each redirect), into ``CurlTransfer/multiplexOrigin``.
    static func multiplexOrigin(of url: URL, text: String, options: TransferOptions) -> String? {
        // The scheme read from the URL's text (`text`) first: `URL.scheme` parses, and a
        // plain-http request (no multiplexing) would pay for it on every transfer.
        guard options.maxHTTPVersion.rank >= HTTPVersion.http2.rank, Self.isHTTPS(text),
            let host = url.host?.lowercased()
        else { return nil }
        return "https://\(host):\(url.port ?? 443)"
    }

    /// Whether `text` starts with `https:`, in any case.
    static func isHTTPS(_ text: String) -> Bool {
        // The six bytes compared in place (a `zip` of the two UTF-8 views cost ~800 instructions
        // per request), and without a copy of the string: the text is usually a URL's, which
        // every request to that URL shares, so a copy counted a reference the callers' threads
        // pass between them.
        func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count >= 6 else { return false }
            return bytes[0] | 0x20 == 0x68 && bytes[1] | 0x20 == 0x74 && bytes[2] | 0x20 == 0x74
                && bytes[3] | 0x20 == 0x70 && bytes[4] | 0x20 == 0x73 && bytes[5] == 0x3A
        }
        if let checked = text.utf8.withContiguousStorageIfAvailable(check) { return checked }
        return Array(text.utf8.prefix(6)).withUnsafeBufferPointer(check)
    }

    /// When the transfer counts as idle if no byte moves before; a deliberate pause (a slow
    /// reader or producer of a streamed body) is not idleness.
    func idleDeadline(now: MonotonicInstant) -> MonotonicInstant? {
        guard let limit = token.options.idleTimeout, limit > 0 else { return nil }
        if lifecycle.state.isPaused { lastActivity = now }
        return lastActivity.adding(milliseconds: Self.milliseconds(limit))
    }

    /// Whether the request's overall time limit is used up.
    var requestDeadlinePassed: Bool {
        guard let requestDeadline else { return false }
        return MonotonicInstant.now >= requestDeadline.adding(milliseconds: -1)
    }
}
