import Foundation

/// What is known about a failed service call; carried by every failure case of ``NetworkResult``.
///
/// ```swift
/// case .requestErr(let failure) where failure.statusCode == 409:
///     showAlert(failure.message ?? "Wrong password")
/// case .requestErr(let failure) where failure.appCode == "USER404":
///     offerSignUp()
/// case .networkFail(let failure) where failure.error == .cancelled:
///     return                                  // cancelled by `cancel()` or task cancellation
/// ```
public struct ServiceFailure: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code, or nil when no response arrived (``NetworkResult/networkFail(_:)``).
    public var statusCode: Int?
    /// The server's own explanation, read from the envelope's message field (or, without an
    /// envelope, from a top-level `message`, `error`, `msg` or `detail` text field) when present.
    public var message: String?
    /// The server's application code as sent, in text form, whether it was a string or a number:
    /// `"USER404"`, `"INVALID_TOKEN"`, `"2001"`. Read from the envelope's code (or, without an
    /// envelope, from a top-level `code` field).
    public var appCode: String?
    /// The raw response body (empty when none arrived).
    public var body: Data
    /// The underlying error: the transport failure for ``NetworkResult/networkFail(_:)``, the
    /// ``CourierError/decodingFailed`` for ``NetworkResult/pathErr(_:)``, the
    /// validation error for a status or content type that `validate()` rejected, nil otherwise.
    public var error: CourierError?

    /// Creates a failure context.
    public init(
        statusCode: Int? = nil, message: String? = nil, appCode: String? = nil, body: Data = Data(),
        error: CourierError? = nil
    ) {
        self.statusCode = statusCode
        self.message = message
        self.appCode = appCode
        self.body = body
        self.error = error
    }

    /// The application code as a number, when it is one (`"2001"` → `2001`); nil for codes such
    /// as `"USER404"`, which ``appCode`` holds.
    package var code: Int? { appCode.flatMap { Int($0) } }

    /// The body as UTF-8 text, or nil if it is empty or not UTF-8.
    package var bodyText: String? {
        body.isEmpty ? nil : String(data: body, encoding: .utf8)
    }

    /// `HTTP 404, code USER404: no such user`, or, when there is an underlying error, that error
    /// first and the server's message after it:
    /// `HTTP 200, code COMMON200: Decoding failed at result.id: expected Int, found a string (server message: "success")`.
    public var description: String {
        var parts: [String] = []
        if let statusCode { parts.append("HTTP \(statusCode)") }
        if let appCode { parts.append("code \(appCode)") }
        var text = parts.joined(separator: ", ")
        let detail: String?
        switch (error, message) {
        case let (error?, message?): detail = "\(error) (server message: \"\(message)\")"
        case let (error?, nil): detail = error.description
        case let (nil, message): detail = message
        }
        if let detail { text += text.isEmpty ? detail : ": \(detail)" }
        return text.isEmpty ? "no details" : text
    }
}
