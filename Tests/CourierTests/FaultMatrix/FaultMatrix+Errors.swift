import Courier
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libcurl failures that used to come back untyped or as the wrong (retried) case.
extension FaultMatrix {
    private static let ok = "HTTP/1.1 200 OK\r\n"
    private static let badChunk = ok + "Transfer-Encoding: chunked\r\n\r\nZZZ\r\nhello\r\n0\r\n\r\n"
    private static let oversizedHead =
        ok + (0..<4).map { "X-Filler-\($0): " + String(repeating: "a", count: 80_000) + "\r\n" }.joined()
        + "Content-Length: 2\r\n\r\nok"
    private static let headTooLarge = CourierError.protocolViolation(
        message: "the response head is larger than \(SecurityPolicy.maxResponseHeadSize) bytes")

    static let errors: [FaultCase] = [
        .raw(
            "invalid chunk size", badChunk, expect: .errorCase("protocolViolation", containing: "in chunked-encoding")),
        sentOnce(
            "invalid chunk size is never retried", badChunk,
            expect: .errorCase("protocolViolation", containing: "in chunked-encoding")),
        .raw("response head over 300 KB", oversizedHead, expect: .error(headTooLarge)),
        sentOnce("response head over 300 KB is never retried", oversizedHead, expect: .error(headTooLarge)),
        .raw(
            "one 200 KB header line",
            ok + "X-Big: " + String(repeating: "a", count: 200_000) + "\r\nContent-Length: 2\r\n\r\nok",
            expect: .error(.protocolViolation(message: "a response header line is longer than libcurl's 100 KB limit"))),
        .raw(
            "folded line before any field", ok + " X-A: one\r\nContent-Length: 2\r\n\r\nok",
            expect: .error(
                .protocolViolation(
                    message: "the response head has a line libcurl cannot store (a folded line with no field before it)"
                ))),
        .raw(
            "chunked body cut short", ok + "Transfer-Encoding: chunked\r\n\r\n5\r\nhel",
            expect: .errorCase("truncatedResponse", containing: "")),
        FaultCase(name: "connection reset mid-body", expectation: .errorCase("truncatedResponse", containing: "reset"))
        { bench in
            bench.server.route("/fault/reset") { _ in
                TestHTTPResponse(
                    behaviour: .rawThenReset(Data((ok + "Content-Length: 100\r\n\r\nhello").utf8), afterMs: 50))
            }
            return FaultOutcome(await bench.session().request(.url(bench.server.url("/fault/reset"))).response())
        },
        oversizedRequest(
            "1 MB request header value", headers: ["X-Big": String(repeating: "v", count: 1 << 20)],
            expect: .error(
                .invalidHeader(
                    name: "X-Big",
                    reason: "the field is \((1 << 20) + 9) bytes, over the limit of 65536"))),
        oversizedRequest(
            "request headers over the total limit",
            headers: Dictionary(
                uniqueKeysWithValues: (0..<5).map { ("X-Part-\($0)", String(repeating: "v", count: 60_000)) }),
            expect: .errorCase("invalidHeader", containing: "over the limit of 262144"))
    ]

    /// A raw reply requested with retries on: the server must see the request exactly once.
    private static func sentOnce(_ name: String, _ reply: String, expect: FaultExpectation) -> FaultCase {
        FaultCase(name: name, expectation: expect) { bench in
            let url = bench.rawURL(name, Data(reply.utf8))
            let response = await bench.session { $0.retryPolicy = RetryPolicy(maxRetries: 2, baseDelay: 0.01) }
                .request(.url(url)).response()
            let sent = bench.server.recordedRequests(path: url.path).count
            return sent == 1 ? FaultOutcome(response) : .broken("sent \(sent) times")
        }
    }

    /// Oversized request headers are refused before anything reaches the server.
    private static func oversizedRequest(
        _ name: String, headers: [String: String], expect: FaultExpectation
    ) -> FaultCase {
        FaultCase(name: name, expectation: expect) { bench in
            let url = bench.rawURL(name, Data((ok + "Content-Length: 0\r\n\r\n").utf8))
            var request = URLRequest(url: url)
            for (field, value) in headers { request.setValue(value, forHTTPHeaderField: field) }
            let response = await bench.session().request(.urlRequest(request)).response()
            if !bench.server.recordedRequests(path: url.path).isEmpty { return .broken("the request was sent") }
            return FaultOutcome(response)
        }
    }
}
