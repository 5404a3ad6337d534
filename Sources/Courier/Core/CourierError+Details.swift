import Foundation

// The errors Courier reports, with their details: one package function per kind that carries
// details, named after its kind (CourierError+Kinds.swift).

extension CourierError {

    /// A `invalidURL` error with its details.
    package static func invalidURL(_ text: String) -> CourierError {
        CourierError(
            code: .invalidURL,
            description: "Invalid URL: \(text)",
            subject: text)
    }

    /// A `unsupportedScheme` error with its details.
    package static func unsupportedScheme(_ scheme: String) -> CourierError {
        CourierError(
            code: .unsupportedScheme,
            description: "Unsupported URL scheme '\(scheme)': only http and https are allowed",
            subject: scheme)
    }

    /// A `invalidHeader` error with its details.
    package static func invalidHeader(name: String, reason: String) -> CourierError {
        CourierError(
            code: .invalidHeader,
            description: "Invalid header '\(name)': \(reason)",
            subject: name,
            reason: reason)
    }

    /// A `parameterEncodingFailed` error with its details.
    package static func parameterEncodingFailed(keyPath: String, reason: String) -> CourierError {
        CourierError(
            code: .parameterEncodingFailed,
            description: "Cannot encode parameter '\(keyPath)': \(reason)",
            subject: keyPath,
            reason: reason)
    }

    /// A `multipartEncodingFailed` error with its details.
    package static func multipartEncodingFailed(reason: String) -> CourierError {
        CourierError(
            code: .multipartEncodingFailed,
            description: "Cannot build multipart body: \(reason)",
            reason: reason)
    }

    /// A `invalidRequest` error with its details.
    package static func invalidRequest(reason: String) -> CourierError {
        CourierError(
            code: .invalidRequest,
            description: "Invalid request: \(reason)",
            reason: reason)
    }

    /// A `dnsFailure` error with its details.
    package static func dnsFailure(host: String) -> CourierError {
        CourierError(
            code: .dnsFailure,
            description: "Could not resolve host '\(host)'",
            subject: host)
    }

    /// A `cannotConnect` error with its details.
    package static func cannotConnect(message: String) -> CourierError {
        CourierError(
            code: .cannotConnect,
            description: "Cannot connect: \(message)",
            reason: message)
    }

    /// A `timedOut` error with its details.
    package static func timedOut(_ kind: TimeoutKind) -> CourierError {
        let limit: String
        switch kind {
        case .connect: limit = "connect"
        case .request: limit = "request"
        case .idle: limit = "idle"
        }
        return CourierError(code: .timedOut, description: "Timed out (\(limit) timeout)", timeoutKind: kind)
    }

    /// A `tlsFailure` error with its details.
    package static func tlsFailure(message: String) -> CourierError {
        CourierError(
            code: .tlsFailure,
            description: "TLS failure: \(message)",
            reason: message)
    }

    /// A `tooManyRedirects` error with its details.
    package static func tooManyRedirects(limit: Int) -> CourierError {
        CourierError(
            code: .tooManyRedirects,
            description: "Too many redirects (limit \(limit))",
            limit: limit)
    }

    /// A `redirectRefused` error with its details.
    package static func redirectRefused(location: String) -> CourierError {
        CourierError(
            code: .redirectRefused,
            description: "Redirect to a disallowed URL refused: \(location)",
            subject: location)
    }

    /// A `insecureRedirect` error with its details.
    package static func insecureRedirect(location: String) -> CourierError {
        CourierError(
            code: .insecureRedirect,
            description:
                "Redirect from https to plain http refused: \(location) (see SecurityPolicy.allowsInsecureRedirects)",
            subject: location)
    }

    /// A `responseTooLarge` error with its details.
    package static func responseTooLarge(limit: Int) -> CourierError {
        CourierError(
            code: .responseTooLarge,
            description: "Response larger than the limit of \(limit) bytes",
            limit: limit)
    }

    /// A `truncatedResponse` error with its details.
    package static func truncatedResponse(message: String) -> CourierError {
        CourierError(
            code: .truncatedResponse,
            description: "Connection closed before the response was complete: \(message)",
            reason: message)
    }

    /// A `protocolViolation` error with its details.
    package static func protocolViolation(message: String) -> CourierError {
        CourierError(
            code: .protocolViolation,
            description: "Invalid HTTP from server: \(message)",
            reason: message)
    }

    /// A `transport` error with its details.
    package static func transport(code: Int, message: String) -> CourierError {
        CourierError(
            code: .transport,
            description: "Transfer failed (curl \(code)): \(message)",
            reason: message,
            transportCode: code)
    }

    /// A `unhandledRequest` error with its details.
    package static func unhandledRequest(reason: String) -> CourierError {
        CourierError(
            code: .unhandledRequest,
            description: "No response for the request: \(reason)",
            reason: reason)
    }

    /// A `unacceptableStatusCode` error with its details.
    package static func unacceptableStatusCode(_ code: Int) -> CourierError {
        CourierError(
            code: .unacceptableStatusCode,
            description: "Unacceptable status code \(code)",
            statusCode: code)
    }

    /// A `unacceptableContentType` error with its details.
    package static func unacceptableContentType(_ contentType: String?) -> CourierError {
        CourierError(
            code: .unacceptableContentType,
            description: "Unacceptable content type \(contentType ?? "(none)")",
            subject: contentType)
    }

    /// A `decodingFailed` error with its details.
    package static func decodingFailed(path: String, reason: String) -> CourierError {
        CourierError(
            code: .decodingFailed,
            description: "Decoding failed at \(path.isEmpty ? "(root)" : path): \(reason)",
            subject: path,
            reason: reason)
    }

    /// A `pluginFailed` error with its details.
    package static func pluginFailed(plugin: String, hook: PluginHook, underlying: any Error) -> CourierError {
        CourierError(
            code: .pluginFailed,
            description: "Plugin \(plugin) failed in \(hook.rawValue): \(String(describing: underlying))",
            subject: plugin,
            reason: String(describing: underlying),
            underlying: underlying)
    }

    /// A `adaptationFailed` error with its details.
    package static func adaptationFailed(interceptor: String, underlying: any Error) -> CourierError {
        CourierError(
            code: .adaptationFailed,
            description: "Interceptor \(interceptor) could not adapt the request: \(String(describing: underlying))",
            subject: interceptor,
            reason: String(describing: underlying),
            underlying: underlying)
    }

    /// A `credentialRefreshFailed` error with its details.
    package static func credentialRefreshFailed(underlying: any Error) -> CourierError {
        CourierError(
            code: .credentialRefreshFailed,
            description: "Refreshing the credential failed: \(String(describing: underlying))",
            reason: String(describing: underlying),
            underlying: underlying)
    }

    /// A `tooManyCredentialRefreshes` error with its details.
    package static func tooManyCredentialRefreshes(limit: Int, window: TimeInterval) -> CourierError {
        CourierError(
            code: .tooManyCredentialRefreshes,
            description:
                "The credential was refreshed \(limit) times within \(Int(window)) s and is still refused; not refreshing again",
            limit: limit)
    }
}
