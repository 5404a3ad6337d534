import Courier
import CourierTestServer
import Foundation

/// Hostile response heads and framing: conflicting lengths, folded and malformed header lines.
extension FaultMatrix {
    private static let ok = "HTTP/1.1 200 OK\r\n"

    static let heads: [FaultCase] = [
        .raw(
            "two different Content-Length headers", ok + "Content-Length: 5\r\nContent-Length: 10\r\n\r\nhelloworld",
            expect: .error(.protocolViolation(message: "conflicting Content-Length values 5 and 10"))),
        .raw(
            "two different Content-Length headers, longer first",
            ok + "Content-Length: 10\r\nContent-Length: 5\r\n\r\nhelloworld",
            expect: .error(.protocolViolation(message: "conflicting Content-Length values 10 and 5"))),
        .raw(
            "Content-Length list with different values", ok + "Content-Length: 5, 10\r\n\r\nhelloworld",
            expect: .error(.protocolViolation(message: "conflicting Content-Length values 5 and 10"))),
        .raw(
            "identical Content-Length repeats pass", ok + "Content-Length: 5\r\ncontent-length: 5\r\n\r\nhello",
            expect: .success(status: 200, body: "hello")),
        .raw(
            "Content-Length that is not a number", ok + "Content-Length: abc\r\n\r\nhello",
            expect: .errorCase("protocolViolation", containing: "Content-Length")),
        .raw(
            "obs-fold continuation lines are unfolded",
            ok + "X-A: one\r\n two\r\n\tthree\r\nContent-Length: 2\r\n\r\nok",
            expect: .success(status: 200, body: "ok", headers: ["X-A": "one two three"])),
        .raw(
            "folded Set-Cookie never becomes a field of its own",
            ok + "X-A: one\r\n Set-Cookie: evil=1\r\nContent-Length: 2\r\n\r\nok",
            expect: .success(status: 200, body: "ok", headers: ["X-A": "one Set-Cookie: evil=1"])),
        .raw(
            "bare CR inside a header value", ok + "X-A: a\rb\r\nContent-Length: 2\r\n\r\nok",
            expect: .success(status: 200, body: "ok", headers: ["X-A": "a b"])),
        .raw(
            "whitespace inside a field name", ok + "X A: b\r\nContent-Length: 2\r\n\r\nok",
            expect: .error(.protocolViolation(message: "invalid header field name 'X A'"))),
        .raw(
            "whitespace before the colon", ok + "X-B : c\r\nContent-Length: 2\r\n\r\nok",
            expect: .error(.protocolViolation(message: "invalid header field name 'X-B '"))),
        .raw(
            "header line without a colon", ok + "nocolon\r\nContent-Length: 2\r\n\r\nok",
            expect: .errorCase("protocolViolation", containing: "colon"))
    ]
}
