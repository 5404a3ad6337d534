import CCurl
import CCurlShim
import Foundation

/// Turning a finished easy handle into metrics and a typed error.
extension CurlTransfer {
    /// The typed error for libcurl's result `code`, from ``CurlResultTable``.
    func mapError(_ code: CURLcode) -> CourierError {
        CurlResultTable.error(for: code, failureState(code))
    }

    /// What the transfer knows about itself, for the result table.
    func failureState(_ code: CURLcode) -> TransferFailureState {
        var state = TransferFailureState()
        state.host = request.url.host ?? ""
        state.url = urlText
        state.message = errorMessage(code)
        state.bodyLimit = bodyLimit
        state.exceededBodyLimit = exceededSizeLimit
        if fileWriteError != 0 {
            state.fileWriteError = .init(
                errno: fileWriteError, path: token.options.destination?.path ?? "the destination")
        }
        state.headViolation = headParser.violation
        state.headBytes = headParser.byteCount
        state.headComplete = headParser.isComplete
        state.connected = (metrics?.preTransfer ?? 0) > 0
        state.requestDeadlinePassed = requestDeadlinePassed
        if case .follow(let limit) = token.options.redirectPolicy { state.redirectLimit = limit }
        return state
    }

    private func errorMessage(_ code: CURLcode) -> String {
        let detail = libcurlErrorMessage
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
        let address = IPAddress(cString: ip)
        // The version of the status line the parser read (one libcurl call fewer per transfer);
        // libcurl's when none arrived (the connection's version, which HTTP/2 recovery reads).
        let version: HTTPVersion?
        if let parsed = headParser.httpVersion {
            version = parsed
        } else {
            switch long(CURLINFO_HTTP_VERSION) {
            case Int(CURL_HTTP_VERSION_1_0): version = .http1_0
            case Int(CURL_HTTP_VERSION_1_1): version = .http1_1
            case Int(CURL_HTTP_VERSION_2_0): version = .http2
            case Int(CURL_HTTP_VERSION_3): version = .http3
            default: version = nil
            }
        }
        let remotePort = long(CURLINFO_PRIMARY_PORT)
        let localPort = long(CURLINFO_LOCAL_PORT)
        let hasBody = if case .none = request.body { false } else { true }
        return TransferMetrics(
            nameLookup: time(CURLINFO_NAMELOOKUP_TIME_T),
            connect: time(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: time(CURLINFO_APPCONNECT_TIME_T),
            preTransfer: time(CURLINFO_PRETRANSFER_TIME_T),
            timeToFirstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: time(CURLINFO_TOTAL_TIME_T),
            // A request without a body uploads nothing: libcurl is not asked.
            bytesSent: Int64(long(CURLINFO_REQUEST_SIZE)) + (hasBody ? off(CURLINFO_SIZE_UPLOAD_T) : 0),
            bytesReceived: Int64(long(CURLINFO_HEADER_SIZE)) + off(CURLINFO_SIZE_DOWNLOAD_T),
            httpVersion: version,
            connectionReused: !address.isEmpty && long(CURLINFO_NUM_CONNECTS) == 0,
            redirectCount: redirectCount,
            address: address,
            remotePort: remotePort > 0 ? remotePort : nil,
            localPort: localPort > 0 ? localPort : nil)
    }
}
