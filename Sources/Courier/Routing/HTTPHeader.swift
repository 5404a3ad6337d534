import Foundation

/// One HTTP header field: a name and its value.
///
/// Names compare case-insensitively inside ``HTTPHeaders``; the spelling given here
/// is the one sent. `Authorization` and `Content-Type` have factory methods:
/// ```swift
/// let headers: HTTPHeaders = [.authorization(bearerToken: token), HTTPHeader(name: "Accept", value: "text/csv")]
/// ```
public struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
    /// The field name, for example `"Content-Type"`.
    public let name: String
    /// The field value, for example `"application/json"`.
    public let value: String

    /// Creates a header; it is validated when the request is built (see `validate()`).
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The header as `"Name: value"`, for printing: the value of a secret header of the default
    /// ``SecurityPolicy`` (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
    /// `X-Api-Key`, `X-Auth-Token`) shows as `<redacted>`. ``value`` holds the value itself.
    public var description: String { "\(name): \(SecurityPolicy.standard.printable(header: name, value: value))" }

    /// Throws ``CourierError/invalidHeader`` unless the name is a non-empty
    /// HTTP token and the value contains no CR, LF or NUL (so no header can be injected).
    package func validate() throws(CourierError) {
        if name.isEmpty {
            throw CourierError.invalidHeader(name: name, reason: "the name is empty")
        }
        if let bad = name.firstByte(where: { !HTTPToken.isTokenByte($0) }) {
            throw CourierError.invalidHeader(
                name: name, reason: "the name contains \(Self.describe(bad)), which is not allowed in a header name")
        }
        if let bad = value.firstByte(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw CourierError.invalidHeader(name: name, reason: "the value contains \(Self.describe(bad))")
        }
    }

    /// A readable name for a rejected byte, for error messages.
    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: return "CR"
        case 0x0A: return "LF"
        case 0x00: return "NUL"
        case 0x20: return "a space"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return String(format: "byte 0x%02X", byte)
        }
    }
}

extension HTTPHeader {
    /// `Authorization: <value>` with a ready-made credential, for example `.authorization("Token abc")`.
    public static func authorization(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Authorization", value: value)
    }

    /// `Authorization: Bearer <token>`, for example `.authorization(bearerToken: "abc")`.
    public static func authorization(bearerToken: String) -> HTTPHeader {
        authorization("Bearer \(bearerToken)")
    }

    /// `Authorization: Basic <base64(username:password)>` (RFC 7617, UTF-8).
    public static func authorization(username: String, password: String) -> HTTPHeader {
        let credential = Data("\(username):\(password)".utf8).base64EncodedString()
        return authorization("Basic \(credential)")
    }

    /// `Content-Type: <value>`, for example `.contentType("application/json")`.
    public static func contentType(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Type", value: value)
    }
}
