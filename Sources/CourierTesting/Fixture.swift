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
///     "bodyJSON" : { "email" : "ada@example.com", "pw" : "<redacted>" },
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
/// session's `SecurityPolicy`) are stored as `<redacted>`, in requests and responses, and so are
/// the values of its secret keys in the request's URL and body (the summary is for reading; the
/// key's body hash is of the body as sent); response bodies are stored as received; response
/// headers about framing (`Content-Length`, `Transfer-Encoding`, `Content-Encoding`, `Connection`)
/// are left out, since the stored body is the decoded one.
struct Fixture: Codable, Sendable {
    struct Request: Codable, Sendable, StoresBody {
        var method: String
        var url: String
        var path: String
        var query: String
        var bodyHash: String
        var headers: [String]
        var bodyJSON: JSONValue?
        var bodyText: String?
        var bodyBase64: String?
    }

    struct Response: Codable, Sendable, StoresBody {
        var status: Int
        var httpVersion: String?
        var headers: [String]
        var bodyJSON: JSONValue?
        var bodyText: String?
        var bodyBase64: String?

        /// The stored `Name: value` lines as ordered fields (lines without a colon skipped).
        var httpHeaders: HTTPHeaders {
            HTTPHeaders(
                headers.compactMap { line in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    let value = line[line.index(after: colon)...].drop { $0 == " " }
                    return HTTPHeader(name: String(line[..<colon]), value: String(value))
                })
        }
    }

    var request: Request
    var responses: [Response]

    /// The summary of `request`: its URL, query and body with the values of secret keys redacted
    /// (the key's body hash is of the body as sent), secret headers redacted. `authorization` is
    /// its router's: the query parameter of ``AuthorizationType/query(name:)`` is redacted too.
    init(request: HTTPRequest, key: FixtureKey, security: SecurityPolicy, authorization: AuthorizationType) {
        let headers = request.headers.sorted { $0.name.lowercased() < $1.name.lowercased() }
        let redactor = Redactor(security: security, authorization: authorization)
        var summary = Request(
            method: key.method, url: redactor.url(request.url), path: key.path,
            query: redactor.form(key.query), bodyHash: key.bodyHash,
            headers: headers.map { Self.line($0.name, $0.value, security) })
        let contentType = request.headers["Content-Type"]
        var body = request.bodyData ?? Data()
        if let text = String(data: body, encoding: .utf8) {
            body = Data(redactor.body(text, contentType: contentType).utf8)
        }
        summary.store(body, contentType: contentType)
        self.request = summary
        responses = []
    }

    /// Headers describing the connection or the wire form of the body, which the stored (decoded)
    /// body no longer matches: not stored.
    static let framingHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length",
        "content-encoding"
    ]

    /// The response to store for `result`: status, headers (secrets redacted, framing dropped) and body.
    static func response(from result: TransportResult, body: Data, security: SecurityPolicy) -> Response {
        let headers = result.headers.filter { !framingHeaders.contains($0.name.lowercased()) }
            .map { line($0.name, $0.value, security) }
        var response = Response(
            status: result.statusCode ?? 0, httpVersion: result.metrics?.httpVersion?.rawValue,
            headers: headers)
        response.store(body, contentType: result.headers["Content-Type"])
        return response
    }

    /// A header as stored: `Name: value`, the value redacted when the header is a secret.
    static func line(_ name: String, _ value: String, _ security: SecurityPolicy) -> String {
        "\(name): \(security.printable(header: name, value: value))"
    }

    /// Reads a fixture file's contents; a `bodyBase64` that is not base64 is an error.
    static func decode(_ data: Data) throws -> Fixture {
        let fixture = try JSONDecoder().decode(Fixture.self, from: data)
        let encoded = [fixture.request.bodyBase64] + fixture.responses.map(\.bodyBase64)
        if encoded.contains(where: { $0.map { Data(base64Encoded: $0) == nil } ?? false }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a bodyBase64 is not base64"))
        }
        return fixture
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// A fixture part with a body, stored in the most readable form that replays faithfully: JSON
/// as `bodyJSON` when the content type says JSON or the compact form is byte-identical, other
/// UTF-8 text as `bodyText`, anything else as `bodyBase64`; no key for an empty body.
protocol StoresBody {
    var bodyJSON: JSONValue? { get set }
    var bodyText: String? { get set }
    var bodyBase64: String? { get set }
}

extension StoresBody {
    mutating func store(_ data: Data, contentType: String?) {
        (bodyJSON, bodyText, bodyBase64) = (nil, nil, nil)
        guard !data.isEmpty else { return }
        if let json = JSONValue(data: data), json != .null,
            contentType?.lowercased().contains("json") == true || json.data == data
        {
            bodyJSON = json
        } else if let text = String(data: data, encoding: .utf8) {
            bodyText = text
        } else {
            bodyBase64 = data.base64EncodedString()
        }
    }

    /// The bytes to replay (``Fixture/decode(_:)`` rejects a `bodyBase64` that is not base64).
    var storedBody: Data {
        if let bodyJSON { return bodyJSON.data }
        if let bodyText { return Data(bodyText.utf8) }
        return bodyBase64.flatMap { Data(base64Encoded: $0) } ?? Data()
    }
}
