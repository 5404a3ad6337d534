import CCurl
import CCurlShim
import Foundation

/// What the engine's deadline and admission checks ask a transfer. Loop thread only.
extension CurlTransfer {
    /// The origin (`https://host:port`) when this hop may be multiplexed over HTTP/2, so that
    /// ``StreamAdmission`` paces it; nil for cleartext (never HTTP/2 here) and HTTP/1.1-only requests.
    var multiplexOrigin: String? {
        guard options.httpVersion != .http1_1, let url = request.url, url.scheme?.lowercased() == "https",
              let host = url.host?.lowercased() else { return nil }
        return "https://\(host):\(url.port ?? 443)"
    }

    /// When this hop must have a connection, until one is confirmed.
    var connectDeadline: ContinuousClock.Instant? {
        guard !connectConfirmed, let limit = options.connectTimeout, limit > 0, let hopStartedAt else { return nil }
        return hopStartedAt + .milliseconds(Self.milliseconds(limit))
    }

    /// Whether this hop's request went out on a connection (libcurl's pre-transfer point).
    func confirmConnected() -> Bool {
        guard let easy else { return false }
        var preTransfer: curl_off_t = 0
        courier_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &preTransfer)
        connectConfirmed = preTransfer > 0
        return connectConfirmed
    }

    /// When the transfer counts as idle if no byte moves before; a deliberate pause (a slow
    /// reader or producer of a streamed body) is not idleness.
    func idleDeadline(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let limit = options.idleTimeout, limit > 0 else { return nil }
        if flow?.isPaused == true { lastActivity = now }
        return lastActivity + .milliseconds(Self.milliseconds(limit))
    }

    /// Whether the request's overall time limit is used up.
    var requestDeadlinePassed: Bool {
        guard let requestDeadline else { return false }
        return ContinuousClock.now >= requestDeadline - .milliseconds(1)
    }
}
