import Foundation

// The kinds of CourierError. Each kind is a static value (for `switch` and `==`) and, when it
// carries details, a static function of the same name that builds one.

extension CourierError {

    // MARK: Building the request

    /// A URL could not be formed or parsed; ``subject`` is the offending text.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidURL:` matches every `invalidURL` error.
    public static let invalidURL = CourierError(code: .invalidURL, description: "invalidURL")

    /// A ``invalidURL`` error; see the kind for what it means.
    public static func invalidURL(_ text: String) -> CourierError {
        CourierError(
            code: .invalidURL,
            description: "Invalid URL: \(text)",
            subject: text)
    }

    /// The URL's scheme is not `http` or `https`; ``subject`` is the scheme found.
    ///
    /// As a kind, for `switch` and `==`: `case .unsupportedScheme:` matches every `unsupportedScheme` error.
    public static let unsupportedScheme = CourierError(code: .unsupportedScheme, description: "unsupportedScheme")

    /// A ``unsupportedScheme`` error; see the kind for what it means.
    public static func unsupportedScheme(_ scheme: String) -> CourierError {
        CourierError(
            code: .unsupportedScheme,
            description: "Unsupported URL scheme '\(scheme)': only http and https are allowed",
            subject: scheme)
    }

    /// A header name or value is not allowed (for example it contains CR or LF); ``subject`` is its name.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidHeader:` matches every `invalidHeader` error.
    public static let invalidHeader = CourierError(code: .invalidHeader, description: "invalidHeader")

    /// A ``invalidHeader`` error; see the kind for what it means.
    public static func invalidHeader(name: String, reason: String) -> CourierError {
        CourierError(
            code: .invalidHeader,
            description: "Invalid header '\(name)': \(reason)",
            subject: name,
            reason: reason)
    }

    /// A parameter could not be encoded; ``subject`` names where (for example `user.birthday`).
    ///
    /// As a kind, for `switch` and `==`: `case .parameterEncodingFailed:` matches every `parameterEncodingFailed` error.
    public static let parameterEncodingFailed = CourierError(
        code: .parameterEncodingFailed, description: "parameterEncodingFailed")

    /// A ``parameterEncodingFailed`` error; see the kind for what it means.
    public static func parameterEncodingFailed(keyPath: String, reason: String) -> CourierError {
        CourierError(
            code: .parameterEncodingFailed,
            description: "Cannot encode parameter '\(keyPath)': \(reason)",
            subject: keyPath,
            reason: reason)
    }

    /// A multipart body could not be assembled (for example a file part could not be read).
    ///
    /// As a kind, for `switch` and `==`: `case .multipartEncodingFailed:` matches every `multipartEncodingFailed` error.
    public static let multipartEncodingFailed = CourierError(
        code: .multipartEncodingFailed, description: "multipartEncodingFailed")

    /// A ``multipartEncodingFailed`` error; see the kind for what it means.
    public static func multipartEncodingFailed(reason: String) -> CourierError {
        CourierError(
            code: .multipartEncodingFailed,
            description: "Cannot build multipart body: \(reason)",
            reason: reason)
    }

    /// The request is malformed in another way; ``reason`` says how.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidRequest:` matches every `invalidRequest` error.
    public static let invalidRequest = CourierError(code: .invalidRequest, description: "invalidRequest")

    /// A ``invalidRequest`` error; see the kind for what it means.
    public static func invalidRequest(reason: String) -> CourierError {
        CourierError(
            code: .invalidRequest,
            description: "Invalid request: \(reason)",
            reason: reason)
    }

    // MARK: Transport

    /// The host name could not be resolved; ``subject`` is the host.
    ///
    /// As a kind, for `switch` and `==`: `case .dnsFailure:` matches every `dnsFailure` error.
    public static let dnsFailure = CourierError(code: .dnsFailure, description: "dnsFailure")

    /// A ``dnsFailure`` error; see the kind for what it means.
    public static func dnsFailure(host: String) -> CourierError {
        CourierError(
            code: .dnsFailure,
            description: "Could not resolve host '\(host)'",
            subject: host)
    }

    /// No connection could be made to the server (refused, unreachable).
    ///
    /// As a kind, for `switch` and `==`: `case .cannotConnect:` matches every `cannotConnect` error.
    public static let cannotConnect = CourierError(code: .cannotConnect, description: "cannotConnect")

    /// A ``cannotConnect`` error; see the kind for what it means.
    public static func cannotConnect(message: String) -> CourierError {
        CourierError(
            code: .cannotConnect,
            description: "Cannot connect: \(message)",
            reason: message)
    }

    /// The request took too long; ``timeoutKind`` says which limit fired.
    ///
    /// As a kind, for `switch` and `==`: `case .timedOut:` matches every `timedOut` error.
    public static let timedOut = CourierError(code: .timedOut, description: "timedOut")

    /// A ``timedOut`` error; see the kind for what it means.
    public static func timedOut(_ kind: TimeoutKind) -> CourierError {
        CourierError(
            code: .timedOut,
            description: "Timed out (\(kind.rawValue) timeout)",
            timeoutKind: kind)
    }

    /// The TLS handshake or certificate verification failed.
    ///
    /// As a kind, for `switch` and `==`: `case .tlsFailure:` matches every `tlsFailure` error.
    public static let tlsFailure = CourierError(code: .tlsFailure, description: "tlsFailure")

    /// A ``tlsFailure`` error; see the kind for what it means.
    public static func tlsFailure(message: String) -> CourierError {
        CourierError(
            code: .tlsFailure,
            description: "TLS failure: \(message)",
            reason: message)
    }

    /// The server's public key did not match any pinned key.
    ///
    /// As a kind, for `switch` and `==`: `case .pinnedKeyMismatch:` matches every `pinnedKeyMismatch` error.
    public static let pinnedKeyMismatch = CourierError(
        code: .pinnedKeyMismatch, description: "The server's public key matches no pinned key")

    /// More redirects were offered than the configured maximum (``limit``) allows.
    ///
    /// As a kind, for `switch` and `==`: `case .tooManyRedirects:` matches every `tooManyRedirects` error.
    public static let tooManyRedirects = CourierError(code: .tooManyRedirects, description: "tooManyRedirects")

    /// A ``tooManyRedirects`` error; see the kind for what it means.
    public static func tooManyRedirects(limit: Int) -> CourierError {
        CourierError(
            code: .tooManyRedirects,
            description: "Too many redirects (limit \(limit))",
            limit: limit)
    }

    /// A redirect pointed at a scheme other than `http` or `https`; ``subject`` is its target.
    ///
    /// As a kind, for `switch` and `==`: `case .redirectRefused:` matches every `redirectRefused` error.
    public static let redirectRefused = CourierError(code: .redirectRefused, description: "redirectRefused")

    /// A ``redirectRefused`` error; see the kind for what it means.
    public static func redirectRefused(location: String) -> CourierError {
        CourierError(
            code: .redirectRefused,
            description: "Redirect to a disallowed URL refused: \(location)",
            subject: location)
    }

    /// A redirect from `https` to plain `http` was refused (``SecurityPolicy/allowsInsecureRedirects`` is off); ``subject`` is its target.
    ///
    /// As a kind, for `switch` and `==`: `case .insecureRedirect:` matches every `insecureRedirect` error.
    public static let insecureRedirect = CourierError(code: .insecureRedirect, description: "insecureRedirect")

    /// A ``insecureRedirect`` error; see the kind for what it means.
    public static func insecureRedirect(location: String) -> CourierError {
        CourierError(
            code: .insecureRedirect,
            description:
                "Redirect from https to plain http refused: \(location) (see SecurityPolicy.allowsInsecureRedirects)",
            subject: location)
    }

    /// The request was cancelled, by `cancel()` or by Swift task cancellation.
    ///
    /// As a kind, for `switch` and `==`: `case .cancelled:` matches every `cancelled` error.
    public static let cancelled = CourierError(code: .cancelled, description: "The request was cancelled")

    /// The session was shut down (``Session/shutdown()``): a request made or attempted after
    /// that completes at once with this error, and is never retried.
    ///
    /// As a kind, for `switch` and `==`: `case .sessionShutDown:` matches every `sessionShutDown` error.
    public static let sessionShutDown = CourierError(
        code: .sessionShutDown, description: "The session was shut down")

    /// The decoded response body exceeded the configured limit (``limit``, in bytes).
    ///
    /// As a kind, for `switch` and `==`: `case .responseTooLarge:` matches every `responseTooLarge` error.
    public static let responseTooLarge = CourierError(code: .responseTooLarge, description: "responseTooLarge")

    /// A ``responseTooLarge`` error; see the kind for what it means.
    public static func responseTooLarge(limit: Int) -> CourierError {
        CourierError(
            code: .responseTooLarge,
            description: "Response larger than the limit of \(limit) bytes",
            limit: limit)
    }

    /// The connection closed before the whole response arrived.
    ///
    /// As a kind, for `switch` and `==`: `case .truncatedResponse:` matches every `truncatedResponse` error.
    public static let truncatedResponse = CourierError(code: .truncatedResponse, description: "truncatedResponse")

    /// A ``truncatedResponse`` error; see the kind for what it means.
    public static func truncatedResponse(message: String) -> CourierError {
        CourierError(
            code: .truncatedResponse,
            description: "Connection closed before the response was complete: \(message)",
            reason: message)
    }

    /// The server sent something that is not valid HTTP. Never retried.
    ///
    /// As a kind, for `switch` and `==`: `case .protocolViolation:` matches every `protocolViolation` error.
    public static let protocolViolation = CourierError(code: .protocolViolation, description: "protocolViolation")

    /// A ``protocolViolation`` error; see the kind for what it means.
    public static func protocolViolation(message: String) -> CourierError {
        CourierError(
            code: .protocolViolation,
            description: "Invalid HTTP from server: \(message)",
            reason: message)
    }

    /// Any other libcurl failure; ``transportCode`` is its `CURLcode`.
    ///
    /// As a kind, for `switch` and `==`: `case .transport:` matches every `transport` error.
    public static let transport = CourierError(code: .transport, description: "transport")

    /// A ``transport`` error; see the kind for what it means.
    public static func transport(code: Int, message: String) -> CourierError {
        CourierError(
            code: .transport,
            description: "Transfer failed (curl \(code)): \(message)",
            reason: message,
            transportCode: code)
    }

    /// A transport other than the engine (a stub, a replay store, your own) had no answer for the request; ``reason`` describes the request and what was missing.
    ///
    /// As a kind, for `switch` and `==`: `case .unhandledRequest:` matches every `unhandledRequest` error.
    public static let unhandledRequest = CourierError(code: .unhandledRequest, description: "unhandledRequest")

    /// A ``unhandledRequest`` error; see the kind for what it means.
    public static func unhandledRequest(reason: String) -> CourierError {
        CourierError(
            code: .unhandledRequest,
            description: "No response for the request: \(reason)",
            reason: reason)
    }

    // MARK: Validation and serialization

    /// `validate()` rejected the response's status code (``statusCode``).
    ///
    /// As a kind, for `switch` and `==`: `case .unacceptableStatusCode:` matches every `unacceptableStatusCode` error.
    public static let unacceptableStatusCode = CourierError(
        code: .unacceptableStatusCode, description: "unacceptableStatusCode")

    /// A ``unacceptableStatusCode`` error; see the kind for what it means.
    public static func unacceptableStatusCode(_ code: Int) -> CourierError {
        CourierError(
            code: .unacceptableStatusCode,
            description: "Unacceptable status code \(code)",
            statusCode: code)
    }

    /// `validate(contentType:)` rejected the response's content type (``subject``, nil when there was none).
    ///
    /// As a kind, for `switch` and `==`: `case .unacceptableContentType:` matches every `unacceptableContentType` error.
    public static let unacceptableContentType = CourierError(
        code: .unacceptableContentType, description: "unacceptableContentType")

    /// A ``unacceptableContentType`` error; see the kind for what it means.
    public static func unacceptableContentType(_ contentType: String?) -> CourierError {
        CourierError(
            code: .unacceptableContentType,
            description: "Unacceptable content type \(contentType ?? "(none)")",
            subject: contentType)
    }

    /// The body could not be decoded; ``subject`` names the failing coding path (empty for the root).
    ///
    /// As a kind, for `switch` and `==`: `case .decodingFailed:` matches every `decodingFailed` error.
    public static let decodingFailed = CourierError(code: .decodingFailed, description: "decodingFailed")

    /// A ``decodingFailed`` error; see the kind for what it means.
    public static func decodingFailed(path: String, reason: String) -> CourierError {
        CourierError(
            code: .decodingFailed,
            description: "Decoding failed at \(path.isEmpty ? "(root)" : path): \(reason)",
            subject: path,
            reason: reason)
    }

    /// The body is not text in the expected encoding.
    ///
    /// As a kind, for `switch` and `==`: `case .stringDecodingFailed:` matches every `stringDecodingFailed` error.
    public static let stringDecodingFailed = CourierError(
        code: .stringDecodingFailed, description: "The response body is not valid text")

    // MARK: Plugins and interceptors

    /// A ``Plugin``'s hook threw an error that is not a `CourierError`; ``subject`` is the plugin's type name and ``underlying`` the error it threw.
    ///
    /// As a kind, for `switch` and `==`: `case .pluginFailed:` matches every `pluginFailed` error.
    public static let pluginFailed = CourierError(code: .pluginFailed, description: "pluginFailed")

    /// A ``pluginFailed`` error; see the kind for what it means.
    public static func pluginFailed(plugin: String, hook: PluginHook, underlying: any Error) -> CourierError {
        CourierError(
            code: .pluginFailed,
            description: "Plugin \(plugin) failed in \(hook.rawValue): \(String(describing: underlying))",
            subject: plugin,
            reason: String(describing: underlying),
            underlying: underlying)
    }

    /// A ``RequestInterceptor``'s adapter threw an error that is not a `CourierError`; the request was not sent. ``subject`` is the interceptor's type name and ``underlying`` the error it threw.
    ///
    /// As a kind, for `switch` and `==`: `case .adaptationFailed:` matches every `adaptationFailed` error.
    public static let adaptationFailed = CourierError(code: .adaptationFailed, description: "adaptationFailed")

    /// A ``adaptationFailed`` error; see the kind for what it means.
    public static func adaptationFailed(interceptor: String, underlying: any Error) -> CourierError {
        CourierError(
            code: .adaptationFailed,
            description: "Interceptor \(interceptor) could not adapt the request: \(String(describing: underlying))",
            subject: interceptor,
            reason: String(describing: underlying),
            underlying: underlying)
    }

    // MARK: Authentication

    /// The endpoint needs a credential and the ``AuthenticationInterceptor`` has none (nobody signed in); the request was not sent.
    ///
    /// As a kind, for `switch` and `==`: `case .missingCredential:` matches every `missingCredential` error.
    public static let missingCredential = CourierError(
        code: .missingCredential, description: "The endpoint needs a credential and none is set (sign in first)")

    /// Refreshing the credential failed; every request waiting for the refresh fails with this. ``underlying`` is what the refresh threw: a `CourierError` such as ``cannotConnect`` when the refresh call itself could not reach the server.
    ///
    /// As a kind, for `switch` and `==`: `case .credentialRefreshFailed:` matches every `credentialRefreshFailed` error.
    public static let credentialRefreshFailed = CourierError(
        code: .credentialRefreshFailed, description: "credentialRefreshFailed")

    /// A ``credentialRefreshFailed`` error; see the kind for what it means.
    public static func credentialRefreshFailed(underlying: any Error) -> CourierError {
        CourierError(
            code: .credentialRefreshFailed,
            description: "Refreshing the credential failed: \(String(describing: underlying))",
            reason: String(describing: underlying),
            underlying: underlying)
    }

    /// More than ``limit`` refreshes were needed within the window: the server keeps refusing fresh credentials, so refreshing stops (until the window has passed) instead of looping.
    ///
    /// As a kind, for `switch` and `==`: `case .tooManyCredentialRefreshes:` matches every `tooManyCredentialRefreshes` error.
    public static let tooManyCredentialRefreshes = CourierError(
        code: .tooManyCredentialRefreshes, description: "tooManyCredentialRefreshes")

    /// A ``tooManyCredentialRefreshes`` error; see the kind for what it means.
    public static func tooManyCredentialRefreshes(limit: Int, window: TimeInterval) -> CourierError {
        CourierError(
            code: .tooManyCredentialRefreshes,
            description:
                "The credential was refreshed \(limit) times within \(Int(window)) s and is still refused; not refreshing again",
            limit: limit)
    }
}

extension CourierError {
    /// What kind of error this is, as stored: compared by ``==``, printed by ``kindName``.
    enum Code: String, Sendable {
        case invalidURL
        case unsupportedScheme
        case invalidHeader
        case parameterEncodingFailed
        case multipartEncodingFailed
        case invalidRequest
        case dnsFailure
        case cannotConnect
        case timedOut
        case tlsFailure
        case pinnedKeyMismatch
        case tooManyRedirects
        case redirectRefused
        case insecureRedirect
        case cancelled
        case sessionShutDown
        case responseTooLarge
        case truncatedResponse
        case protocolViolation
        case transport
        case unhandledRequest
        case unacceptableStatusCode
        case unacceptableContentType
        case decodingFailed
        case stringDecodingFailed
        case pluginFailed
        case adaptationFailed
        case missingCredential
        case credentialRefreshFailed
        case tooManyCredentialRefreshes
    }
}
