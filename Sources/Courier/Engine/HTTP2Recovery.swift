import CCurl
import CCurlShim
import Foundation

/// What a failed transfer knows about itself, for ``HTTP2Recovery``: libcurl's code and whether
/// libcurl explained it, how far the response got, and how the request can be sent again.
struct HTTP2FailureFacts {
    var code: CURLcode
    /// libcurl wrote a message of its own into the error buffer.
    var libcurlExplained = false
    /// The message libcurl wrote (empty when it wrote none).
    var message = ""
    /// The connection carried HTTP/2 (as far as libcurl reported a version).
    var isHTTP2 = false
    /// The request went to an origin where HTTP/2 is possible (https, HTTP/1.1 not required).
    var multiplexed = false
    /// Bytes of response head received (0: nothing of a response).
    var headBytes = 0
    /// The final response head arrived complete.
    var headComplete = false
    /// The final response's status (0: none).
    var statusCode = 0
    /// The `:status` libcurl recorded in its header store when the HTTP/2 response head arrived,
    /// even if it never passed the head on (0: none).
    var storedStatus = 0
    /// The final response's Content-Length, if it declared one.
    var declaredLength: Int?
    /// Body bytes received as sent (before any content decoding).
    var receivedBodyBytes = 0
    /// The request was a HEAD (no body follows any status).
    var isHeadRequest = false
    /// The request can be sent again byte for byte (no streamed body that was consumed).
    var replayable = true
    /// Times this request was already sent again because the server had not processed it.
    var unprocessedRetries = 0
    /// This attempt is the HTTP/1.1 resend of an early response libcurl discarded.
    var resentOverHTTP1 = false
}

/// What becomes of an early HTTP/2 response of which libcurl kept only the status.
enum DiscardedEarlyResponse: Equatable {
    /// Send the request once more, over HTTP/1.1 on a new connection, where libcurl delivers an
    /// early response whole; deliver `status` alone if that attempt fails.
    case resendOverHTTP1(status: Int)
    /// Deliver the status alone (no headers, no body).
    case deliverStatus(Int)
}

/// Pure decisions about failed HTTP/2 transfers, each the behaviour RFC 9113 asks for where
/// libcurl 7.88 does something else. Tested as tables (HTTP2RecoveryTests); the engine carries
/// them out (CurlEngine+Transfers.swift).
enum HTTP2Recovery {
    /// How many times a request the server did not process is sent again on a new connection.
    static let maxUnprocessedRetries = 2

    /// RFC 9113 §8.1: a server may answer before it has read the whole request, and then reset the
    /// stream with NO_ERROR; the client must not discard that response. libcurl 7.88 fails such a
    /// transfer when its upload runs into the closed stream (`CURLE_HTTP2_STREAM`, or a send
    /// error). The response is delivered when it is known to be complete: its whole head arrived
    /// with a final status, and its body is as long as its Content-Length says (or it has none:
    /// 204, 304, a HEAD request).
    static func deliversEarlyResponse(_ facts: HTTP2FailureFacts) -> Bool {
        guard [CURLE_HTTP2_STREAM, CURLE_HTTP2, CURLE_SEND_ERROR].contains(facts.code), facts.isHTTP2 else {
            return false
        }
        return isComplete(facts)
    }

    /// The response's whole head arrived with a final status, and its body is as long as its
    /// Content-Length says (or it has none: 204, 304, a HEAD request).
    private static func isComplete(_ facts: HTTP2FailureFacts) -> Bool {
        guard facts.headComplete, facts.statusCode >= 200 else { return false }
        if facts.isHeadRequest || facts.statusCode == 204 || facts.statusCode == 304 {
            return facts.receivedBodyBytes == 0
        }
        guard let declared = facts.declaredLength else { return false }
        return facts.receivedBodyBytes == declared
    }

    /// The status of an early response that libcurl received and then discarded, when that is
    /// what happened; nil otherwise.
    ///
    /// libcurl 7.88 buffers an HTTP/2 response's head and body until its reader asks for them;
    /// when the stream's RST_STREAM(NO_ERROR) is processed first, it drops the buffer and fails the
    /// transfer: `CURLE_HTTP2_STREAM` with no message of its own when the upload runs into the
    /// closed stream ("stream N closed": the stream had closed cleanly), or "HTTP/2 stream N was
    /// reset" (a reset without an error code: one with an error code reads "was not closed
    /// cleanly"). Only the `:status`, which it records in its header store as the head arrives,
    /// survives (see ``discardedEarlyResponse(_:)`` for what becomes of it).
    static func discardedEarlyStatus(_ facts: HTTP2FailureFacts) -> Int? {
        guard !facts.resentOverHTTP1, facts.headBytes == 0, facts.storedStatus >= 200 else { return nil }
        let cleanlyClosed = facts.code == CURLE_HTTP2_STREAM && !facts.libcurlExplained
        let resetWithoutError =
            (facts.code == CURLE_PARTIAL_FILE || facts.code == CURLE_RECV_ERROR)
            && facts.message.hasPrefix("HTTP/2 stream ") && facts.message.hasSuffix(" was reset")
        return cleanlyClosed || resetWithoutError ? facts.storedStatus : nil
    }

    /// What becomes of an early response libcurl discarded (nil: the failure is not one).
    ///
    /// Over HTTP/1.1 libcurl 7.88 handles an early response as RFC 9112 §9.3 expects: it stops
    /// sending the body and delivers the whole response. So a request that can be sent again byte
    /// for byte (an in-memory or file body, not a stream already consumed), answered with a status
    /// by which the server says it did not act on it (``answeredWithoutActing(status:)``), is sent
    /// once more over HTTP/1.1 on a new connection, to get the response's headers and body.
    /// Otherwise the status is delivered alone: a 401 still lets an authenticator refresh its
    /// token, a 413 still says what was wrong.
    static func discardedEarlyResponse(_ facts: HTTP2FailureFacts) -> DiscardedEarlyResponse? {
        guard let status = discardedEarlyStatus(facts) else { return nil }
        guard facts.replayable, answeredWithoutActing(status: status) else { return .deliverStatus(status) }
        return .resendOverHTTP1(status: status)
    }

    /// Final statuses by which a server that answered before reading the body says it did not act
    /// on the request, so that sending it again changes nothing on the server (RFC 9110 §15):
    /// the redirects that move the request elsewhere (301, 302, 307, 308: the target resource is
    /// not here) and every client error (4xx: the request was refused as it stands). Not 2xx (the
    /// server says it succeeded without the body: it acted), not 303 (how a server points to the
    /// result of what it did), not 5xx (a server error may come after acting in part; and a 503
    /// is an overloaded server, not to be sent more).
    static func answeredWithoutActing(status: Int) -> Bool {
        [301, 302, 307, 308].contains(status) || (400...499).contains(status)
    }

    /// Whether the HTTP/1.1 resend (see ``discardedEarlyResponse(_:)``), which libcurl failed with
    /// `facts.code`, still got a complete response to deliver (a server may close the connection
    /// after its early response, before libcurl stopped sending). If not, the status of the
    /// HTTP/2 attempt is delivered alone, as if there had been no resend.
    static func resendDelivers(_ facts: HTTP2FailureFacts) -> Bool {
        guard facts.resentOverHTTP1, [CURLE_SEND_ERROR, CURLE_RECV_ERROR].contains(facts.code) else {
            return false
        }
        return isComplete(facts)
    }

    /// RFC 9113 §6.8: streams above a GOAWAY's last-stream-id were not processed, so any request
    /// on them may be sent again on a new connection. libcurl 7.88 then ends the transfer with
    /// `CURLE_HTTP2` and no message of its own (the session has nothing left to do: the GOAWAY
    /// closed the stream before any response), which nothing else it reports looks like.
    ///
    /// RFC 9113 §8.7: a stream refused with REFUSED_STREAM was not processed either. libcurl sends
    /// such a request again itself, and gives up after 5 tries ("Connection died, tried 5 times
    /// before giving up", with `CURLE_RECV_ERROR` or `CURLE_SEND_ERROR`); to an HTTP/2 origin the request then goes back to
    /// Courier's own queue, where it waits for a connection whose limit is known.
    ///
    /// A response that had begun is never sent again.
    static func wasUnprocessed(_ facts: HTTP2FailureFacts) -> Bool {
        guard facts.headBytes == 0 else { return false }
        if facts.code == CURLE_HTTP2 { return !facts.libcurlExplained }
        return (facts.code == CURLE_RECV_ERROR || facts.code == CURLE_SEND_ERROR) && facts.multiplexed
            && facts.message.hasPrefix("Connection died, tried ")
    }

    /// Whether the request is sent again on a new connection (see ``wasUnprocessed(_:)``).
    static func retriesUnprocessed(_ facts: HTTP2FailureFacts) -> Bool {
        wasUnprocessed(facts) && facts.replayable && facts.unprocessedRetries < maxUnprocessedRetries
    }

    /// Whether the failure leaves the connection unfit for another request: nghttp2 rejected what
    /// the server sent (a CONTINUATION flood, a header block that decodes to megabytes), so the
    /// connection's HTTP/2 session has failed as a whole. libcurl 7.88 may keep such a connection
    /// in its pool, and the next request on it waits for its timeout. Stream-level failures, and a
    /// GOAWAY (after which libcurl itself stops using the connection while the streams the server
    /// kept finish), leave the connection alone.
    static func poisonsConnection(_ facts: HTTP2FailureFacts) -> Bool {
        facts.code == CURLE_RECV_ERROR && facts.message.contains(CurlResultTable.nghttp2Rejected)
    }
}
