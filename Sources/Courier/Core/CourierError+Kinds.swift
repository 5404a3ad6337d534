import Foundation

// The kinds of CourierError: each is a public static value, for `switch` and `==`. Courier fills in
// an error's details with the package functions in CourierError+Details.swift; code outside
// Courier uses `CourierError(_:reason:underlying:)`.

extension CourierError {

    // MARK: Building the request

    /// A URL could not be formed or parsed; ``subject`` is the offending text.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidURL:` matches every `invalidURL` error.
    public static let invalidURL = CourierError(code: .invalidURL, description: "Invalid URL")

    /// The URL's scheme is not `http` or `https`; ``subject`` is the scheme found.
    ///
    /// As a kind, for `switch` and `==`: `case .unsupportedScheme:` matches every `unsupportedScheme` error.
    public static let unsupportedScheme = CourierError(
        code: .unsupportedScheme, description: "Unsupported URL scheme: only http and https are allowed")

    /// A header name or value is not allowed (for example it contains CR or LF); ``subject`` is its name.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidHeader:` matches every `invalidHeader` error.
    public static let invalidHeader = CourierError(code: .invalidHeader, description: "Invalid header")

    /// A parameter could not be encoded; ``subject`` names where (for example `user.birthday`).
    ///
    /// As a kind, for `switch` and `==`: `case .parameterEncodingFailed:` matches every `parameterEncodingFailed` error.
    public static let parameterEncodingFailed = CourierError(
        code: .parameterEncodingFailed, description: "Cannot encode a parameter")

    /// A multipart body could not be assembled (for example a file part could not be read).
    ///
    /// As a kind, for `switch` and `==`: `case .multipartEncodingFailed:` matches every `multipartEncodingFailed` error.
    public static let multipartEncodingFailed = CourierError(
        code: .multipartEncodingFailed, description: "Cannot build multipart body")

    /// The request is malformed in another way; ``reason`` says how.
    ///
    /// As a kind, for `switch` and `==`: `case .invalidRequest:` matches every `invalidRequest` error.
    public static let invalidRequest = CourierError(code: .invalidRequest, description: "Invalid request")

    // MARK: Transport

    /// The host name could not be resolved; ``subject`` is the host.
    ///
    /// As a kind, for `switch` and `==`: `case .dnsFailure:` matches every `dnsFailure` error.
    public static let dnsFailure = CourierError(code: .dnsFailure, description: "Could not resolve the host")

    /// No connection could be made to the server (refused, unreachable).
    ///
    /// As a kind, for `switch` and `==`: `case .cannotConnect:` matches every `cannotConnect` error.
    public static let cannotConnect = CourierError(code: .cannotConnect, description: "Cannot connect")

    /// The request took too long; ``timeoutKind`` says which limit fired.
    ///
    /// As a kind, for `switch` and `==`: `case .timedOut:` matches every `timedOut` error.
    public static let timedOut = CourierError(code: .timedOut, description: "Timed out")

    /// The TLS handshake or certificate verification failed.
    ///
    /// As a kind, for `switch` and `==`: `case .tlsFailure:` matches every `tlsFailure` error.
    public static let tlsFailure = CourierError(code: .tlsFailure, description: "TLS failure")

    /// The server's public key did not match any pinned key.
    ///
    /// As a kind, for `switch` and `==`: `case .pinnedKeyMismatch:` matches every `pinnedKeyMismatch` error.
    public static let pinnedKeyMismatch = CourierError(
        code: .pinnedKeyMismatch, description: "The server's public key matches no pinned key")

    /// More redirects were offered than the configured maximum (``limit``) allows.
    ///
    /// As a kind, for `switch` and `==`: `case .tooManyRedirects:` matches every `tooManyRedirects` error.
    public static let tooManyRedirects = CourierError(code: .tooManyRedirects, description: "Too many redirects")

    /// A redirect pointed at a scheme other than `http` or `https`; ``subject`` is its target.
    ///
    /// As a kind, for `switch` and `==`: `case .redirectRefused:` matches every `redirectRefused` error.
    public static let redirectRefused = CourierError(
        code: .redirectRefused, description: "Redirect to a disallowed URL refused")

    /// A redirect from `https` to plain `http` was refused (``SecurityPolicy/allowsInsecureRedirects`` is off); ``subject`` is its target.
    ///
    /// As a kind, for `switch` and `==`: `case .insecureRedirect:` matches every `insecureRedirect` error.
    public static let insecureRedirect = CourierError(
        code: .insecureRedirect,
        description: "Redirect from https to plain http refused (see SecurityPolicy.allowsInsecureRedirects)")

    /// The request was cancelled, by `cancel()` or by Swift task cancellation.
    ///
    /// As a kind, for `switch` and `==`: `case .cancelled:` matches every `cancelled` error.
    public static let cancelled = CourierError(code: .cancelled, description: "The request was cancelled")

    /// The session was shut down (``Session/shutdown()``): a request made or attempted after that completes at once with this error, and is never retried.
    ///
    /// As a kind, for `switch` and `==`: `case .sessionShutDown:` matches every `sessionShutDown` error.
    public static let sessionShutDown = CourierError(code: .sessionShutDown, description: "The session was shut down")

    /// The decoded response body exceeded the configured limit (``limit``, in bytes).
    ///
    /// As a kind, for `switch` and `==`: `case .responseTooLarge:` matches every `responseTooLarge` error.
    public static let responseTooLarge = CourierError(
        code: .responseTooLarge, description: "Response larger than the limit")

    /// The connection closed before the whole response arrived.
    ///
    /// As a kind, for `switch` and `==`: `case .truncatedResponse:` matches every `truncatedResponse` error.
    public static let truncatedResponse = CourierError(
        code: .truncatedResponse, description: "Connection closed before the response was complete")

    /// The server sent something that is not valid HTTP. Never retried.
    ///
    /// As a kind, for `switch` and `==`: `case .protocolViolation:` matches every `protocolViolation` error.
    public static let protocolViolation = CourierError(
        code: .protocolViolation, description: "Invalid HTTP from server")

    /// Any other libcurl failure; ``transportCode`` is its `CURLcode`.
    ///
    /// As a kind, for `switch` and `==`: `case .transport:` matches every `transport` error.
    public static let transport = CourierError(code: .transport, description: "Transfer failed")

    /// A transport other than the engine (a stub, a replay store, your own) had no answer for the request; ``reason`` describes the request and what was missing.
    ///
    /// As a kind, for `switch` and `==`: `case .unhandledRequest:` matches every `unhandledRequest` error.
    public static let unhandledRequest = CourierError(
        code: .unhandledRequest, description: "No response for the request")

    // MARK: Validation and serialization

    /// `validate()` rejected the response's status code (``statusCode``).
    ///
    /// As a kind, for `switch` and `==`: `case .unacceptableStatusCode:` matches every `unacceptableStatusCode` error.
    public static let unacceptableStatusCode = CourierError(
        code: .unacceptableStatusCode, description: "Unacceptable status code")

    /// `validate(contentType:)` rejected the response's content type (``subject``, nil when there was none).
    ///
    /// As a kind, for `switch` and `==`: `case .unacceptableContentType:` matches every `unacceptableContentType` error.
    public static let unacceptableContentType = CourierError(
        code: .unacceptableContentType, description: "Unacceptable content type")

    /// The body could not be decoded; ``subject`` names the failing coding path (empty for the root).
    ///
    /// As a kind, for `switch` and `==`: `case .decodingFailed:` matches every `decodingFailed` error.
    public static let decodingFailed = CourierError(code: .decodingFailed, description: "Decoding failed")

    /// The body is not text in the expected encoding.
    ///
    /// As a kind, for `switch` and `==`: `case .stringDecodingFailed:` matches every `stringDecodingFailed` error.
    public static let stringDecodingFailed = CourierError(
        code: .stringDecodingFailed, description: "The response body is not valid text")

    // MARK: Plugins and interceptors

    /// A ``Plugin``'s hook threw an error that is not a `CourierError`; ``subject`` is the plugin's type name and ``underlying`` the error it threw.
    ///
    /// As a kind, for `switch` and `==`: `case .pluginFailed:` matches every `pluginFailed` error.
    public static let pluginFailed = CourierError(code: .pluginFailed, description: "A plugin failed")

    /// A ``RequestInterceptor``'s adapter threw an error that is not a `CourierError`; the request was not sent. ``subject`` is the interceptor's type name and ``underlying`` the error it threw.
    ///
    /// As a kind, for `switch` and `==`: `case .adaptationFailed:` matches every `adaptationFailed` error.
    public static let adaptationFailed = CourierError(
        code: .adaptationFailed, description: "An interceptor could not adapt the request")

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
        code: .credentialRefreshFailed, description: "Refreshing the credential failed")

    /// More than ``limit`` refreshes were needed within the window: the server keeps refusing fresh credentials, so refreshing stops (until the window has passed) instead of looping.
    ///
    /// As a kind, for `switch` and `==`: `case .tooManyCredentialRefreshes:` matches every `tooManyCredentialRefreshes` error.
    public static let tooManyCredentialRefreshes = CourierError(
        code: .tooManyCredentialRefreshes,
        description: "The credential was refreshed too often and is still refused; not refreshing again")
}

extension CourierError {
    /// What kind of error this is, as stored: compared by `==`, printed by `kind`.
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
