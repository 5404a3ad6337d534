import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Carrying out ``HTTP2Recovery``'s decisions for a failed transfer, while its handle is valid.
extension CurlTransfer {
    enum HTTP2Action {
        /// Report the failure.
        case fail
        /// Send the request again (the server did not process it).
        case resend
        /// The complete response arrived: deliver it as if the transfer had succeeded.
        case deliver
        /// Send the request again over HTTP/1.1 on a new connection: libcurl discarded the
        /// head and body of an early response.
        case resendOverHTTP1
    }

    /// What to do about a transfer libcurl failed with `code`; shuts the connection down first
    /// when the failure leaves it unfit for another request.
    func recoverHTTP2(code: CURLcode, easy: UnsafeMutableRawPointer) -> HTTP2Action {
        let facts = http2Facts(code: code, easy: easy)
        if let status = http1ResendStatus {
            // The HTTP/1.1 resend failed: what it got, when complete, else the status alone.
            if !HTTP2Recovery.resendDelivers(facts) { deliverStatusOnly(status) }
            return .deliver
        }
        if HTTP2Recovery.poisonsConnection(facts) { shutDownConnection(easy) }
        if HTTP2Recovery.retriesUnprocessed(facts) { return .resend }
        if HTTP2Recovery.deliversEarlyResponse(facts) { return .deliver }
        switch HTTP2Recovery.discardedEarlyResponse(facts) {
        case nil:
            return .fail
        case .resendOverHTTP1(let status)?:
            http1ResendStatus = status
            return .resendOverHTTP1
        case .deliverStatus(let status)?:
            deliverStatusOnly(status)
            return .deliver
        }
    }

    /// Makes the response `status` alone, over HTTP/2: libcurl dropped the early response's head
    /// and body.
    func deliverStatusOnly(_ status: Int) {
        resetResponseState()
        rewindDestination()
        head = ResponseHead(url: request.url, statusCode: status, httpVersion: "HTTP/2", fields: [])
    }

    func http2Facts(code: CURLcode, easy: UnsafeMutableRawPointer) -> HTTP2FailureFacts {
        var facts = HTTP2FailureFacts(code: code)
        facts.message = libcurlErrorMessage
        facts.libcurlExplained = !facts.message.isEmpty
        facts.isHTTP2 = metrics?.httpVersion == .http2
        facts.multiplexed = multiplexOrigin != nil
        facts.headBytes = headParser.byteCount
        facts.headComplete = headParser.isComplete
        facts.statusCode = headParser.statusCode
        facts.declaredLength = headParser.declaredLength
        var downloaded: curl_off_t = 0
        courier_easy_getinfo_off_t(easy, CURLINFO_SIZE_DOWNLOAD_T, &downloaded)
        facts.receivedBodyBytes = Int(downloaded)
        facts.isHeadRequest = request.method == .head
        facts.replayable = request.body.isReplayable
        facts.unprocessedRetries = unprocessedRetries
        facts.resentOverHTTP1 = http1ResendStatus != nil
        facts.storedStatus = Self.storedStatus(easy)
        return facts
    }

    /// The `:status` in libcurl's header store for the last response (0: none).
    private static func storedStatus(_ easy: UnsafeMutableRawPointer) -> Int {
        var header: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, ":status", 0, UInt32(CURLH_PSEUDO), -1, &header) == CURLHE_OK,
            let value = header?.pointee.value
        else { return 0 }
        return Int(String(cString: value)) ?? 0
    }

    /// Shuts down the socket of the connection the transfer used, if libcurl still keeps it: the
    /// next request to the origin then finds it dead and opens a new one. The socket stays open
    /// (libcurl owns and closes it); only its traffic ends.
    private func shutDownConnection(_ easy: UnsafeMutableRawPointer) {
        let socket = courier_easy_active_socket(easy)
        guard socket != CURL_SOCKET_BAD else { return }
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }
}
