import CCurl
import CCurlShim
import Foundation

/// What the engine knows about a failed transfer besides libcurl's result code: its own
/// verdicts (size limit, head parser, deadlines) and the transfer's state. A value, so that
/// ``CurlResultTable`` is a pure function tested without sockets.
struct TransferFailureState {
    /// The request's host, for ``CourierError/dnsFailure``.
    var host = ""
    /// The request's URL, for ``CourierError/invalidURL``.
    var url = ""
    /// libcurl's own explanation (its error buffer, else `curl_easy_strerror`).
    var message = ""
    /// The body limit in force, for ``CourierError/responseTooLarge``.
    var bodyLimit: Int?
    /// The write callback stopped the transfer because the body outgrew `bodyLimit`.
    var exceededBodyLimit = false
    /// The write callback stopped because writing the download file failed.
    var fileWriteError: FileWriteFailure?
    /// Why the response head parser rejected the head, if it did.
    var headViolation: String?
    /// Bytes of response head received (0: not even a status line).
    var headBytes = 0
    /// The final response head was complete (its blank line seen): the body was being read.
    var headComplete = false
    /// The request was handed to a connection (libcurl's pre-transfer point was reached).
    var connected = false
    /// The request's overall deadline has passed.
    var requestDeadlinePassed = false
    /// The redirect limit in force.
    var redirectLimit = 0

    /// A failed write to a download's file: the errno and the file's path.
    struct FileWriteFailure {
        var errno: Int32
        var path: String
    }
}

/// The one table from libcurl's result codes to ``CourierError``: every code an HTTP(S) transfer
/// configured by Courier can end with has a row; anything else is
/// ``CourierError/transport`` with libcurl's code and words.
///
/// Rows that depend on more than the code read ``TransferFailureState``, never libcurl's English
/// text, with two exceptions, where libcurl 7.88 reports malformed framing with
/// `CURLE_RECV_ERROR`, the same code as a connection reset, and only its message tells them apart:
/// malformed chunked framing (the message ends in "in chunked-encoding"), and every HTTP/2 frame
/// or header block nghttp2 rejected (a CONTINUATION flood, a header block that decodes to
/// megabytes: the message names `nghttp2_session_mem_recv()`, which fails only on what the
/// server sent).
///
/// The retry policy treats ``CourierError/truncatedResponse``,
/// ``CourierError/cannotConnect`` and ``CourierError/timedOut`` as transient, so
/// the table sends malformed framing and oversized heads to
/// ``CourierError/protocolViolation``, which is never retried.
enum CurlResultTable {
    /// What libcurl 7.88's message says when nghttp2 rejected the bytes the server sent.
    static let nghttp2Rejected = "nghttp2_session_mem_recv() returned"

    static func error(for code: CURLcode, _ state: TransferFailureState) -> CourierError {
        switch code {
        // Connecting.
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dnsFailure(host: state.host)
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_INTERFACE_FAILED, CURLE_PROXY:
            return .cannotConnect(message: state.message)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(state.requestDeadlinePassed || state.connected ? .request : .connect)

        // TLS.
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .pinnedKeyMismatch
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return .tlsFailure(message: state.message)

        // The response: framing, heads, bodies.
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            return .protocolViolation(message: state.message)
        case CURLE_RECV_ERROR where state.message.hasSuffix("in chunked-encoding"):
            return .protocolViolation(message: "malformed chunked encoding: \(state.message)")
        case CURLE_RECV_ERROR where state.message.contains(nghttp2Rejected):
            return .protocolViolation(message: "malformed HTTP/2 framing: \(state.message)")
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING:
            return .truncatedResponse(message: state.message)
        case CURLE_OUT_OF_MEMORY where state.headBytes > 0 && !state.headComplete:
            // libcurl refuses a single header line over 100 KB with this code.
            return .protocolViolation(message: "a response header line is longer than libcurl's 100 KB limit")
        case CURLE_BAD_FUNCTION_ARGUMENT where state.headBytes > 0 && !state.headComplete:
            // libcurl's header store refuses a folded line that has no field before it.
            return .protocolViolation(
                message: "the response head has a line libcurl cannot store (a folded line with no field before it)")
        case CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(limit: state.bodyLimit ?? 0)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: state.redirectLimit)

        // Courier's own callbacks stopped the transfer.
        case CURLE_WRITE_ERROR where state.headViolation != nil:
            return .protocolViolation(message: state.headViolation ?? "")
        case CURLE_WRITE_ERROR where state.exceededBodyLimit:
            return .responseTooLarge(limit: state.bodyLimit ?? 0)
        case CURLE_WRITE_ERROR where state.fileWriteError != nil:
            let reason = state.fileWriteError.map { String(cString: strerror($0.errno)) } ?? ""
            return .transport(
                code: Int(code.rawValue),
                message: "could not write to \(state.fileWriteError?.path ?? "the destination"): \(reason)")
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled

        // The request itself.
        case CURLE_URL_MALFORMAT:
            return .invalidURL(state.url)

        default:
            return .transport(code: Int(code.rawValue), message: state.message)
        }
    }
}
