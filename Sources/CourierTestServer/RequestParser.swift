import Foundation

/// The request line and headers of a parsed request.
struct RequestHead: Sendable {
    var method: String
    var target: String
    var version: String
    var headers: TestHTTPHeaders

    /// Whether the client allows the connection to stay open after this request
    /// (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    var wantsKeepAlive: Bool {
        if headers.hasToken("Connection", "close") { return false }
        return version == "HTTP/1.1" || headers.hasToken("Connection", "keep-alive")
    }
}

/// The result of reading one request from a connection.
enum ParseResult {
    /// A complete request.
    case request(RequestHead, body: Data)
    /// The client closed the connection between requests (or mid-request).
    case endOfStream
    /// The input is not acceptable HTTP/1.x; answer with `status` and close.
    case failure(status: Int, reason: String)
}

/// A strict, defensive HTTP/1.x request parser (RFC 9112) with size limits.
/// Never traps on malformed input: everything unexpected becomes a ``ParseResult/failure(status:reason:)``.
enum RequestParser {
    /// Longest accepted request line.
    static let maxRequestLine = 65_536
    /// Longest accepted header line.
    static let maxHeaderLine = 65_536
    /// Largest accepted header section (all lines together).
    static let maxHeaderBytes = 262_144
    /// Most header fields accepted.
    static let maxHeaderCount = 256
    /// Largest accepted body.
    static let maxBody = 1 << 30

    /// Receives the body of a request instead of the parser keeping it (see ``parse(from:sendContinue:bodySink:)``).
    typealias BodySink = (UnsafeRawBufferPointer) -> Void

    /// Reads one request from `reader`. `sendContinue` is called (once) before reading
    /// the body of a request carrying `Expect: 100-continue`. When `bodySink` returns a sink for
    /// the request's head, the body is passed to it piece by piece and the request's `body` stays empty.
    static func parse(
        from reader: ByteReader, sendContinue: () -> Void,
        bodySink: (RequestHead) -> BodySink? = { _ in nil }
    ) -> ParseResult {
        // Request line, ignoring a few stray empty lines between requests (RFC 9112 §2.2).
        var requestLine: [UInt8] = []
        var emptyLines = 0
        while requestLine.isEmpty {
            switch reader.readLine(maxLength: maxRequestLine) {
            case .line(let line):
                if line.isEmpty {
                    emptyLines += 1
                    if emptyLines > 8 { return .failure(status: 400, reason: "too many empty lines") }
                }
                requestLine = line
            case .tooLong:
                return .failure(status: 414, reason: "request line too long")
            case .end:
                return .endOfStream
            }
        }
        let head: RequestHead
        switch parseRequestLine(requestLine) {
        case .success(let parsed): head = parsed
        case .failure(let failure): return .failure(status: failure.status, reason: failure.reason)
        }
        var request = head
        switch readHeaders(from: reader) {
        case .success(let headers): request.headers = headers
        case .failure(let failure): return .failure(status: failure.status, reason: failure.reason)
        }
        return readBody(for: request, from: reader, sendContinue: sendContinue, sink: bodySink(request))
    }

    /// A parse failure carrying the status to answer with.
    struct Failure: Error {
        var status: Int
        var reason: String
    }

    /// Parses `METHOD SP target SP HTTP/x.y`.
    static func parseRequestLine(_ line: [UInt8]) -> Result<RequestHead, Failure> {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(Failure(status: 400, reason: "malformed request line")) }
        let method = parts[0]
        let target = parts[1]
        let version = parts[2]
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else {
            return .failure(Failure(status: 400, reason: "malformed method"))
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            target.first == UInt8(ascii: "/") || target.first == UInt8(ascii: "*")
                || target.starts(with: Array("http://".utf8)) || target.starts(with: Array("https://".utf8))
        else {
            return .failure(Failure(status: 400, reason: "malformed request target"))
        }
        let versionText = latin1(version)
        guard versionText == "HTTP/1.1" || versionText == "HTTP/1.0" else {
            let looksLikeHTTP = versionText.hasPrefix("HTTP/") && versionText.count == 8
            return .failure(Failure(status: looksLikeHTTP ? 505 : 400, reason: "unsupported version"))
        }
        return .success(
            RequestHead(method: latin1(method), target: latin1(target), version: versionText, headers: [:]))
    }

    /// Reads header lines up to the empty line.
    static func readHeaders(from reader: ByteReader) -> Result<TestHTTPHeaders, Failure> {
        var headers = TestHTTPHeaders()
        var totalBytes = 0
        while true {
            switch reader.readLine(maxLength: maxHeaderLine) {
            case .tooLong:
                return .failure(Failure(status: 431, reason: "header line too long"))
            case .end:
                return .failure(Failure(status: 400, reason: "connection closed inside the headers"))
            case .line(let line):
                if line.isEmpty { return .success(headers) }
                totalBytes += line.count + 2
                guard totalBytes <= maxHeaderBytes, headers.count < maxHeaderCount else {
                    return .failure(Failure(status: 431, reason: "header section too large"))
                }
                guard let field = parseHeaderLine(line) else {
                    return .failure(Failure(status: 400, reason: "malformed header line"))
                }
                headers.add(field.name, field.value)
            }
        }
    }

    /// Parses `name: value`; `nil` for obsolete line folding, a bad name, or control bytes.
    static func parseHeaderLine(_ line: [UInt8]) -> TestHTTPHeaders.Field? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        let rawValue = line[(colon + 1)...]
        guard rawValue.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        return TestHTTPHeaders.Field(name: latin1(name), value: latin1(rawValue).trimmingSpaces())
    }

    /// Reads the body framed by `Transfer-Encoding: chunked` or `Content-Length` (none otherwise).
    static func readBody(
        for head: RequestHead, from reader: ByteReader, sendContinue: () -> Void,
        sink: BodySink? = nil
    ) -> ParseResult {
        let transferEncodings = head.headers.values("Transfer-Encoding")
        let lengths = head.headers.values("Content-Length")
        let expectsContinue = head.version == "HTTP/1.1" && head.headers.hasToken("Expect", "100-continue")
        if !transferEncodings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(status: 400, reason: "both Transfer-Encoding and Content-Length")
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingSpaces().lowercased()
            }
            guard codings == ["chunked"] else {
                return .failure(status: 501, reason: "unsupported transfer coding")
            }
            if expectsContinue { sendContinue() }
            switch readChunkedBody(from: reader, sink: sink) {
            case .success(let body): return .request(head, body: body)
            case .failure(let failure): return .failure(status: failure.status, reason: failure.reason)
            }
        }
        guard !lengths.isEmpty else { return .request(head, body: Data()) }
        // Repeated identical values ("5, 5" or two equal headers) are tolerated; anything else is an error.
        let values = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpaces() }
        guard let first = values.first, values.allSatisfy({ $0 == first }), let length = parseDecimal(first) else {
            return .failure(status: 400, reason: "invalid Content-Length")
        }
        guard sink != nil || length <= maxBody else { return .failure(status: 413, reason: "body too large") }
        if length == 0 { return .request(head, body: Data()) }
        if expectsContinue { sendContinue() }
        if let sink {
            return reader.readExactly(length, to: sink) ? .request(head, body: Data()) : .endOfStream
        }
        var body: [UInt8] = []
        body.reserveCapacity(min(length, 16 << 20))
        guard reader.readExactly(length, into: &body) else { return .endOfStream }
        return .request(head, body: Data(body))
    }

    /// Reads a chunked body and its trailer section (trailers are discarded).
    static func readChunkedBody(from reader: ByteReader, sink: BodySink? = nil) -> Result<Data, Failure> {
        var body: [UInt8] = []
        while true {
            guard case .line(let sizeLine) = reader.readLine(maxLength: 4096) else {
                return .failure(Failure(status: 400, reason: "bad chunk size line"))
            }
            let sizeField =
                sizeLine.split(separator: UInt8(ascii: ";"), maxSplits: 1, omittingEmptySubsequences: false)
                .first ?? []
            guard let size = parseHex(latin1(sizeField).trimmingSpaces()) else {
                return .failure(Failure(status: 400, reason: "bad chunk size"))
            }
            if size == 0 { break }
            if let sink {
                guard reader.readExactly(size, to: sink) else {
                    return .failure(Failure(status: 400, reason: "connection closed inside a chunk"))
                }
            } else {
                guard body.count + size <= maxBody else {
                    return .failure(Failure(status: 413, reason: "body too large"))
                }
                guard reader.readExactly(size, into: &body) else {
                    return .failure(Failure(status: 400, reason: "connection closed inside a chunk"))
                }
            }
            guard reader.expectLineEnd() else {
                return .failure(Failure(status: 400, reason: "chunk not followed by CRLF"))
            }
        }
        // Trailer section, ended by an empty line.
        var trailerBytes = 0
        while true {
            guard case .line(let line) = reader.readLine(maxLength: maxHeaderLine) else {
                return .failure(Failure(status: 400, reason: "bad trailer section"))
            }
            if line.isEmpty { return .success(Data(body)) }
            trailerBytes += line.count
            guard trailerBytes <= maxHeaderBytes, parseHeaderLine(line) != nil else {
                return .failure(Failure(status: 400, reason: "bad trailer field"))
            }
        }
    }

    /// Parses a non-empty run of ASCII digits without overflow; `nil` otherwise.
    static func parseDecimal(_ text: String) -> Int? {
        let digits = text.trimmingSpaces()
        guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(digits)
    }

    /// Parses a non-empty run of hex digits (at most 15, so it cannot overflow); `nil` otherwise.
    static func parseHex(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ TestHTTPRequest.hexValue($0) != nil })
        else { return nil }
        return Int(text, radix: 16)
    }

    /// Whether `byte` is an RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Decodes bytes as ISO-8859-1 (every byte is one scalar), so no input can fail.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }
}
