import CCurl
import CCurlShim
import Foundation

/// Turning a finished easy handle into metrics and a typed error.
extension CurlTransfer {
    func mapError(_ code: CURLcode) -> CourierError {
        let message = errorMessage(code)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dnsFailure(host: request.url?.host ?? "")
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect(message: message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(timeoutKind(message: message))
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .pinnedKeyMismatch
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            return .tlsFailure(message: message)
        case CURLE_TOO_MANY_REDIRECTS:
            if case .follow(let limit) = options.redirectPolicy { return .tooManyRedirects(limit: limit) }
            return .tooManyRedirects(limit: 0)
        case CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(limit: options.bodyLimit ?? 0)
        case CURLE_WRITE_ERROR where exceededSizeLimit:
            return .responseTooLarge(limit: options.bodyLimit ?? 0)
        case CURLE_WRITE_ERROR where fileWriteError != 0:
            let reason = String(cString: strerror(fileWriteError))
            return .transport(code: Int(code.rawValue),
                              message: "could not write to \(options.destination?.path ?? "the destination"): \(reason)")
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .truncatedResponse(message: message)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // The scheme was checked before sending; here the server spoke something that is not HTTP.
            return .protocolViolation(message: message)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(request.url?.absoluteString ?? "")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .protocolViolation(message: message)
        case CURLE_ABORTED_BY_CALLBACK:
            return idleTimedOut ? .timedOut(.idle) : .cancelled
        default:
            return .transport(code: Int(code.rawValue), message: message)
        }
    }

    /// libcurl reports every timeout as CURLE_OPERATION_TIMEDOUT; its message says which fired.
    private func timeoutKind(message: String) -> CourierError.TimeoutKind {
        let lower = message.lowercased()
        if lower.contains("too slow") { return .idle }
        // Still connecting: curl says so, or the request never reached the point of being sent
        // (a reused connection has no connect time but does have a pre-transfer time).
        let neverSent = metrics.map { $0.connect == 0 && $0.preTransfer == 0 } ?? true
        let duringConnect = lower.hasPrefix("connection timed out") || lower.hasPrefix("resolving timed out")
            || lower.contains("failed to connect") || neverSent
        guard duringConnect else { return .request }
        // While connecting, whichever limit is shorter is the one that fired.
        let connect = options.connectTimeout ?? .infinity
        let whole = options.requestTimeout ?? .infinity
        return connect <= whole ? .connect : .request
    }

    private func errorMessage(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        if !detail.isEmpty { return detail }
        return String(cString: curl_easy_strerror(code))
    }

    func readMetrics(_ easy: UnsafeMutableRawPointer) -> TransferMetrics {
        func time(_ info: CURLINFO) -> TimeInterval {
            var value: curl_off_t = 0
            courier_easy_getinfo_off_t(easy, info, &value)
            return TimeInterval(value) / 1_000_000
        }
        func off(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            courier_easy_getinfo_off_t(easy, info, &value)
            return Int64(value)
        }
        func long(_ info: CURLINFO) -> Int {
            var value = 0
            courier_easy_getinfo_long(easy, info, &value)
            return value
        }
        var ip: UnsafeMutablePointer<CChar>?
        courier_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &ip)
        let address = ip.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        let version: TransferMetrics.HTTPVersion
        switch long(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): version = .http1_0
        case Int(CURL_HTTP_VERSION_1_1): version = .http1_1
        case Int(CURL_HTTP_VERSION_2_0): version = .http2
        case Int(CURL_HTTP_VERSION_3): version = .http3
        default: version = .unknown
        }
        let remotePort = long(CURLINFO_PRIMARY_PORT)
        let localPort = long(CURLINFO_LOCAL_PORT)
        return TransferMetrics(
            nameLookup: time(CURLINFO_NAMELOOKUP_TIME_T),
            connect: time(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: time(CURLINFO_APPCONNECT_TIME_T),
            preTransfer: time(CURLINFO_PRETRANSFER_TIME_T),
            timeToFirstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: time(CURLINFO_TOTAL_TIME_T),
            bytesSent: Int64(long(CURLINFO_REQUEST_SIZE)) + off(CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: Int64(long(CURLINFO_HEADER_SIZE)) + off(CURLINFO_SIZE_DOWNLOAD_T),
            httpVersion: version,
            connectionReused: address != nil && long(CURLINFO_NUM_CONNECTS) == 0,
            redirectCount: redirectCount,
            remoteAddress: address,
            remotePort: remotePort > 0 ? remotePort : nil,
            localPort: localPort > 0 ? localPort : nil)
    }
}
