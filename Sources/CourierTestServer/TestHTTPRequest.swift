import Foundation

/// A request received by ``TestHTTPServer``, exactly as parsed off the wire.
public struct TestHTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"` (methods are case-sensitive).
    public let method: String
    /// The path component of the request target, without the query, not percent-decoded.
    public let path: String
    /// The query parameters, percent-decoded. When a name repeats, the last value wins;
    /// see ``queryItems`` for all of them. `+` is kept literally (not turned into a space).
    public let query: [String: String]
    /// All query parameters in order, percent-decoded, duplicates kept.
    public let queryItems: [TestHTTPHeaders.Field]
    /// The request target exactly as it appeared in the request line, e.g. `"/echo?x=1"`.
    public let rawTarget: String
    /// The HTTP version from the request line, e.g. `"HTTP/1.1"`.
    public let version: String
    /// The request headers, in order (trailers of a chunked body are not included).
    public let headers: TestHTTPHeaders
    /// The request body, de-chunked if it was sent with `Transfer-Encoding: chunked`.
    public let body: Data
    /// The server-assigned number of the TCP connection the request arrived on (1, 2, …).
    public let connectionID: Int
    /// The 1-based position of this request on its connection.
    public let indexOnConnection: Int
    /// For `POST /upload/digest`, whose body the server hashes as it arrives instead of keeping
    /// it (``body`` is then empty): the body's size and SHA-256. Nil for other requests.
    public internal(set) var streamedBodySummary: TestHTTPUploadSummary?

    /// Creates a request; normally only the server does this, but handlers can be unit tested with it.
    public init(
        method: String, rawTarget: String, version: String = "HTTP/1.1", headers: TestHTTPHeaders = [:],
        body: Data = Data(), connectionID: Int = 0, indexOnConnection: Int = 1
    ) {
        self.method = method
        self.rawTarget = rawTarget
        self.version = version
        self.headers = headers
        self.body = body
        self.connectionID = connectionID
        self.indexOnConnection = indexOnConnection
        let (path, queryString) = Self.splitTarget(rawTarget)
        self.path = path
        let items = Self.parseQuery(queryString)
        self.queryItems = items
        var query: [String: String] = [:]
        for item in items { query[item.name] = item.value }
        self.query = query
    }

    /// The value of the header `name` (case-insensitive), repeated values joined with `", "`.
    public func header(_ name: String) -> String? {
        headers.header(name)
    }

    /// The body decoded as UTF-8, or `nil` when it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The body decoded from JSON as `type`.
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body)
    }

    /// The query value for `name` converted to an `Int`, or `nil`.
    public func intQuery(_ name: String) -> Int? {
        query[name].flatMap { Int($0) }
    }

    /// Splits a request target into path and query string, dropping any fragment
    /// and the scheme and authority of an absolute-form target.
    static func splitTarget(_ target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let lower = rest.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let afterScheme = rest[rest.index(rest.startIndex, offsetBy: lower.hasPrefix("http://") ? 7 : 8)...]
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = afterScheme[slash...]
            } else {
                rest = "/"
            }
            if rest.first == "?" { rest = "/" + rest }
        }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }

    /// Parses `a=1&b=x%20y` into ordered, percent-decoded items.
    static func parseQuery(_ query: String?) -> [TestHTTPHeaders.Field] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return TestHTTPHeaders.Field(
                    name: percentDecode(pair[..<equals]),
                    value: percentDecode(pair[pair.index(after: equals)...]))
            }
            return TestHTTPHeaders.Field(name: percentDecode(pair), value: "")
        }
    }

    /// Percent-decodes `text`; malformed escapes are kept literally, invalid UTF-8 is repaired.
    static func percentDecode<S: StringProtocol>(_ text: S) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of an ASCII hex digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
