import Foundation

/// The one error type Courier reports, from building a request to decoding its response.
///
/// Switch on it to react to a specific failure:
/// ```swift
/// switch error {
/// case .timedOut(let kind): retryLater(kind)
/// case .cancelled: break
/// default: show(error.description)
/// }
/// ```
public enum CourierError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: Building the request

    /// A URL could not be formed or parsed; the associated value is the offending text.
    case invalidURL(String)
    /// The URL's scheme is not `http` or `https`; the associated value is the scheme found.
    case unsupportedScheme(String)
    /// A header name or value is not allowed (for example it contains CR or LF).
    case invalidHeader(name: String, reason: String)
    /// A parameter could not be encoded; `keyPath` names where (for example `user.birthday`).
    case parameterEncodingFailed(keyPath: String, reason: String)
    /// A multipart body could not be assembled (for example a file part could not be read).
    case multipartEncodingFailed(reason: String)
    /// The request is malformed in another way; the reason says how.
    case invalidRequest(reason: String)

    // MARK: Transport

    /// The host name could not be resolved.
    case dnsFailure(host: String)
    /// No connection could be made to the server (refused, unreachable).
    case cannotConnect(message: String)
    /// The request took too long; the kind says which limit fired.
    case timedOut(TimeoutKind)
    /// The TLS handshake or certificate verification failed.
    case tlsFailure(message: String)
    /// The server's public key did not match any pinned key.
    case pinnedKeyMismatch
    /// More redirects were offered than the configured maximum allows.
    case tooManyRedirects(limit: Int)
    /// A redirect pointed at a scheme other than `http` or `https`.
    case redirectRefused(location: String)
    /// A redirect from `https` to plain `http` was refused (``SecurityPolicy/allowsInsecureRedirects``
    /// is off); the associated value is the redirect's target.
    case insecureRedirect(location: String)
    /// The request was cancelled, by `cancel()` or by Swift task cancellation.
    case cancelled
    /// The decoded response body exceeded the configured limit (in bytes).
    case responseTooLarge(limit: Int)
    /// The connection closed before the whole response arrived.
    case truncatedResponse(message: String)
    /// The server sent something that is not valid HTTP.
    case protocolViolation(message: String)
    /// Any other libcurl failure, with its `CURLcode` and message.
    case transport(code: Int, message: String)
    /// A transport other than the engine (a stub, a replay store, your own) had no answer for
    /// the request; `reason` describes the request and what was missing.
    case unhandledRequest(reason: String)

    // MARK: Validation and serialization

    /// `validate()` rejected the response's status code.
    case unacceptableStatusCode(Int)
    /// `validate(contentType:)` rejected the response's content type.
    case unacceptableContentType(String?)
    /// The body could not be decoded; `path` names the failing coding path.
    case decodingFailed(path: String, reason: String)
    /// The body is not text in the expected encoding.
    case stringDecodingFailed

    // MARK: Plugins and interceptors

    /// A ``Plugin``'s hook threw an error that is not a `CourierError`; `plugin` is its type name.
    case pluginFailed(plugin: String, hook: PluginHook, reason: String)
    /// A ``RequestInterceptor``'s adapter threw an error that is not a `CourierError`; the request
    /// was not sent. `interceptor` is its type name.
    case adaptationFailed(interceptor: String, reason: String)

    // MARK: Authentication

    /// The endpoint needs a credential and the ``AuthenticationInterceptor`` has none (nobody
    /// signed in); the request was not sent.
    case missingCredential
    /// Refreshing the credential failed; every request waiting for the refresh fails with this.
    case credentialRefreshFailed(reason: String)
    /// More than `limit` refreshes were needed within `window` seconds: the server keeps refusing
    /// fresh credentials, so refreshing stops (until the window has passed) instead of looping.
    case tooManyCredentialRefreshes(limit: Int, window: TimeInterval)

    /// Which time limit fired for a ``CourierError/timedOut(_:)`` error.
    public enum TimeoutKind: String, Sendable, Equatable {
        /// Establishing the connection (DNS, TCP and TLS) took too long.
        case connect
        /// The whole request took longer than its overall limit.
        case request
        /// The transfer stalled below the low-speed limit for too long.
        case idle
    }

    /// The ``Plugin`` hooks that can fail a request.
    public enum PluginHook: String, Sendable, Equatable {
        /// ``Plugin/prepare(_:context:)``: the request was not sent.
        case prepare
        /// ``Plugin/process(_:context:)``: the response arrived but its result was replaced.
        case process
    }

    /// A one-line, human-readable explanation naming what went wrong.
    public var description: String {
        switch self {
        case .invalidURL(let text): return "Invalid URL: \(text)"
        case .unsupportedScheme(let scheme):
            return "Unsupported URL scheme '\(scheme)': only http and https are allowed"
        case .invalidHeader(let name, let reason): return "Invalid header '\(name)': \(reason)"
        case .parameterEncodingFailed(let keyPath, let reason): return "Cannot encode parameter '\(keyPath)': \(reason)"
        case .multipartEncodingFailed(let reason): return "Cannot build multipart body: \(reason)"
        case .invalidRequest(let reason): return "Invalid request: \(reason)"
        case .dnsFailure(let host): return "Could not resolve host '\(host)'"
        case .cannotConnect(let message): return "Cannot connect: \(message)"
        case .timedOut(let kind): return "Timed out (\(kind.rawValue) timeout)"
        case .tlsFailure(let message): return "TLS failure: \(message)"
        case .pinnedKeyMismatch: return "The server's public key matches no pinned key"
        case .tooManyRedirects(let limit): return "Too many redirects (limit \(limit))"
        case .redirectRefused(let location): return "Redirect to a disallowed URL refused: \(location)"
        case .insecureRedirect(let location):
            return "Redirect from https to plain http refused: \(location) (see SecurityPolicy.allowsInsecureRedirects)"
        case .cancelled: return "The request was cancelled"
        case .responseTooLarge(let limit): return "Response larger than the limit of \(limit) bytes"
        case .truncatedResponse(let message): return "Connection closed before the response was complete: \(message)"
        case .protocolViolation(let message): return "Invalid HTTP from server: \(message)"
        case .transport(let code, let message): return "Transfer failed (curl \(code)): \(message)"
        case .unhandledRequest(let reason): return "No response for the request: \(reason)"
        case .unacceptableStatusCode(let code): return "Unacceptable status code \(code)"
        case .unacceptableContentType(let type): return "Unacceptable content type \(type ?? "(none)")"
        case .decodingFailed(let path, let reason):
            return "Decoding failed at \(path.isEmpty ? "(root)" : path): \(reason)"
        case .stringDecodingFailed: return "The response body is not valid text"
        case .pluginFailed(let plugin, let hook, let reason):
            return "Plugin \(plugin) failed in \(hook.rawValue): \(reason)"
        case .adaptationFailed(let interceptor, let reason):
            return "Interceptor \(interceptor) could not adapt the request: \(reason)"
        case .missingCredential: return "The endpoint needs a credential and none is set (sign in first)"
        case .credentialRefreshFailed(let reason): return "Refreshing the credential failed: \(reason)"
        case .tooManyCredentialRefreshes(let limit, let window):
            return
                "The credential was refreshed \(limit) times within \(Int(window)) s and is still refused; not refreshing again"
        }
    }
}
