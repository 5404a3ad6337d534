import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as Courier sends it: built and validated once, where it enters a ``Session``.
///
/// A ``Router`` case becomes one directly; a `URLRequest` (from a ``URLRequestConvertible``, an
/// interceptor's adapter or a plugin's `prepare`) through ``init(_:)``, which throws a
/// ``CourierError`` naming what is wrong. Past that point nothing checks it again: a
/// ``Transport`` receives a request that is known to be sendable.
///
/// - The headers keep the order they were written in, and that is the order on the wire.
/// - ``timeout`` is nil when the request sets none (the session's applies); there is no sentinel.
/// - The body is bytes in memory, files and forms read while sending, or a one-shot stream of
///   chunks (see ``UploadBody``); ``collectedBody()`` gives its bytes.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, a valid HTTP token.
    public internal(set) var method: HTTPMethod {
        get { parts.method }
        set { uniqueParts().method = newValue }
    }
    /// The absolute `http` or `https` URL, with a host.
    public internal(set) var url: URL {
        get { parts.url }
        set { uniqueParts().url = newValue }
    }
    /// The headers, in the order they are sent; names and values are valid.
    public internal(set) var headers: HTTPHeaders {
        get { parts.headers }
        set { uniqueParts().headers = newValue }
    }
    /// Whether the headers are a router's defaults, unchanged (``HTTPHeaders/isRouterDefault``),
    /// read in place: a copy of the headers counted a reference on storage that every router
    /// request shares.
    var hasRouterDefaultHeaders: Bool { parts.headers.isRouterDefault }

    /// Seconds allowed for the whole request; nil keeps the session's limit.
    public internal(set) var timeout: TimeInterval? {
        get { parts.timeout }
        set { uniqueParts().timeout = newValue }
    }
    /// What is sent after the headers.
    package internal(set) var body: Body {
        get { parts.body }
        set { uniqueParts().body = newValue }
    }

    /// The fields, in one object shared by the copies of a request and copied when one of them
    /// changes. A request is copied several times on its way through a session (into the
    /// transfer, its result, the response); Foundation's `URL` and `Data` have no layout known at
    /// compile time, so copying the fields one by one went through the runtime for each of them
    /// (about 4,400 instructions per W1 request in all), where copying this is one retain.
    private var parts: Parts

    /// Changed only through ``uniqueParts()``, that is never while another request shares it:
    /// a value in all but storage, hence `Sendable`.
    private final class Parts: @unchecked Sendable {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
        var timeout: TimeInterval?
        var body: Body

        init(method: HTTPMethod, url: URL, headers: HTTPHeaders, timeout: TimeInterval?, body: Body) {
            self.method = method
            self.url = url
            self.headers = headers
            self.timeout = timeout
            self.body = body
        }
    }

    /// ``parts``, first copied if another request shares it.
    private mutating func uniqueParts() -> Parts {
        if !isKnownUniquelyReferenced(&parts) {
            parts = Parts(
                method: parts.method, url: parts.url, headers: parts.headers, timeout: parts.timeout, body: parts.body)
        }
        return parts
    }

    /// Equal when every field is.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        if lhs.parts === rhs.parts { return true }
        return lhs.method == rhs.method && lhs.url == rhs.url && lhs.headers == rhs.headers
            && lhs.timeout == rhs.timeout && lhs.body == rhs.body
    }

    /// A request body.
    package enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// Bytes in memory.
        case data(Data)
        /// Files and bytes read in order while sending (a file upload, a multipart form); can be
        /// sent again (redirects, retries).
        case segments(UploadSegments)
        /// Chunks produced while sending; can be sent only once.
        case stream(UploadStreamBuffer)

        /// The exact size when known before sending.
        var length: Int64? {
            switch self {
            case .none: return 0
            case .data(let data): return Int64(data.count)
            case .segments(let segments): return segments.length
            case .stream(let buffer): return buffer.length
            }
        }

        package static func == (lhs: Body, rhs: Body) -> Bool {
            switch (lhs, rhs) {
            case (.none, .none): return true
            case (.data(let a), .data(let b)): return a == b
            case (.segments(let a), .segments(let b)): return a == b
            case (.stream(let a), .stream(let b)): return a === b
            default: return false
            }
        }

        /// True unless the body is a stream that can be read only once.
        var isReplayable: Bool {
            if case .stream = self { return false }
            return true
        }
    }

    /// A request, validated: `url` must be an absolute `http`/`https` URL with a host, `method` a
    /// valid token, and every header name and value valid.
    /// - Throws: ``CourierError/invalidURL``, ``CourierError/unsupportedScheme``,
    ///   ``CourierError/invalidRequest`` or ``CourierError/invalidHeader``.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil,
        timeout: TimeInterval? = nil
    ) throws(CourierError) {
        try self.init(
            validatedMethod: method, url: url, headers: headers, body: body.map(Body.data) ?? .none,
            timeout: timeout)
    }

    /// Validates and adopts every field of `request`; throws as ``init(method:url:headers:body:timeout:)``.
    /// Its `timeoutInterval` counts only when it differs from Foundation's default of 60 seconds
    /// (a `URLRequest` cannot say "none set"). An `httpBodyStream` is refused: send streamed
    /// bodies with ``Session/upload(_:to:method:)``.
    public init(_ request: URLRequest) throws(CourierError) {
        guard let url = request.url else { throw .invalidRequest(reason: "the request has no URL") }
        if request.httpBodyStream != nil {
            throw .invalidRequest(reason: "httpBodyStream is not supported; use Session.upload(_:to:) or set httpBody")
        }
        let timeout = request.timeoutInterval
        try self.init(
            validatedMethod: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url,
            headers: HTTPHeaders(urlRequestFields: request.allHTTPHeaderFields),
            body: request.httpBody.map(Body.data) ?? .none,
            timeout: timeout == Self.foundationDefaultTimeout ? nil : timeout)
    }

    init(
        validatedMethod method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Body, timeout: TimeInterval?
    ) throws(CourierError) {
        try Self.validate(url: url)
        guard method.isValidToken else {
            throw .invalidRequest(reason: "'\(method.rawValue)' is not a valid HTTP method")
        }
        if let timeout, !(timeout.isFinite && timeout > 0) {
            throw .invalidRequest(reason: "timeout must be a positive number of seconds, got \(timeout)")
        }
        try headers.validated()
        self.init(trusted: method, url: url, headers: headers, body: body, timeout: timeout)
    }

    /// A request whose parts are already known to be valid (a router's, a redirect's).
    init(trusted method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Body, timeout: TimeInterval?) {
        parts = Parts(method: method, url: url, headers: headers, timeout: timeout, body: body)
    }

    /// The bytes of a body held in memory; nil when there is no body or it is read while sending.
    package var bodyData: Data? {
        if case .data(let data) = body { return data }
        return nil
    }

    /// The whole body as bytes, for transports that need it at once (stubs, recorders): a body in
    /// memory as it is, files and forms read now; empty without a body.
    /// - Throws: ``CourierError/invalidRequest`` for a file that cannot be read, or for a stream
    ///   of chunks (which only the libcurl engine sends, as it is produced).
    public func collectedBody() throws(CourierError) -> Data {
        switch body {
        case .none: return Data()
        case .data(let data): return data
        case .stream:
            throw .invalidRequest(reason: "a streamed upload body can only be sent by the curl engine")
        case .segments(let segments):
            let cursor = SegmentCursor(segments)
            var collected = Data()
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { cursor.read(into: $0.baseAddress!, capacity: $0.count) }
                if count < 0 { throw cursor.failure ?? .invalidRequest(reason: "the body could not be read") }
                if count == 0 { return collected }
                collected.append(contentsOf: buffer[0..<count])
            }
        }
    }

    /// Throws unless `url` is an absolute `http`/`https` URL with a host.
    static func validate(url: URL) throws(CourierError) {
        guard let scheme = url.scheme else { throw .invalidURL(url.absoluteString) }
        guard SecurityPolicy.allowsScheme(scheme) else { throw .unsupportedScheme(scheme) }
        guard let host = url.host, !host.isEmpty else { throw .invalidURL(url.absoluteString) }
    }

    /// Stands for the request of a request that could not be built (never sent).
    static let placeholder = HTTPRequest(
        trusted: .get, url: URL(string: "http://invalid.invalid/")!, headers: HTTPHeaders(), body: .none, timeout: nil)

    /// What `URLRequest.timeoutInterval` is when nobody set it.
    static let foundationDefaultTimeout: TimeInterval = 60
}

extension HTTPHeaders {
    /// A `URLRequest`'s header dictionary, sorted by name (it keeps no order of its own).
    init(urlRequestFields fields: [String: String]?) {
        guard let fields, !fields.isEmpty else {
            self.init()
            return
        }
        self.init(fields)
    }

    /// Throws the first invalid header's error, typed: a name or value that may not be sent, or
    /// a field or a head past the size limits (libcurl would fail a request head over 1 MB with
    /// an untyped "out of memory", and servers refuse far smaller ones).
    func validated() throws(CourierError) {
        var headBytes = 0
        for header in self {
            try header.validate()
            let fieldBytes = header.name.utf8.count + header.value.utf8.count + 4
            headBytes += fieldBytes
            if let reason = Self.sizeProblem(fieldBytes: fieldBytes, headBytes: headBytes) {
                throw .invalidHeader(name: header.name, reason: reason)
            }
        }
    }

    /// Why a request header field of `fieldBytes` (name, value, ": " and CRLF), bringing the head
    /// to `headBytes`, may not be sent; nil when it may.
    static func sizeProblem(fieldBytes: Int, headBytes: Int) -> String? {
        if fieldBytes > SecurityPolicy.maxRequestHeaderFieldSize {
            return "the field is \(fieldBytes) bytes, over the limit of \(SecurityPolicy.maxRequestHeaderFieldSize)"
        }
        if headBytes > SecurityPolicy.maxRequestHeadSize {
            return
                "it brings the request headers to \(headBytes) bytes, over the limit of \(SecurityPolicy.maxRequestHeadSize)"
        }
        return nil
    }
}
