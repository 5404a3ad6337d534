import Foundation

/// The built-in routes of ``TestHTTPServer``; every fault is expressed through
/// ``TestHTTPResponse/Behaviour``, exactly as a custom route would do it.
enum BuiltinRoutes {
    /// The route whose request bodies are hashed while they arrive, never kept in memory.
    static let digestPath = "/upload/digest"

    /// The largest body a route will generate on request.
    static let maxGeneratedBytes = 512 << 20

    /// The built-in response for `request` (404 for unknown paths).
    static func respond(to request: TestHTTPRequest) -> TestHTTPResponse {
        let path = request.path
        if path.hasPrefix("/status/") {
            return status(String(path.dropFirst("/status/".count)))
        }
        switch path {
        case "/hello":
            return .text("Hello, Courier")
        case "/echo":
            return .json(TestHTTPEcho(request))
        case "/delay":
            return .text("done").with(.delay(ms: max(0, request.intQuery("ms") ?? 100)))
        case "/never":
            return TestHTTPResponse().with(.neverAnswer)
        case "/close-before-headers":
            return TestHTTPResponse().with(.closeBeforeHeaders)
        case "/truncated":
            return truncated(request)
        case "/chunked":
            return chunked(request)
        case "/gzip", "/deflate":
            return compressed(request, gzip: path == "/gzip")
        case "/deflate-bomb":
            return deflateBomb(request)
        case "/bytes":
            return bytes(request)
        case "/redirect":
            return redirect(request)
        case "/redirect-chain":
            let remaining = request.intQuery("n") ?? 0
            guard remaining > 0 else { return .json(TestHTTPEcho(request)) }
            return TestHTTPResponse(status: 302, headers: ["Location": "/redirect-chain?n=\(remaining - 1)"])
        case "/trickle":
            return trickle(request)
        case "/headers-then-stall":
            return .text(String(decoding: TestHTTPServer.alphabetBytes(count: 1000), as: UTF8.self))
                .with(.headersThenStall(sendBytes: 10))
        case "/set-cookie":
            var response = TestHTTPResponse.text("cookies set")
            for item in request.queryItems {
                response.headers.add("Set-Cookie", "\(item.name)=\(item.value); Path=/")
            }
            return response
        case "/cookies":
            return .json(CookieEcho(header: request.header("Cookie")))
        case "/large-header":
            return largeHeader(request)
        case "/upload":
            return .json(TestHTTPUploadSummary(body: request.body))
        case "/resumable":
            return resumable(request)
        case "/sse":
            return serverSentEvents(request)
        case digestPath:
            return .json(request.streamedBodySummary ?? TestHTTPUploadSummary(body: request.body))
        default:
            return notFound
        }
    }

    /// `404 {"error":"not found"}`.
    static let notFound = TestHTTPResponse.jsonString("{\"error\":\"not found\"}", status: 404)

    /// A 400 JSON error for bad query parameters.
    static func badRequest(_ message: String) -> TestHTTPResponse {
        .json(["error": message], status: 400)
    }

    /// Validates a requested generated size.
    static func size(_ value: Int?, default defaultValue: Int) -> Int? {
        let size = value ?? defaultValue
        return (0...maxGeneratedBytes).contains(size) ? size : nil
    }

    /// `/status/{code}`.
    static func status(_ text: String) -> TestHTTPResponse {
        guard let code = Int(text), (200...599).contains(code) else { return badRequest("status must be 200...599") }
        guard TestHTTPResponse.statusAllowsBody(code) else { return TestHTTPResponse(status: code) }
        return .jsonString("{\"status\":\(code)}", status: code)
    }

    /// `/truncated?send=N&declared=M`.
    static func truncated(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let send = size(request.intQuery("send"), default: 10),
            let declared = size(request.intQuery("declared"), default: 100)
        else { return badRequest("bad send or declared") }
        return .data(TestHTTPServer.alphabetBytes(count: send), contentType: "text/plain")
            .with(.truncate(sendBytes: send, declaredLength: declared))
    }

    /// `/chunked?chunks=N&size=M`.
    static func chunked(_ request: TestHTTPRequest) -> TestHTTPResponse {
        let chunks = request.intQuery("chunks") ?? 5
        let chunkSize = request.intQuery("size") ?? 10
        guard chunks >= 0, chunkSize > 0, chunks <= maxGeneratedBytes / chunkSize else {
            return badRequest("bad chunks or size")
        }
        return .data(TestHTTPServer.alphabetBytes(count: chunks * chunkSize), contentType: "text/plain")
            .with(.chunked(chunkSize: chunkSize))
    }

    /// `/gzip` and `/deflate`, optionally `?size=N`.
    static func compressed(_ request: TestHTTPRequest, gzip: Bool) -> TestHTTPResponse {
        let plain: Data
        let contentType: String
        if request.query["size"] != nil {
            guard let count = size(request.intQuery("size"), default: 0) else { return badRequest("bad size") }
            plain = TestHTTPServer.compressiblePayload(size: count)
            contentType = "text/plain"
        } else {
            plain = Data(TestHTTPServer.gzipPlainText.utf8)
            contentType = "application/json"
        }
        let encoded = gzip ? StoredCompression.gzip(plain) : StoredCompression.zlib(plain)
        return .data(encoded, contentType: contentType).adding("Content-Encoding", gzip ? "gzip" : "deflate")
    }

    /// `/deflate-bomb?size=N`: N zero bytes, really compressed (about N / 159 bytes on the wire).
    static func deflateBomb(_ request: TestHTTPRequest) -> TestHTTPResponse {
        let count = request.intQuery("size") ?? (1 << 20)
        guard (0...(4 << 30)).contains(count) else { return badRequest("size must be 0...4 GiB") }
        return .data(CompressionBomb.zlibZeros(count: count), contentType: "application/octet-stream")
            .adding("Content-Encoding", "deflate")
    }

    /// `/bytes?size=N&seed=S`.
    static func bytes(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let count = size(request.intQuery("size"), default: 1024) else { return badRequest("bad size") }
        let seed = request.query["seed"].flatMap { UInt64($0) } ?? 0
        return .data(TestHTTPServer.deterministicBytes(count: count, seed: seed))
    }

    /// `/redirect?to=URL&status=302`.
    static func redirect(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let target = request.query["to"], !target.isEmpty else { return badRequest("missing to") }
        let code = request.intQuery("status") ?? 302
        guard (300...399).contains(code) else { return badRequest("status must be 3xx") }
        return TestHTTPResponse(status: code, headers: ["Location": target])
    }

    /// `/trickle?size=N&chunk=C&interval=ms`.
    static func trickle(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let count = size(request.intQuery("size"), default: 100) else { return badRequest("bad size") }
        let chunk = max(1, request.intQuery("chunk") ?? 10)
        let interval = max(0, request.intQuery("interval") ?? 100)
        return .data(TestHTTPServer.alphabetBytes(count: count), contentType: "text/plain")
            .with(.trickle(bytesPerChunk: chunk, intervalMs: interval))
    }

    /// `/sse?count=N&per=P&interval=ms&retry=ms`: events `id: i` / `data: event i` for i in
    /// 1...N, resuming after the request's `Last-Event-ID`, at most P per connection, `interval`
    /// ms apart; 204 once every event was sent. `retry` adds a `retry:` field first.
    static func serverSentEvents(_ request: TestHTTPRequest) -> TestHTTPResponse {
        let count = max(0, request.intQuery("count") ?? 5)
        let perConnection = max(1, request.intQuery("per") ?? max(1, count))
        let after = request.header("Last-Event-ID").flatMap { Int($0) } ?? 0
        guard after < count else { return TestHTTPResponse(status: 204) }
        var text = request.intQuery("retry").map { "retry: \($0)\n\n" } ?? ""
        var parts: [Int] = text.isEmpty ? [] : [text.utf8.count]
        for id in (after + 1)...min(count, after + perConnection) {
            let event = "id: \(id)\ndata: event \(id)\n\n"
            parts.append(event.utf8.count)
            text += event
        }
        return TestHTTPResponse(
            status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
            body: Data(text.utf8)
        )
        .with(.paced(parts: parts, intervalMs: max(0, request.intQuery("interval") ?? 0)))
    }

    /// `/large-header?size=N`.
    static func largeHeader(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let count = size(request.intQuery("size"), default: 1024) else { return badRequest("bad size") }
        let value = String(decoding: TestHTTPServer.alphabetBytes(count: count), as: UTF8.self)
        return TestHTTPResponse.text("large header sent").adding("X-Large", value)
    }
}

/// The JSON body of `/cookies`: the raw `Cookie` header (or `null`) and its parsed pairs.
struct CookieEcho: Encodable {
    var header: String?
    var cookies: [String: String]

    init(header: String?) {
        self.header = header
        var cookies: [String: String] = [:]
        for pair in (header ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first?.trimmingSpaces(), !name.isEmpty else { continue }
            cookies[name] = parts.count > 1 ? parts[1].trimmingSpaces() : ""
        }
        self.cookies = cookies
    }

    private enum CodingKeys: String, CodingKey { case cookie, cookies }

    /// Writes `"cookie": null` when there was no header, rather than omitting the key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(header, forKey: .cookie)
        try container.encode(cookies, forKey: .cookies)
    }
}
