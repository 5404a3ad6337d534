import Foundation

extension TestHTTPResponse {
    /// The `Last-Modified` date of built-in ranged responses.
    public static let fixedLastModified = "Wed, 01 Jan 2025 00:00:00 GMT"

    /// `body` served the way a file server does for resumable downloads: `Accept-Ranges: bytes`,
    /// the validators given, and for a `Range: bytes=A-` or `bytes=A-B` request a
    /// `206 Partial Content` with `Content-Range` — unless an `If-Range` header matches neither
    /// `etag` (compared exactly, so a weak tag never matches) nor `lastModified`, in which case the
    /// whole body comes back with 200, as RFC 9110 §13.1.5 requires. A range starting at or past
    /// the end gets `416` with `Content-Range: bytes */size`. Other range forms are ignored (200).
    public static func ranged(
        _ body: Data, for request: TestHTTPRequest, etag: String? = nil,
        lastModified: String? = fixedLastModified,
        contentType: String = "application/octet-stream"
    ) -> TestHTTPResponse {
        var headers: TestHTTPHeaders = ["Content-Type": contentType, "Accept-Ranges": "bytes"]
        if let etag { headers.add("ETag", etag) }
        if let lastModified { headers.add("Last-Modified", lastModified) }
        guard let range = request.header("Range").flatMap({ byteRange($0, size: body.count) }) else {
            return TestHTTPResponse(status: 200, headers: headers, body: body)
        }
        if let condition = request.header("If-Range"), condition != etag, condition != lastModified {
            return TestHTTPResponse(status: 200, headers: headers, body: body)
        }
        guard range.lowerBound < body.count else {
            headers.add("Content-Range", "bytes */\(body.count)")
            return TestHTTPResponse(status: 416, headers: headers)
        }
        headers.add("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(body.count)")
        return TestHTTPResponse(status: 206, headers: headers, body: body.subdata(in: range))
    }

    /// `bytes=A-` or `bytes=A-B` as a half-open range clipped to `size`; nil for anything else.
    static func byteRange(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst("bytes=".count).split(
            separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0].trimmingSpaces()), start >= 0 else { return nil }
        let end = parts[1].isEmpty ? size : (Int(parts[1].trimmingSpaces()).map { min(size, $0 + 1) } ?? -1)
        guard end >= 0, start <= end || start >= size else { return nil }
        return start..<max(start, end)
    }
}

extension BuiltinRoutes {
    /// `/resumable?size=N&seed=S&cut=K1,K2&etag=E&weak=1&validators=0&ignoreRange=1`: the
    /// ``TestHTTPServer/deterministicBytes(count:seed:)`` body served by
    /// ``TestHTTPResponse/ranged(_:for:etag:lastModified:contentType:)`` (ETag `"E"`, default
    /// `"s<seed>-<size>"`, `W/` with `weak=1`; `validators=0` sends neither ETag nor
    /// Last-Modified; `ignoreRange=1` answers every request with the whole body). A response that
    /// spans an absolute offset listed in `cut` is cut there: the connection closes after the
    /// bytes before it, so each resumption gets one cut further.
    static func resumable(_ request: TestHTTPRequest) -> TestHTTPResponse {
        guard let count = size(request.intQuery("size"), default: 1 << 20) else { return badRequest("bad size") }
        let seed = request.query["seed"].flatMap { UInt64($0) } ?? 0
        let body = TestHTTPServer.deterministicBytes(count: count, seed: seed)
        let withValidators = request.query["validators"] != "0"
        let tag = "\"\(request.query["etag"] ?? "s\(seed)-\(count)")\""
        let etag = withValidators ? (request.query["weak"] == "1" ? "W/" + tag : tag) : nil
        var ranged = request
        if request.query["ignoreRange"] == "1" {
            ranged = TestHTTPRequest(method: request.method, rawTarget: request.rawTarget, headers: [:])
        }
        var response = TestHTTPResponse.ranged(
            body, for: ranged, etag: etag,
            lastModified: withValidators ? TestHTTPResponse.fixedLastModified : nil)
        let start = response.status == 206 ? count - response.body.count : 0
        let cuts = (request.query["cut"] ?? "").split(separator: ",").compactMap { Int($0) }
        if let cut = cuts.sorted().first(where: { $0 > start && $0 < start + response.body.count }) {
            response = response.with(.truncate(sendBytes: cut - start, declaredLength: response.body.count))
        }
        return response
    }
}
