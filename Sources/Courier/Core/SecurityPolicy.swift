/// The security rules every layer of Courier reads from one place: which headers are secrets.
///
/// Redirects drop secret headers when they cross to another origin, ``DataRequest/cURLDescription()``
/// prints them as `<redacted>`, and so does every log line. Set it once per session:
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.security.secretHeaders.insert("X-Session-Token")
/// ```
public struct SecurityPolicy: Sendable, Equatable {
    /// Headers that are secrets whatever the configuration says: `Authorization`,
    /// `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    public static let alwaysSecretHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// Header names (case-insensitive) treated as secrets in addition to
    /// ``alwaysSecretHeaders``. Default: `X-Api-Key`, `X-Auth-Token`.
    public var secretHeaders: Set<String> {
        didSet { lowercasedSecrets = Self.lowercased(secretHeaders) }
    }

    /// Every secret header name, lowercased, for case-insensitive look-ups.
    private var lowercasedSecrets: Set<String>

    /// Creates a policy.
    public init(secretHeaders: Set<String> = ["X-Api-Key", "X-Auth-Token"]) {
        self.secretHeaders = secretHeaders
        lowercasedSecrets = Self.lowercased(secretHeaders)
    }

    /// True when a header of this name must never be printed or sent to another origin.
    public func isSecret(header name: String) -> Bool {
        lowercasedSecrets.contains(name.lowercased())
    }

    /// The value to print for a header: the value itself, or `<redacted>` for a secret.
    public func printable(header name: String, value: String) -> String {
        isSecret(header: name) ? Self.redactedMarker : value
    }

    /// What a secret is printed as.
    public static let redactedMarker = "<redacted>"

    private static func lowercased(_ names: Set<String>) -> Set<String> {
        Set(alwaysSecretHeaders.union(names).map { $0.lowercased() })
    }

    /// Two policies are equal when they treat the same headers as secrets.
    public static func == (lhs: SecurityPolicy, rhs: SecurityPolicy) -> Bool {
        lhs.lowercasedSecrets == rhs.lowercasedSecrets
    }
}
