/// The security rules every layer of Courier reads from one place: which headers and keys are
/// secrets, whether a redirect may leave TLS, and how large a response may be.
///
/// Redirects drop secret headers when they cross to another origin. ``DataRequest/cURLDescription()``
/// and every ``NetworkLogger`` line print the values of secret headers, and of secret keys in URL
/// queries, form bodies and JSON bodies, as `<redacted>`. Set it once per session:
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.security.secretHeaders.insert("X-Session-Token")
/// configuration.security.secretKeys.insert("client_id")  // ?client_id=… and "client_id": …
/// configuration.security.maxResponseSize = 8 << 20       // 8 MiB, counted after decompression
/// ```
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always secrets. Some
/// limits are fixed: a response head (status line and header fields, interim responses
/// included) of at most 200 KiB, else ``CourierError/protocolViolation``; a request header field
/// (name, value, `: ` and CRLF) of at most 64 KiB and all of them together of at most 256 KiB,
/// else ``CourierError/invalidHeader`` naming the field, before anything is sent.
/// The defaults are safe: an `https` → `http` redirect fails with
/// ``CourierError/insecureRedirect``, and a body held in memory may be at most
/// 64 MiB once decoded.
public struct SecurityPolicy: Sendable {
    /// Headers that are secrets whatever the configuration says: `Authorization`,
    /// `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    package static let alwaysSecretHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"
    ]

    /// The default ``secretKeys``.
    @usableFromInline package static let defaultSecretKeys: Set<String> = [
        "password", "pw", "passwd", "secret", "clientSecret", "token", "accessToken", "refreshToken", "idToken",
        "apiKey"
    ]

    /// The policy of a session configured with none of its own, for values printed outside one
    /// (``HTTPHeader/description``).
    package static let standard = SecurityPolicy()

    /// The default ``maxResponseSize``: 64 MiB.
    @usableFromInline package static let defaultMaxResponseSize = 64 << 20
    /// The default ``maxDownloadSize``: 8 GiB.
    @usableFromInline package static let defaultMaxDownloadSize = 8 << 30

    /// Header names (case-insensitive) treated as secrets in addition to
    /// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`. Default: `X-Api-Key`, `X-Auth-Token`.
    public var secretHeaders: Set<String> {
        didSet { lowercasedSecrets = Self.lowercased(secretHeaders) }
    }

    /// Keys whose values are secrets wherever they appear: in a URL query (`?api_key=…`), a form
    /// body, a JSON body (`"password": …`, at any depth) or a `Location` header. Compared without
    /// regard to case, `_` or `-`: `accessToken` also names `access_token` and `Access-Token`.
    /// Default: `password`, `pw`, `passwd`, `secret`, `clientSecret`, `token`, `accessToken`,
    /// `refreshToken`, `idToken`, `apiKey`. The query parameter of an endpoint whose
    /// ``Router/authorization`` is ``AuthorizationType/query(name:)`` is always a secret.
    public var secretKeys: Set<String> {
        didSet { normalizedSecretKeys = Self.normalized(secretKeys) }
    }

    /// Whether a redirect from `https` to plain `http` is followed. Default `false`: the request
    /// fails with ``CourierError/insecureRedirect`` and nothing goes out in cleartext.
    /// Secret headers are dropped on such a redirect even when it is allowed.
    public var allowsInsecureRedirects: Bool

    /// The largest response body held in memory, in bytes counted after decompression (so a
    /// small gzip body cannot grow into gigabytes). Larger bodies fail with
    /// ``CourierError/responseTooLarge``. Default 64 MiB; `nil` means
    /// no limit.
    public var maxResponseSize: Int?

    /// The largest body ``Session/download(_:to:)`` writes to its file, counted the same way.
    /// Default 8 GiB, so a hostile server cannot fill the disk;
    /// `nil` means no limit.
    public var maxDownloadSize: Int?

    /// Every secret header name, lowercased, for case-insensitive look-ups.
    private var lowercasedSecrets: Set<String>
    /// ``secretKeys`` as ``normalizedKey(_:)`` writes them.
    package private(set) var normalizedSecretKeys: Set<String>

    /// Creates a policy.
    public init(
        secretHeaders: Set<String> = ["X-Api-Key", "X-Auth-Token"],
        secretKeys: Set<String> = SecurityPolicy.defaultSecretKeys,
        allowsInsecureRedirects: Bool = false,
        maxResponseSize: Int? = SecurityPolicy.defaultMaxResponseSize,
        maxDownloadSize: Int? = SecurityPolicy.defaultMaxDownloadSize
    ) {
        self.secretHeaders = secretHeaders
        self.secretKeys = secretKeys
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.maxResponseSize = maxResponseSize
        self.maxDownloadSize = maxDownloadSize
        lowercasedSecrets = Self.lowercased(secretHeaders)
        normalizedSecretKeys = Self.normalized(secretKeys)
    }

    /// True when a header of this name must never be printed or sent to another origin.
    public func isSecret(header name: String) -> Bool {
        lowercasedSecrets.contains(name.lowercased())
    }

    /// The value to print for a header: the value itself, or `<redacted>` for a secret.
    package func printable(header name: String, value: String) -> String {
        isSecret(header: name) ? Self.redactedMarker : value
    }

    /// What a secret is printed as.
    package static let redactedMarker = "<redacted>"

    /// True when the value of a query, form or JSON key of this name is a secret: one of
    /// ``secretKeys``, or the name of a secret header (a body echoing `"authorization": …`).
    public func isSecret(key name: String) -> Bool {
        normalizedSecretKeys.contains(Self.normalizedKey(name)) || isSecret(header: name)
    }

    /// `accessToken`, `access_token` and `Access-Token` are the same key.
    package static func normalizedKey(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    private static func normalized(_ keys: Set<String>) -> Set<String> {
        Set(keys.map(normalizedKey))
    }

    private static func lowercased(_ names: Set<String>) -> Set<String> {
        Set(alwaysSecretHeaders.union(names).map { $0.lowercased() })
    }
}

extension SecurityPolicy {
    /// The largest response head (status line and header fields, interim responses included)
    /// Courier accepts: 200 KiB. A larger head fails with ``CourierError/protocolViolation``.
    /// It sits below libcurl's own 300 KB limit so that the error is always Courier's, typed and
    /// never retried; libcurl also caps a single header line at 100 KB.
    package static let maxResponseHeadSize = 200 * 1024

    /// The largest single request header field Courier sends, counting name, value, `: ` and CRLF:
    /// 64 KiB. A larger one fails with ``CourierError/invalidHeader`` naming it,
    /// before anything is sent.
    package static let maxRequestHeaderFieldSize = 64 * 1024

    /// The largest total of all request header fields Courier sends, counted the same way:
    /// 256 KiB (libcurl refuses a request head over 1 MB, and servers commonly refuse far less).
    /// The field that crosses it is named in the ``CourierError/invalidHeader``.
    package static let maxRequestHeadSize = 256 * 1024
}

extension SecurityPolicy {
    /// The URL schemes Courier sends requests to and follows redirects to: `http` and `https`.
    /// The one allow-list every layer reads: URL building, string URLs, the engine's handle
    /// set-up (and libcurl's own protocol options), and the redirect decision.
    static let allowedSchemes = ["http", "https"]

    /// The allow-list as libcurl's `CURLOPT_PROTOCOLS_STR` value.
    static let allowedSchemesForCurl = allowedSchemes.joined(separator: ",")

    /// True when `scheme` (any case) is in ``allowedSchemes``; false for nil.
    static func allowsScheme(_ scheme: String?) -> Bool {
        guard let scheme else { return false }
        return allowedSchemes.contains { scheme.caseInsensitiveEquals($0) }
    }
}
