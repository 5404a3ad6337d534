import Foundation

/// The JSON body of `/echo` (and of `/redirect-chain` at `n=0`); decode responses with it.
public struct TestHTTPEcho: Codable, Sendable, Equatable {
    /// The request method.
    public var method: String
    /// The request path, without the query.
    public var path: String
    /// The percent-decoded query parameters (last value wins for repeated names).
    public var query: [String: String]
    /// The request headers keyed by lowercased name; repeated headers joined with `", "`.
    public var headers: [String: String]
    /// The request body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var body: String?
    /// The request body, base64-encoded.
    public var bodyBase64: String
    /// The server's number for the TCP connection the request arrived on.
    public var connectionID: Int

    /// Creates the echo of `request`.
    public init(_ request: TestHTTPRequest) {
        method = request.method
        path = request.path
        query = request.query
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.lowercased()
            if let existing = headers[name] {
                headers[name] = existing + ", " + field.value
            } else {
                headers[name] = field.value
            }
        }
        self.headers = headers
        body = request.bodyText
        bodyBase64 = request.body.base64EncodedString()
        connectionID = request.connectionID
    }

    /// The keys of the JSON object.
    private enum CodingKeys: String, CodingKey {
        case method, path, query, headers, body, bodyBase64, connectionID
    }

    /// Encodes all keys, writing `"body": null` rather than omitting it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(headers, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encode(bodyBase64, forKey: .bodyBase64)
        try container.encode(connectionID, forKey: .connectionID)
    }

    /// The decoded request body (from ``bodyBase64``).
    public var bodyData: Data {
        Data(base64Encoded: bodyBase64) ?? Data()
    }
}

/// The JSON body of `POST /upload`.
public struct TestHTTPUploadSummary: Codable, Sendable, Equatable {
    /// The number of body bytes received (after de-chunking).
    public var bytes: Int
    /// The lowercase hex SHA-256 of the body, as ``TestHTTPServer/checksum(_:)`` computes it.
    public var sha256: String

    /// Creates a summary of `body`.
    public init(body: Data) {
        bytes = body.count
        sha256 = TestHTTPServer.checksum(body)
    }

    /// Creates a summary from a size and a hex SHA-256 computed elsewhere.
    public init(bytes: Int, sha256: String) {
        self.bytes = bytes
        self.sha256 = sha256
    }
}

extension TestHTTPServer {
    /// The plain text inside the `/gzip` and `/deflate` bodies (without `size`):
    /// the JSON `{"gzipped":true,"text":"…"}` with a repeated sentence.
    public static let gzipPlainText: String = {
        let sentence = "Courier decodes gzip and deflate bodies. "
        return "{\"gzipped\":true,\"text\":\"" + String(repeating: sentence, count: 20) + "\"}"
    }()

    /// The decompressed body of `/gzip?size=N` and `/deflate?size=N`: `count` bytes of the
    /// repeating printable pattern `"abcdefghijklmnopqrstuvwxyz0123456789\n"`.
    public static func compressiblePayload(size count: Int) -> Data {
        patternBytes(count: count, pattern: Array("abcdefghijklmnopqrstuvwxyz0123456789\n".utf8))
    }

    /// `count` bytes of the repeating pattern `"abcdefghij"`; the content of `/chunked`,
    /// `/truncated` and `/trickle` bodies.
    public static func alphabetBytes(count: Int) -> Data {
        patternBytes(count: count, pattern: Array("abcdefghij".utf8))
    }

    /// `count` deterministic pseudo-random bytes for `seed` (xorshift64*), the body of
    /// `/bytes?size=count&seed=seed`. Fast enough for tens of MiB.
    public static func deterministicBytes(count: Int, seed: UInt64) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        // A zero state would stay zero; mix the seed so every seed (including 0) works.
        var state = (seed ^ 0x9E37_79B9_7F4A_7C15) | 1
        data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
            var offset = 0
            while offset < count {
                state ^= state >> 12
                state ^= state << 25
                state ^= state >> 27
                var word = state &* 0x2545_F491_4F6C_DD1D
                let take = min(8, count - offset)
                if take == 8 {
                    // The word's bytes, least significant first, in one store (fast in test builds).
                    raw.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                } else {
                    for index in 0..<take {
                        raw[offset + index] = UInt8(truncatingIfNeeded: word)
                        word >>= 8
                    }
                }
                offset += take
            }
        }
        return data
    }

    /// The checksum used by `/upload`: the lowercase hex SHA-256 of `data`
    /// (identical to `sha256sum` output).
    public static func checksum(_ data: Data) -> String {
        SHA256.hexDigest(data)
    }

    /// `count` bytes repeating `pattern`.
    static func patternBytes(count: Int, pattern: [UInt8]) -> Data {
        guard count > 0, !pattern.isEmpty else { return Data() }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            bytes.append(contentsOf: pattern.prefix(count - bytes.count))
        }
        return Data(bytes)
    }
}
