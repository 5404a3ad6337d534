import Foundation

/// What is known about a failed service call; carried by every failure case of ``NetworkResult``.
///
/// ```swift
/// case .requestErr(let failure) where failure.statusCode == 409:
///     showAlert(failure.message ?? "Wrong password")
/// ```
public struct ServiceFailure: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code, or nil when no response arrived (``NetworkResult/networkFail(_:)``).
    public var statusCode: Int?
    /// The server's own explanation, read from the envelope's message field (or, without an
    /// envelope, from a top-level `message`, `error`, `msg` or `detail` text field) when present.
    public var message: String?
    /// The envelope's application code (for example `2001` in `{isSuccess, code, message, result}`).
    public var code: Int?
    /// The raw response body (empty when none arrived).
    public var body: Data
    /// The underlying error: the transport failure for ``NetworkResult/networkFail(_:)``, the
    /// ``CourierError/decodingFailed(path:reason:)`` for ``NetworkResult/pathErr(_:)``, nil otherwise.
    public var error: CourierError?

    /// Creates a failure context.
    public init(statusCode: Int? = nil, message: String? = nil, code: Int? = nil, body: Data = Data(),
                error: CourierError? = nil) {
        self.statusCode = statusCode
        self.message = message
        self.code = code
        self.body = body
        self.error = error
    }

    /// The body as UTF-8 text, or nil if it is empty or not UTF-8.
    public var bodyText: String? {
        body.isEmpty ? nil : String(data: body, encoding: .utf8)
    }

    /// Whether the call failed because it was cancelled (by `cancel()` or Swift task cancellation).
    public var isCancelled: Bool { error == .cancelled }

    /// `HTTP 404: no such user`, `HTTP 200: Decoding failed at data.id: …` or the transport error.
    public var description: String {
        var parts: [String] = []
        if let statusCode { parts.append("HTTP \(statusCode)") }
        if let code { parts.append("code \(code)") }
        var text = parts.joined(separator: ", ")
        let detail = message ?? error?.description
        if let detail { text += text.isEmpty ? detail : ": \(detail)" }
        return text.isEmpty ? "no details" : text
    }
}
