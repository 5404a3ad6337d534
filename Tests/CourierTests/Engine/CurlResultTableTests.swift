import CCurl
@testable import Courier
import XCTest

/// The libcurl result table as a pure function: one assertion per row, no sockets.
final class CurlResultTableTests: XCTestCase {
    private func state(_ change: (inout TransferFailureState) -> Void = { _ in }) -> TransferFailureState {
        var state = TransferFailureState()
        state.host = "api.example"
        state.url = "https://api.example/x"
        state.message = "libcurl says"
        state.bodyLimit = 1000
        state.redirectLimit = 7
        change(&state)
        return state
    }

    private func check(
        _ code: CURLcode, _ state: TransferFailureState, _ expected: CourierError,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            CurlResultTable.error(for: code, state), expected, "code \(code.rawValue)", file: file, line: line)
    }

    func testConnecting() {
        check(CURLE_COULDNT_RESOLVE_HOST, state(), .dnsFailure(host: "api.example"))
        for code in [CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_INTERFACE_FAILED, CURLE_PROXY] {
            check(code, state(), .cannotConnect(message: "libcurl says"))
        }
    }

    func testTimeoutKindComesFromState() {
        check(CURLE_OPERATION_TIMEDOUT, state(), .timedOut(.connect))
        check(CURLE_OPERATION_TIMEDOUT, state { $0.connected = true }, .timedOut(.request))
        check(CURLE_OPERATION_TIMEDOUT, state { $0.requestDeadlinePassed = true }, .timedOut(.request))
        check(
            CURLE_OPERATION_TIMEDOUT, state { $0.message = "Operation too slow. Less than 1 bytes/sec" },
            .timedOut(.connect))
    }

    func testATimeoutsDescriptionNamesTheLimit() {
        XCTAssertEqual(CourierError.timedOut(.connect).description, "Timed out (connect timeout)")
        XCTAssertEqual(CourierError.timedOut(.request).description, "Timed out (request timeout)")
        XCTAssertEqual(CourierError.timedOut(.idle).description, "Timed out (idle timeout)")
    }

    func testTLS() {
        check(CURLE_SSL_PINNEDPUBKEYNOTMATCH, state(), .pinnedKeyMismatch)
        for code in [
            CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT
        ] {
            check(code, state(), .tlsFailure(message: "libcurl says"))
        }
    }

    func testProtocolViolations() {
        for code in [
            CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
            CURLE_HTTP2_STREAM
        ] {
            check(code, state(), .protocolViolation(message: "libcurl says"))
        }
        let chunk = "Illegal or missing hexadecimal sequence in chunked-encoding"
        check(
            CURLE_RECV_ERROR,
            state {
                $0.message = chunk; $0.headComplete = true
            },
            .protocolViolation(message: "malformed chunked encoding: " + chunk))
        for rejected in [
            "h2_process_pending_input: nghttp2_session_mem_recv() returned -905:Too many CONTINUATION frames following a HEADER frame",
            "h2_process_pending_input: nghttp2_session_mem_recv() returned -902:The user callback function failed"
        ] {
            check(
                CURLE_RECV_ERROR, state { $0.message = rejected },
                .protocolViolation(message: "malformed HTTP/2 framing: " + rejected))
        }
        check(
            CURLE_RECV_ERROR, state { $0.message = "Connection reset by peer" },
            .truncatedResponse(message: "Connection reset by peer"))
        check(
            CURLE_OUT_OF_MEMORY, state { $0.headBytes = 17 },
            .protocolViolation(message: "a response header line is longer than libcurl's 100 KB limit"))
        check(
            CURLE_BAD_FUNCTION_ARGUMENT, state { $0.headBytes = 17 },
            .protocolViolation(
                message: "the response head has a line libcurl cannot store (a folded line with no field before it)"))
        check(
            CURLE_WRITE_ERROR, state { $0.headViolation = "conflicting Content-Length values 5 and 10" },
            .protocolViolation(message: "conflicting Content-Length values 5 and 10"))
    }

    func testCutShort() {
        for code in [CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING] {
            check(code, state { $0.headComplete = true }, .truncatedResponse(message: "libcurl says"))
        }
    }

    func testLimitsAndCallbacks() {
        check(CURLE_FILESIZE_EXCEEDED, state(), .responseTooLarge(limit: 1000))
        check(CURLE_WRITE_ERROR, state { $0.exceededBodyLimit = true }, .responseTooLarge(limit: 1000))
        check(
            CURLE_WRITE_ERROR, state { $0.fileWriteError = .init(errno: ENOSPC, path: "/tmp/f") },
            .transport(code: 23, message: "could not write to /tmp/f: No space left on device"))
        check(CURLE_TOO_MANY_REDIRECTS, state(), .tooManyRedirects(limit: 7))
        check(CURLE_ABORTED_BY_CALLBACK, state(), .cancelled)
        check(CURLE_URL_MALFORMAT, state(), .invalidURL("https://api.example/x"))
    }

    func testOutsideTheHeadTheseStayTransportErrors() {
        check(CURLE_OUT_OF_MEMORY, state(), .transport(code: 27, message: "libcurl says"))
        check(
            CURLE_OUT_OF_MEMORY,
            state {
                $0.headBytes = 17; $0.headComplete = true
            }, .transport(code: 27, message: "libcurl says"))
        check(CURLE_BAD_FUNCTION_ARGUMENT, state(), .transport(code: 43, message: "libcurl says"))
        check(CURLE_WRITE_ERROR, state(), .transport(code: 23, message: "libcurl says"))
        check(CURLE_FAILED_INIT, state(), .transport(code: 2, message: "libcurl says"))
    }

    func testEveryCodeMapsToATypedError() {
        // No code crashes the table, and only codes without a row fall through to `transport`.
        let rows: Set<UInt32> = [
            1, 3, 5, 6, 7, 8, 16, 18, 28, 35, 42, 45, 47, 52, 53, 54, 55, 56, 58, 59, 60, 61, 63,
            64, 66, 77, 80, 82, 83, 90, 91, 92, 97, 98
        ]
        for raw in UInt32(1)...UInt32(99) {
            let error = CurlResultTable.error(for: CURLcode(rawValue: raw), state())
            if case let failure_ = error, failure_ == .transport, let code = failure_.transportCode {
                XCTAssertFalse(rows.contains(raw), "code \(raw) has a row")
                XCTAssertEqual(code, Int(raw))
            } else {
                XCTAssertTrue(rows.contains(raw), "code \(raw) → \(error)")
            }
        }
    }
}
