import CCurl
@testable import Courier
import XCTest

/// ``HTTP2Recovery``'s decisions as tables, no sockets (FaultMatrix+HTTP2.swift runs them against
/// the HTTP/2 fault server).
final class HTTP2RecoveryTests: XCTestCase {
    private func facts(_ code: CURLcode, _ change: (inout HTTP2FailureFacts) -> Void = { _ in }) -> HTTP2FailureFacts {
        var facts = HTTP2FailureFacts(code: code)
        change(&facts)
        return facts
    }

    /// A complete response head with `length` of `declared` body bytes, over HTTP/2.
    private func answered(
        _ code: CURLcode, status: Int = 401, declared: Int? = 9, received: Int = 9
    )
        -> HTTP2FailureFacts
    {
        facts(code) {
            $0.isHTTP2 = true
            $0.headBytes = 80
            $0.headComplete = true
            $0.statusCode = status
            $0.declaredLength = declared
            $0.receivedBodyBytes = received
        }
    }

    func testACompleteEarlyResponseIsDelivered() {
        let rows: [(HTTP2FailureFacts, Bool, String)] = [
            (answered(CURLE_HTTP2_STREAM), true, "the whole body as declared"),
            (answered(CURLE_SEND_ERROR), true, "the upload failed after the response"),
            (answered(CURLE_HTTP2), true, "the session ended after the response"),
            (answered(CURLE_HTTP2_STREAM, received: 4), false, "a body shorter than declared"),
            (answered(CURLE_HTTP2_STREAM, declared: nil), false, "no length: completeness unknown"),
            (answered(CURLE_HTTP2_STREAM, status: 204, declared: nil, received: 0), true, "204 has no body"),
            (answered(CURLE_HTTP2_STREAM, status: 100), false, "an interim status"),
            (answered(CURLE_OPERATION_TIMEDOUT), false, "a timeout is not an early response"),
            (answered(CURLE_WRITE_ERROR), false, "Courier's own callbacks stopped it"),
            (
                facts(CURLE_HTTP2_STREAM) {
                    $0.headBytes = 80
                    $0.statusCode = 401
                    $0.declaredLength = 9
                    $0.receivedBodyBytes = 9
                }, false, "the head never completed, or HTTP/1.1"
            )
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.deliversEarlyResponse(row), expected, why)
        }
        var head = answered(CURLE_HTTP2_STREAM, status: 200, declared: nil, received: 0)
        head.isHeadRequest = true
        XCTAssertTrue(HTTP2Recovery.deliversEarlyResponse(head), "a HEAD response has no body")
    }

    func testTheStatusOfAResponseLibcurlDiscardedIsDelivered() {
        let rows: [(HTTP2FailureFacts, Int?, String)] = [
            (facts(CURLE_HTTP2_STREAM) { $0.storedStatus = 401 }, 401, "closed cleanly while uploading"),
            (
                facts(CURLE_PARTIAL_FILE) {
                    $0.storedStatus = 413
                    $0.message = "HTTP/2 stream 3 was reset"
                    $0.libcurlExplained = true
                }, 413, "reset without an error code"
            ),
            (
                facts(CURLE_HTTP2_STREAM) {
                    $0.storedStatus = 401
                    $0.message = "HTTP/2 stream 1 was not closed cleanly: PROTOCOL_ERROR (err 1)"
                    $0.libcurlExplained = true
                }, nil, "reset with an error code"
            ),
            (facts(CURLE_HTTP2_STREAM), nil, "no status recorded"),
            (facts(CURLE_HTTP2_STREAM) { $0.storedStatus = 103 }, nil, "only an interim status"),
            (
                facts(CURLE_HTTP2_STREAM) {
                    $0.storedStatus = 401
                    $0.headBytes = 40
                }, nil, "Courier saw part of the head: it was not discarded"
            ),
            (facts(CURLE_RECV_ERROR) { $0.storedStatus = 200 }, nil, "a connection reset")
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.discardedEarlyStatus(row), expected, why)
        }
    }

    func testADiscardedEarlyResponseIsFetchedAgainOverHTTP1WhenThatChangesNothing() {
        func discarded(_ status: Int, _ change: (inout HTTP2FailureFacts) -> Void = { _ in }) -> HTTP2FailureFacts {
            facts(CURLE_HTTP2_STREAM) {
                $0.storedStatus = status
                change(&$0)
            }
        }
        let rows: [(HTTP2FailureFacts, DiscardedEarlyResponse?, String)] = [
            (discarded(401), .resendOverHTTP1(status: 401), "401: WWW-Authenticate and body wanted"),
            (discarded(413), .resendOverHTTP1(status: 413), "413: the message and Retry-After wanted"),
            (discarded(307), .resendOverHTTP1(status: 307), "307: the Location, to follow it"),
            (discarded(308), .resendOverHTTP1(status: 308), "308"),
            (discarded(301), .resendOverHTTP1(status: 301), "301"),
            (discarded(302), .resendOverHTTP1(status: 302), "302"),
            (discarded(407), .resendOverHTTP1(status: 407), "407"),
            (discarded(429), .resendOverHTTP1(status: 429), "429: Retry-After wanted"),
            (discarded(400), .resendOverHTTP1(status: 400), "any 4xx: refused as it stands"),
            (discarded(201), .deliverStatus(201), "2xx: the server acted, it must not act again"),
            (discarded(200), .deliverStatus(200), "200"),
            (discarded(303), .deliverStatus(303), "303 points to the result of an action"),
            (discarded(304), .deliverStatus(304), "304 is no redirect"),
            (discarded(500), .deliverStatus(500), "5xx: the server may have acted in part"),
            (discarded(503), .deliverStatus(503), "503: an overloaded server is not sent more"),
            (discarded(401) { $0.replayable = false }, .deliverStatus(401), "a streamed body cannot be sent again"),
            (discarded(307) { $0.replayable = false }, .deliverStatus(307), "nor followed"),
            (discarded(401) { $0.resentOverHTTP1 = true }, nil, "at most once: the resend's own failure"),
            (discarded(401) { $0.headBytes = 40 }, nil, "the head was not discarded"),
            (facts(CURLE_HTTP2_STREAM), nil, "no early response")
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.discardedEarlyResponse(row), expected, why)
        }
    }

    func testTheHTTP1ResendDeliversOnlyACompleteResponse() {
        func resent(_ code: CURLcode, declared: Int? = 9, received: Int = 9) -> HTTP2FailureFacts {
            var row = answered(code, status: 401, declared: declared, received: received)
            row.isHTTP2 = false
            row.resentOverHTTP1 = true
            return row
        }
        let rows: [(HTTP2FailureFacts, Bool, String)] = [
            (resent(CURLE_SEND_ERROR), true, "the server closed after its whole response"),
            (resent(CURLE_RECV_ERROR), true, "reset after the whole response"),
            (resent(CURLE_RECV_ERROR, received: 3), false, "a body cut short: the status alone instead"),
            (resent(CURLE_SEND_ERROR, declared: nil), false, "completeness unknown"),
            (resent(CURLE_COULDNT_CONNECT, declared: nil, received: 0), false, "no connection"),
            (resent(CURLE_SSL_CONNECT_ERROR, declared: nil, received: 0), false, "no HTTP/1.1 (ALPN h2 only)"),
            (resent(CURLE_OPERATION_TIMEDOUT), false, "a timeout")
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.resendDelivers(row), expected, why)
        }
        var notResent = resent(CURLE_SEND_ERROR)
        notResent.resentOverHTTP1 = false
        XCTAssertFalse(HTTP2Recovery.resendDelivers(notResent), "only for the resend")
    }

    func testOnlyUnprocessedRequestsAreSentAgain() {
        let goaway = facts(CURLE_HTTP2)
        XCTAssertTrue(HTTP2Recovery.wasUnprocessed(goaway))
        XCTAssertTrue(HTTP2Recovery.retriesUnprocessed(goaway))
        let rows: [(HTTP2FailureFacts, Bool, String)] = [
            (facts(CURLE_HTTP2) { $0.unprocessedRetries = 1 }, true, "a second time"),
            (facts(CURLE_HTTP2) { $0.unprocessedRetries = HTTP2Recovery.maxUnprocessedRetries }, false, "bounded"),
            (facts(CURLE_HTTP2) { $0.replayable = false }, false, "a streamed body cannot be sent again"),
            (facts(CURLE_HTTP2) { $0.headBytes = 12 }, false, "a response had begun"),
            (
                facts(CURLE_HTTP2) {
                    $0.libcurlExplained = true
                    $0.message = "nghttp2_session_set_local_window_size() failed"
                }, false, "a failure libcurl explained"
            ),
            (facts(CURLE_HTTP2_STREAM), false, "a stream error"),
            (
                facts(CURLE_SEND_ERROR) {
                    $0.multiplexed = true
                    $0.libcurlExplained = true
                    $0.message = "Connection died, tried 5 times before giving up"
                }, true, "refused (REFUSED_STREAM) 5 times: back to Courier's queue"
            ),
            (
                facts(CURLE_RECV_ERROR) {
                    $0.multiplexed = true
                    $0.libcurlExplained = true
                    $0.message = "Connection died, tried 5 times before giving up"
                }, true, "the same, as libcurl 7.88 reports it after refusals"
            ),
            (
                facts(CURLE_SEND_ERROR) {
                    $0.libcurlExplained = true
                    $0.message = "Connection died, tried 5 times before giving up"
                }, false, "not an HTTP/2 origin"
            ),
            (
                facts(CURLE_SEND_ERROR) {
                    $0.multiplexed = true
                    $0.libcurlExplained = true
                    $0.message = "Send failure: Broken pipe"
                }, false, "a failed send may have been processed"
            ),
            (facts(CURLE_RECV_ERROR), false, "a connection reset")
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.retriesUnprocessed(row), expected, why)
        }
    }

    func testOnlyAFailedSessionPoisonsItsConnection() {
        let rejected =
            "h2_process_pending_input: nghttp2_session_mem_recv() returned -902:The user callback function failed"
        let rows: [(HTTP2FailureFacts, Bool, String)] = [
            (facts(CURLE_RECV_ERROR) { $0.message = rejected }, true, "nghttp2 rejected the server's bytes"),
            (facts(CURLE_RECV_ERROR) { $0.message = "Connection reset by peer" }, false, "already closed"),
            (facts(CURLE_HTTP2), false, "a GOAWAY: libcurl retires the connection itself"),
            (facts(CURLE_HTTP2_STREAM), false, "one stream failed, the others go on"),
            (facts(CURLE_OPERATION_TIMEDOUT), false, "a timeout")
        ]
        for (row, expected, why) in rows {
            XCTAssertEqual(HTTP2Recovery.poisonsConnection(row), expected, why)
        }
    }
}
