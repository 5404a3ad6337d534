import Foundation

/// The one error type Courier reports, from building a request to decoding its response.
///
/// An error has a kind, such as ``timedOut`` or ``cancelled``, and details that depend on it:
/// ``subject`` (what was wrong: a header name, a coding path, a URL), ``reason``,
/// ``statusCode``, ``limit``, ``timeoutKind`` and ``underlying`` (the error underneath, kept as a
/// value). Switch on the kind; a `default` case is needed because new kinds may be added in any
/// release without breaking your code:
/// ```swift
/// import Courier
///
/// func explain(_ error: CourierError) -> String {
///     switch error {
///     case .timedOut where error.timeoutKind == .connect: return "cannot reach the server"
///     case .timedOut: return "slow network"
///     case .cancelled: return "cancelled"
///     case .credentialRefreshFailed where error.underlying as? CourierError == .cannotConnect:
///         return "offline while refreshing the session"
///     default: return error.description
///     }
/// }
/// ```
/// Two errors are equal when they are of the same kind: `error == .timedOut` holds for every
/// timeout, whatever its message or details. Compare details through their properties.
public struct CourierError: Error, Sendable, Equatable, CustomStringConvertible {
    let code: Code
    /// The message and the details, in one immutable object: an error is then two words, so the
    /// `Result`s and optionals that carry one through every request (mostly holding none) stay
    /// small and are copied with one retain instead of field by field.
    private let details: Details

    /// A one-line, human-readable explanation naming what went wrong.
    public var description: String { details.fields.description }

    /// What was wrong, when the kind names one thing: the URL text (``invalidURL``), the scheme
    /// (``unsupportedScheme``), the header name (``invalidHeader``), the parameter's key path
    /// (``parameterEncodingFailed``), the host (``dnsFailure``), the redirect target
    /// (``redirectRefused``, ``insecureRedirect``), the content type
    /// (``unacceptableContentType``), the coding path (``decodingFailed``, empty for the root), or
    /// the plugin's or interceptor's type name (``pluginFailed``, ``adaptationFailed``).
    public var subject: String? { details.fields.subject }

    /// Why, in words, when the kind carries a reason or libcurl's message.
    public var reason: String? { details.fields.reason }

    /// The limit that was crossed: bytes for ``responseTooLarge``, redirects for
    /// ``tooManyRedirects``, refreshes for ``tooManyCredentialRefreshes``.
    public var limit: Int? { details.fields.limit }

    /// The status code ``unacceptableStatusCode`` rejected.
    public var statusCode: Int? { details.fields.statusCode }

    /// Which time limit fired, for ``timedOut``.
    public var timeoutKind: TimeoutKind? { details.fields.timeoutKind }

    /// libcurl's `CURLcode`, for ``transport``.
    public var transportCode: Int? { details.fields.transportCode }

    /// The error underneath, as thrown: by a plugin (``pluginFailed``), an adapter
    /// (``adaptationFailed``) or a credential refresh (``credentialRefreshFailed``).
    public var underlying: (any Error)? { details.fields.underlying }

    /// What an error says besides its kind, shared by the copies of an error.
    private final class Details: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// The message and the details themselves.
    private struct Fields: Sendable {
        let description: String
        let subject: String?
        let reason: String?
        let limit: Int?
        let statusCode: Int?
        let timeoutKind: TimeoutKind?
        let transportCode: Int?
        let underlying: (any Error)?
    }

    init(
        code: Code, description: String, subject: String? = nil, reason: String? = nil, limit: Int? = nil,
        statusCode: Int? = nil, timeoutKind: TimeoutKind? = nil, transportCode: Int? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        details = Details(
            Fields(
                description: description, subject: subject, reason: reason, limit: limit, statusCode: statusCode,
                timeoutKind: timeoutKind, transportCode: transportCode, underlying: underlying))
    }

    /// An error of `kind` (one of the static values, such as ``timedOut`` or ``unhandledRequest``),
    /// for code outside Courier that reports one: a custom ``Transport``, a plugin, a validation.
    /// `reason` is added to the kind's description; `underlying` keeps the error that caused it.
    /// ```swift
    /// throw CourierError(.invalidRequest, reason: "the cart is empty")
    /// ```
    public init(_ kind: CourierError, reason: String? = nil, underlying: (any Error)? = nil) {
        self.init(
            code: kind.code, description: reason.map { kind.description + ": " + $0 } ?? kind.description,
            reason: reason, underlying: underlying)
    }

    /// Two errors are equal when they are of the same kind; messages and details are not compared.
    public static func == (lhs: CourierError, rhs: CourierError) -> Bool {
        lhs.code == rhs.code
    }

    /// Which time limit fired for a ``timedOut`` error.
    public enum TimeoutKind: Sendable, Equatable {
        /// Establishing the connection (DNS, TCP and TLS) took too long.
        case connect
        /// The whole request took longer than its overall limit.
        case request
        /// The transfer stalled below the low-speed limit for too long.
        case idle
    }

    /// The ``Plugin`` hooks that can fail a request (named in a `pluginFailed` error's description).
    package enum PluginHook: String, Sendable, Equatable {
        /// ``Plugin/prepare(_:context:)``: the request was not sent.
        case prepare
        /// ``Plugin/process(_:context:)``: the response arrived but its result was replaced.
        case process
    }

    /// The kind's name (`timedOut`, `cancelled`, …), for logs.
    package var kind: String { code.rawValue }

}
