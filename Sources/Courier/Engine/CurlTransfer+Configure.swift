import CCurl
import CCurlShim
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one place where a request and its options become curl options.
///
/// Options come in two groups. Session options (callbacks, protocols, TLS, proxy, HTTP version,
/// buffer and size limits, the connect timeout: everything ``HandleProfile`` covers) are the same
/// for every request of a session; a pooled handle that kept them from a plain earlier transfer is
/// not configured again. Request options (URL, method, body, headers, the
/// transfer's own pointers) are set for every transfer, each one explicitly, so nothing of the
/// previous request survives. Anything that sets other options (streams, uploads, progress, idle
/// checks, HEAD and custom methods) makes the transfer not plain, and its handle is reset when it
/// is recycled.
extension CurlTransfer {
    func configure(
        _ easy: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?,
        hasSessionOptions: Bool, headerLists: inout HeaderListCache, urlHandles: inout URLHandleCache
    ) -> CourierError? {
        keepsSessionOptions = false
        // The request was validated where it was built (HTTPRequest): nothing is checked again.
        if !hasSessionOptions { configureSessionOptions(easy, share: share) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        set(easy, CURLOPT_PRIVATE, pointer: context)
        // The buffer is the handle's own: one that kept its session options has it set already.
        if !hasSessionOptions, let buffer = errorBuffer { set(easy, CURLOPT_ERRORBUFFER, pointer: buffer) }
        set(easy, CURLOPT_WRITEDATA, pointer: context)
        set(easy, CURLOPT_HEADERDATA, pointer: context)
        let urlText = self.urlText
        if let handle = urlHandles.handle(for: urlText) {
            // libcurl connects and builds the request from the parse; the text, the same URL, is
            // what it keeps as the transfer's URL (`Curl_pretransfer` in 7.88.1 takes the text
            // when one is set and would otherwise print one from the parse, about 8,000
            // instructions; none of it reaches the wire).
            guard set(easy, CURLOPT_URL, urlText) == CURLE_OK else { return .invalidURL(urlText) }
            set(easy, CURLOPT_CURLU, pointer: UnsafeRawPointer(handle.pointer))
            urlHandle = handle
        } else {
            // A handle from the pool may still name a parsed URL, which overrides the text.
            set(easy, CURLOPT_CURLU, pointer: nil)
            urlHandle = nil
            guard set(easy, CURLOPT_URL, urlText) == CURLE_OK else { return .invalidURL(urlText) }
        }
        // Wait for an HTTP/2 connection being set up rather than open another, only where HTTP/2
        // is possible: for cleartext http, waiting would make every concurrent request to a new
        // host wait for the first connection (and each for the one before when connects fail).
        // A request option (the URL decides it): a reused handle may come from either kind.
        if multiplexOrigin != nil || hasSessionOptions {
            set(easy, CURLOPT_PIPEWAIT, multiplexOrigin != nil ? 1 : 0)
        }
        configureIdleLimit(easy)
        if let error = configureMethodAndBody(easy, reused: hasSessionOptions) { return error }
        let sendsOwnCookie = configureHeaders(easy, cache: &headerLists)
        configureFlow(easy)
        if http1ResendStatus != nil {
            // The resend of an early HTTP/2 response libcurl discarded (see HTTP2Recovery): over
            // HTTP/1.1, on a connection of its own that is not kept.
            set(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            set(easy, CURLOPT_FRESH_CONNECT, 1)
            set(easy, CURLOPT_FORBID_REUSE, 1)
        }
        keepsSessionOptions =
            flow == nil && token.options.idleTimeout == nil && keepsMethodOptions && http1ResendStatus == nil
            && !sendsOwnCookie
        return nil
    }

    /// With the cookie jar on, a `Cookie` header the request sets itself is handed to libcurl as
    /// `CURLOPT_COOKIE`, which libcurl sends in the same `Cookie` line as the jar's cookies (two
    /// `Cookie` lines would break RFC 6265 §5.4). Returns true when it did: the handle is then
    /// reset when recycled, so the option never reaches another request.
    private func moveCookieHeader(_ easy: UnsafeMutableRawPointer, from headers: inout HTTPHeaders) -> Bool {
        guard let value = headers["Cookie"] else { return false }
        headers.remove(name: "Cookie")
        if !value.isEmpty { set(easy, CURLOPT_COOKIE, value) }
        return true
    }

    /// The options of ``HandleProfile``, the same for every request of a session.
    private func configureSessionOptions(_ easy: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?) {
        set(easy, CURLOPT_NOSIGNAL, 1)
        courier_easy_setopt_data_cb(easy, CURLOPT_WRITEFUNCTION, courierWriteCallback)
        courier_easy_setopt_data_cb(easy, CURLOPT_HEADERFUNCTION, courierHeaderCallback)
        set(easy, CURLOPT_PROTOCOLS_STR, SecurityPolicy.allowedSchemesForCurl)
        set(easy, CURLOPT_REDIR_PROTOCOLS_STR, SecurityPolicy.allowedSchemesForCurl)
        set(easy, CURLOPT_FOLLOWLOCATION, 0)  // redirects are decided by RedirectDecision
        if let share { set(easy, CURLOPT_SHARE, pointer: share) }
        // The cookie engine on, with no file: the cookies are the jar's, held by the share.
        if usesCookieJar { set(easy, CURLOPT_COOKIEFILE, "") }
        if token.options.tcpKeepAlive { set(easy, CURLOPT_TCP_KEEPALIVE, 1) }
        if token.options.automaticDecompression { set(easy, CURLOPT_ACCEPT_ENCODING, "") }
        if let size = token.options.receiveBufferSize { set(easy, CURLOPT_BUFFERSIZE, size) }
        if let limit = bodyLimit {
            courier_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        if let connect = token.options.connectTimeout, connect > 0 {
            set(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connect))
        }
        configureTLS(easy)
        configureProxy(easy)
        configureVersion(easy)
    }

    /// libcurl enforces the connect limit (a session option: see
    /// ``configureSessionOptions(_:share:)``). The request and idle limits are the engine's alone
    /// (``DeadlineQueue``, CurlEngineLoop+Deadlines.swift): libcurl is given no overall limit, so
    /// that one place decides when a request has run out of time, and libcurl keeps no timer of
    /// its own for it (about 450 instructions a request in W2; Benchmarks/EXPERIMENTS.md,
    /// Round 37). A pooled handle has no overall limit to clear: none is ever set.
    private func configureIdleLimit(_ easy: UnsafeMutableRawPointer) {
        if let idle = token.options.idleTimeout, idle > 0 {
            // The progress callback records when bytes last moved; the engine's loop fails the
            // transfer when that is longer ago than the limit.
            lastActivity = .now
            set(easy, CURLOPT_NOPROGRESS, 0)
            courier_easy_setopt_xferinfo_cb(easy, courierProgressCallback)
            set(easy, CURLOPT_XFERINFODATA, pointer: Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func configureTLS(_ easy: UnsafeMutableRawPointer) {
        let tls = token.options.tls
        set(easy, CURLOPT_SSL_VERIFYPEER, 1)
        set(easy, CURLOPT_SSL_VERIFYHOST, 2)
        if let file = tls.caCertificateFile { set(easy, CURLOPT_CAINFO, file) }
        if let certificate = tls.clientCertificate {
            set(easy, CURLOPT_SSLCERT, certificate.certificateFile)
            if let key = certificate.privateKeyFile { set(easy, CURLOPT_SSLKEY, key) }
            if let password = certificate.password { set(easy, CURLOPT_KEYPASSWD, password) }
        }
        if !tls.pinnedPublicKeyHashes.isEmpty {
            let pins = tls.pinnedPublicKeyHashes.map { "sha256//" + $0 }.joined(separator: ";")
            set(easy, CURLOPT_PINNEDPUBLICKEY, pins)
        }
    }

    private func configureProxy(_ easy: UnsafeMutableRawPointer) {
        switch token.options.proxy {
        case .environment:
            break
        case .none:
            // No proxy for any host. libcurl then neither reads the proxy variables for every
            // request (1,600 instructions) nor copies a proxy name (`CURLOPT_PROXY ""` would make
            // it duplicate the empty string for every request). A session whose environment names
            // no proxy has `.none` here (Session.makeOptions).
            set(easy, CURLOPT_NOPROXY, "*")
        case .url(let url, let bypass):
            set(easy, CURLOPT_PROXY, url)
            if !bypass.isEmpty { set(easy, CURLOPT_NOPROXY, bypass.joined(separator: ",")) }
        }
    }

    private func configureVersion(_ easy: UnsafeMutableRawPointer) {
        let value: Int
        switch token.options.maxHTTPVersion {
        case .http1_0: value = Int(CURL_HTTP_VERSION_1_0)
        case .http1_1: value = Int(CURL_HTTP_VERSION_1_1)
        case .http2, .http3: value = Int(CURL_HTTP_VERSION_2TLS)
        }
        set(easy, CURLOPT_HTTP_VERSION, value)
    }

    /// Sets the method and the body. On a handle that kept its session options the previous
    /// request was a plain GET or POST: a GET clears the old body pointer, a POST replaces it.
    private func configureMethodAndBody(_ easy: UnsafeMutableRawPointer, reused: Bool) -> CourierError? {
        keepsMethodOptions = false
        let sentPlainGET = reused && handleHasPlainGET
        handleHasPlainGET = false
        let method = request.method.rawValue
        let body: Data?
        switch request.body {
        case .none: body = nil
        case .data(let data): body = data
        case .segments(let segments): return configureUpload(easy, source: .segments(segments), method: method)
        case .stream(let buffer): return configureUpload(easy, source: .stream(buffer), method: method)
        }
        dropUpload()
        switch method {
        case "GET" where body == nil:
            // A handle whose last request was one too has these set already.
            if !sentPlainGET {
                if reused { set(easy, CURLOPT_POSTFIELDS, pointer: nil) }
                set(easy, CURLOPT_HTTPGET, 1)
            }
            keepsMethodOptions = true
            handleHasPlainGET = true
            return nil
        case "HEAD":
            set(easy, CURLOPT_NOBODY, 1)
            return nil
        case "POST":
            keepsMethodOptions = true
        default:
            set(easy, CURLOPT_CUSTOMREQUEST, method)
            if body == nil && !["PUT", "PATCH"].contains(method) { return nil }
        }
        let bytes = body ?? Data()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: source.count) }
        }
        bodyBuffer = buffer
        set(easy, CURLOPT_POSTFIELDS, pointer: buffer)
        courier_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
        return nil
    }

    /// Sets the request's header list, from the cache when the request's headers are the ones the
    /// cached list was made from. Returns whether the request's own `Cookie` went to libcurl
    /// apart (``moveCookieHeader(_:from:)``).
    private func configureHeaders(_ easy: UnsafeMutableRawPointer, cache: inout HeaderListCache) -> Bool {
        let shape = HeaderListCache.Shape(
            withBodyLines: bodyBuffer != nil || flow?.upload != nil,
            acceptEncoding: token.options.automaticDecompression ? Self.acceptEncodingValue : nil)
        let list: CurlHeaderList
        var sendsOwnCookie = false
        if let cached = cache.list(for: request.headers, shape: shape) {
            // The very headers the list was made from: no `Cookie` was moved out of them (moving
            // one makes other headers, never a request's own), so none is looked for again.
            list = cached
        } else {
            var headers = request.headers
            sendsOwnCookie = usesCookieJar && moveCookieHeader(easy, from: &headers)
            list = Self.makeHeaderList(headers, shape: shape)
            cache.store(list, headers: headers, shape: shape)
        }
        headerList = list
        // Also when empty: a reused handle may still point at an earlier request's list.
        set(easy, CURLOPT_HTTPHEADER, pointer: list.pointer)
        return sendsOwnCookie
    }

    /// Every header as a line, in order (they were validated with the request), in libcurl's
    /// entries (``CurlHeaderEntries``). The shape's body lines switch off libcurl's own `Expect`
    /// and `Content-Type` for a body; its `Accept-Encoding` line is added unless the request has
    /// its own.
    private static func makeHeaderList(_ headers: HTTPHeaders, shape: HeaderListCache.Shape) -> CurlHeaderList {
        var lines: [(name: String, value: String)] = []
        var hasContentType = false
        var hasExpect = false
        var hasAcceptEncoding = false
        for header in headers {
            let name = header.name
            if name.caseInsensitiveEquals("Content-Type") { hasContentType = true }
            if name.caseInsensitiveEquals("Expect") { hasExpect = true }
            if name.caseInsensitiveEquals("Accept-Encoding") { hasAcceptEncoding = true }
            lines.append((name, header.value))
        }
        if let acceptEncoding = shape.acceptEncoding, !hasAcceptEncoding {
            lines.append(("Accept-Encoding", acceptEncoding))
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in CurlHeaderEntries.entries(lines) {
            list = curl_slist_append(list, entry)
        }
        if shape.withBodyLines {
            // Empty: libcurl sends none of its own.
            if !hasExpect { list = curl_slist_append(list, "Expect:") }
            if !hasContentType { list = curl_slist_append(list, "Content-Type:") }
        }
        return CurlHeaderList(list)
    }

    /// The `Accept-Encoding` value of automatic decompression: gzip, br and zstd, those of them
    /// this libcurl decodes (nil if it decodes none). deflate is not asked for: every server that
    /// offers it offers gzip, and each byte of a header line costs libcurl 7.88 about 90 to 110
    /// instructions to format, for every request (its 9 bytes measured 800). A response a server
    /// sends deflated anyway is still decoded: `CURLOPT_ACCEPT_ENCODING` stays set, which turns
    /// on every decoder libcurl has. Courier sends the value as one of the request's own lines,
    /// kept in the cached header list, so libcurl does not build a line of its own for every
    /// request (which cost about 3,400 instructions more; docs/performance.md).
    static let acceptEncodingValue: String? = {
        guard let info = courier_version_info() else { return nil }
        let features = info.pointee.features
        var names: [String] = []
        if features & CURL_VERSION_LIBZ != 0 { names.append("gzip") }
        if features & CURL_VERSION_BROTLI != 0 { names.append("br") }
        if features & CURL_VERSION_ZSTD != 0 { names.append("zstd") }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }()

    static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int((seconds * 1000).rounded(.up))
    }

    @discardableResult
    func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) -> CURLcode {
        courier_easy_setopt_long(easy, option, value)
    }

    @discardableResult
    func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
        // String options are copied by libcurl (since 7.17), so a temporary C string is fine.
        value.withCString { courier_easy_setopt_pointer(easy, option, $0) }
    }

    @discardableResult
    func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, pointer: UnsafeRawPointer?) -> CURLcode {
        courier_easy_setopt_pointer(easy, option, pointer)
    }
}
