import Foundation

/// A response for ``TestHTTPServer`` to send, plus how to misbehave while sending it.
///
/// The server adds `Content-Length` (unless the response is chunked or has a status
/// that carries no body, or the handler set one itself) and a `Connection` header.
/// Put `Connection: close` in ``headers`` to make the server close the connection
/// after the response.
public struct TestHTTPResponse: Sendable {
    /// How the server writes a response on the wire; everything but ``normal`` is a fault.
    public enum Behaviour: Sendable, Hashable {
        /// Headers then the whole body, with a correct `Content-Length`.
        case normal
        /// Waits `ms` milliseconds (interrupted by ``TestHTTPServer/shutdown()``), then answers normally.
        case delay(ms: Int)
        /// Never answers: keeps the connection open until the client closes it or the server shuts down.
        case neverAnswer
        /// Closes the connection right after reading the request, without sending anything.
        case closeBeforeHeaders
        /// Declares `Content-Length: declaredLength`, sends the first `sendBytes` body bytes
        /// (padding with `x` if the body is shorter), then closes the connection.
        case truncate(sendBytes: Int, declaredLength: Int)
        /// Sends the body with `Transfer-Encoding: chunked`, `chunkSize` bytes per chunk, one write per chunk.
        case chunked(chunkSize: Int)
        /// Sends the body with `Transfer-Encoding: chunked`, one chunk per entry of `parts` (their
        /// sizes in bytes; any rest of the body as one more chunk), `intervalMs` milliseconds apart:
        /// a live stream such as server-sent events.
        case paced(parts: [Int], intervalMs: Int)
        /// Sends headers with a correct `Content-Length`, then the body `bytesPerChunk` bytes
        /// at a time with `intervalMs` milliseconds between writes.
        case trickle(bytesPerChunk: Int, intervalMs: Int)
        /// Sends headers with a correct `Content-Length` and the first `sendBytes` body bytes,
        /// then stalls until the client closes or the server shuts down.
        case headersThenStall(sendBytes: Int)
        /// Sends exactly these bytes instead of a response (status, headers and body are
        /// ignored), then closes the connection: for hostile heads and bodies, such as folded or
        /// oversized header lines, conflicting `Content-Length`s or broken chunked framing.
        case raw(Data)
        /// Sends exactly these bytes instead of a response, waits `ms` milliseconds, then resets
        /// the connection (TCP RST, not a clean close): a connection torn down mid-response.
        case rawThenReset(Data, afterMs: Int)
    }

    /// The status code, e.g. `200`.
    public var status: Int
    /// The response headers, in order. `Content-Length`, `Transfer-Encoding` and `Connection`
    /// are managed by the server unless set here.
    public var headers: TestHTTPHeaders
    /// The body. Ignored for `HEAD` requests and for 1xx, 204 and 304 statuses.
    public var body: Data
    /// How to send the response.
    public var behaviour: Behaviour

    /// Creates a response.
    public init(status: Int = 200, headers: TestHTTPHeaders = [:], body: Data = Data(), behaviour: Behaviour = .normal)
    {
        self.status = status
        self.headers = headers
        self.body = body
        self.behaviour = behaviour
    }

    /// Creates a response from ordered `(name, value)` header pairs.
    public init(status: Int, headers: [(String, String)], body: Data = Data(), behaviour: Behaviour = .normal) {
        self.init(status: status, headers: TestHTTPHeaders(headers), body: body, behaviour: behaviour)
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> TestHTTPResponse {
        TestHTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// An `application/json` response with `object` encoded by `JSONEncoder` (sorted keys);
    /// if encoding fails, a 500 response describing the error.
    public static func json(_ object: some Encodable, status: Int = 200) -> TestHTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return jsonData(try encoder.encode(object), status: status)
        } catch {
            return text("JSON encoding failed: \(error)", status: 500)
        }
    }

    /// An `application/json` response whose body is `json`, sent verbatim.
    public static func jsonString(_ json: String, status: Int = 200) -> TestHTTPResponse {
        jsonData(Data(json.utf8), status: status)
    }

    /// An `application/json` response whose body is `data`, sent verbatim.
    public static func jsonData(_ data: Data, status: Int = 200) -> TestHTTPResponse {
        TestHTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: data)
    }

    /// A response with the given body and `Content-Type`.
    public static func data(
        _ data: Data, contentType: String = "application/octet-stream", status: Int = 200
    ) -> TestHTTPResponse {
        TestHTTPResponse(status: status, headers: ["Content-Type": contentType], body: data)
    }

    /// A response with no body (`Content-Length: 0`, or none for 204/304).
    public static func empty(status: Int = 204) -> TestHTTPResponse {
        TestHTTPResponse(status: status)
    }

    /// A response that sends `text` (UTF-8) verbatim, then closes: ``Behaviour/raw(_:)``.
    public static func raw(_ text: String) -> TestHTTPResponse {
        TestHTTPResponse(behaviour: .raw(Data(text.utf8)))
    }

    /// This response with `behaviour` replacing the current one.
    public func with(_ behaviour: Behaviour) -> TestHTTPResponse {
        var copy = self
        copy.behaviour = behaviour
        return copy
    }

    /// This response with one more header field appended.
    public func adding(_ name: String, _ value: String) -> TestHTTPResponse {
        var copy = self
        copy.headers.add(name, value)
        return copy
    }

    /// Whether a response with `status` may carry a body (not 1xx, 204 or 304).
    public static func statusAllowsBody(_ status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// The standard reason phrase for `status`, or `"Status"` when unknown.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 418: return "I'm a teapot"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
