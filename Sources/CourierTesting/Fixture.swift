import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fixture file: a request summary and the responses recorded for its ``FixtureKey``, in order.
///
/// ```json
/// {
///   "request" : {
///     "bodyHash" : "9c2f0e1d4b7a6e55",
///     "bodyJSON" : { "email" : "ada@example.com", "pw" : "lovelace" },
///     "headers" : [ "Accept: application/json", "Authorization: <redacted>" ],
///     "method" : "POST",
///     "path" : "/auth/signin",
///     "query" : "",
///     "url" : "http://127.0.0.1:53817/auth/signin"
///   },
///   "responses" : [
///     { "bodyJSON" : { "status" : 200, ... }, "headers" : [ "Content-Type: application/json" ],
///       "httpVersion" : "HTTP/1.1", "status" : 200 }
///   ]
/// }
/// ```
/// A body is stored as `bodyJSON` when it is JSON (replayed compact, keys sorted), as `bodyText`
/// when it is other UTF-8 text, and as `bodyBase64` otherwise. Secret headers (per the
/// session's `SecurityPolicy`) are stored as `<redacted>`, in requests and responses; response
/// headers about framing (`Content-Length`, `Transfer-Encoding`, `Content-Encoding`, `Connection`)
/// are left out, since the stored body is the decoded one.
struct Fixture: Codable, Sendable {
    struct Request: Codable, Sendable {
        var method: String
        var url: String
        var path: String
        var query: String
        var bodyHash: String
        var headers: [String]
        var body: StoredBody
    }

    struct Response: Codable, Sendable {
        var status: Int
        var httpVersion: String?
        var headers: [String]
        var body: StoredBody
    }

    var request: Request
    var responses: [Response]

    init(request: URLRequest, key: FixtureKey, security: SecurityPolicy) {
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        self.request = Request(
            method: key.method, url: request.url?.absoluteString ?? "", path: key.path, query: key.query,
            bodyHash: key.bodyHash, headers: headers.map { Self.line($0.key, $0.value, security) },
            body: StoredBody(request.httpBody ?? Data(), contentType: request.value(forHTTPHeaderField: "Content-Type")))
        responses = []
    }

    /// Headers describing the connection or the wire form of the body, which the stored (decoded)
    /// body no longer matches: not stored.
    static let framingHeaders: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length",
                                              "content-encoding"]

    /// The response to store for `result`: status, headers (secrets redacted, framing dropped) and body.
    static func response(from result: TransportResult, body: Data, security: SecurityPolicy) -> Response {
        let headers = result.headers.filter { !framingHeaders.contains($0.name.lowercased()) }
            .map { line($0.name, $0.value, security) }
        return Response(status: result.statusCode ?? 0, httpVersion: result.metrics?.httpVersion.rawValue,
                        headers: headers, body: StoredBody(body, contentType: result.headers["Content-Type"]))
    }

    /// A header as stored: `Name: value`, the value redacted when the header is a secret.
    static func line(_ name: String, _ value: String, _ security: SecurityPolicy) -> String {
        "\(name): \(security.printable(header: name, value: value))"
    }

    static func decode(_ data: Data) throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: data)
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension Fixture.Request {
    private enum CodingKeys: String, CodingKey {
        case method, url, path, query, bodyHash, headers, bodyJSON, bodyText, bodyBase64
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        url = try container.decodeIfPresent(String.self, forKey: .url) ?? ""
        path = try container.decode(String.self, forKey: .path)
        query = try container.decodeIfPresent(String.self, forKey: .query) ?? ""
        bodyHash = try container.decodeIfPresent(String.self, forKey: .bodyHash) ?? ""
        headers = try container.decodeIfPresent([String].self, forKey: .headers) ?? []
        body = try StoredBody(from: container, json: .bodyJSON, text: .bodyText, base64: .bodyBase64)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(url, forKey: .url)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(bodyHash, forKey: .bodyHash)
        try container.encode(headers, forKey: .headers)
        try body.encode(to: &container, json: .bodyJSON, text: .bodyText, base64: .bodyBase64)
    }
}

extension Fixture.Response {
    private enum CodingKeys: String, CodingKey {
        case status, httpVersion, headers, bodyJSON, bodyText, bodyBase64
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion)
        headers = try container.decodeIfPresent([String].self, forKey: .headers) ?? []
        body = try StoredBody(from: container, json: .bodyJSON, text: .bodyText, base64: .bodyBase64)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(httpVersion, forKey: .httpVersion)
        try container.encode(headers, forKey: .headers)
        try body.encode(to: &container, json: .bodyJSON, text: .bodyText, base64: .bodyBase64)
    }

    /// The stored `Name: value` lines as ordered fields (lines without a colon skipped).
    var httpHeaders: HTTPHeaders {
        HTTPHeaders(headers.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            return HTTPHeader(name: String(line[..<colon]), value: String(value))
        })
    }
}

/// A body in a fixture: JSON as JSON, text as text, anything else as base64.
enum StoredBody: Sendable, Equatable {
    case empty
    case json(JSONValue)
    case text(String)
    case binary(Data)

    /// Chooses the most readable form that replays faithfully: JSON when the content type says
    /// JSON or the compact form is byte-identical, then UTF-8 text, then base64.
    init(_ data: Data, contentType: String?) {
        if data.isEmpty {
            self = .empty
        } else if let json = JSONValue(data: data),
                  contentType?.lowercased().contains("json") == true || json.data == data {
            self = .json(json)
        } else if let text = String(data: data, encoding: .utf8) {
            self = .text(text)
        } else {
            self = .binary(data)
        }
    }

    /// The bytes to replay.
    var data: Data {
        switch self {
        case .empty: return Data()
        case .json(let json): return json.data
        case .text(let text): return Data(text.utf8)
        case .binary(let data): return data
        }
    }

    init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, json: Key, text: Key, base64: Key) throws {
        if container.contains(json) {
            self = .json(try container.decode(JSONValue.self, forKey: json))
        } else if let value = try container.decodeIfPresent(String.self, forKey: text) {
            self = .text(value)
        } else if let value = try container.decodeIfPresent(String.self, forKey: base64) {
            guard let data = Data(base64Encoded: value) else {
                throw DecodingError.dataCorruptedError(forKey: base64, in: container, debugDescription: "not base64")
            }
            self = .binary(data)
        } else {
            self = .empty
        }
    }

    func encode<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, json: Key, text: Key,
                                base64: Key) throws {
        switch self {
        case .empty: break
        case .json(let value): try container.encode(value, forKey: json)
        case .text(let value): try container.encode(value, forKey: text)
        case .binary(let value): try container.encode(value.base64EncodedString(), forKey: base64)
        }
    }
}
