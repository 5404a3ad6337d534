/// An HTTP request method such as `GET` or `POST`.
///
/// The standard methods are available as static members; any other token can be
/// used through ``init(rawValue:)`` or a string literal:
/// ```swift
/// let method: HTTPMethod = .post
/// let custom = HTTPMethod(rawValue: "PURGE")
/// ```
/// The raw value is sent as is, so it must be an HTTP token (letters, digits and
/// `!#$%&'*+-.^_|~` and the backtick); a request with anything else fails with ``CourierError/invalidRequest``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token exactly as sent on the request line, for example `"GET"`.
    public let rawValue: String
    /// Whether `rawValue` is a valid, non-empty HTTP token (RFC 9110 `token`): worked out once,
    /// when the method is made, not on every request (the standard methods are made once).
    let isValidToken: Bool

    /// Creates a method from its token, for example `HTTPMethod(rawValue: "PURGE")`.
    public init(rawValue: String) {
        self.rawValue = rawValue
        isValidToken = Self.isToken(rawValue)
    }

    /// Creates a method from a string literal, for example `let m: HTTPMethod = "PURGE"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method token, for example `"GET"`.
    public var description: String { rawValue }

    /// `CONNECT`: establishes a tunnel to the target server.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `DELETE`: removes the target resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `GET`: retrieves the target resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET` but without a response body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: describes the communication options for the target.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`: applies a partial modification to the target resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `POST`: submits data to be processed by the target resource.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replaces the target resource with the request body.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `QUERY`: a safe, idempotent request whose query is carried in the body.
    public static let query = HTTPMethod(rawValue: "QUERY")
    /// `TRACE`: performs a message loop-back test along the path to the target.
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// Whether `text` is a valid, non-empty HTTP token (RFC 9110 `token`).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.firstByte(where: { !HTTPToken.isTokenByte($0) }) == nil
    }

    /// Whether parameters for this method go into the query string when
    /// ``RequestParams/parameters(_:options:)`` is used (`GET`, `HEAD` and `DELETE`).
    var encodesParametersInURL: Bool {
        self == .get || self == .head || self == .delete
    }
}

/// Character rules shared by method and header-name validation.
enum HTTPToken {
    /// Whether `byte` is a `tchar` of RFC 9110: a digit, a letter, or one of the 15 symbols it lists.
    ///
    /// Every byte of every response header name goes through here, so it is one bit lookup in two
    /// 64-bit masks (bytes 0 to 63, 64 to 127; none above is a token) rather than a chain of
    /// comparisons.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let mask: UInt64 = byte & 0x40 == 0 ? 0x03FF_6CFA_0000_0000 : 0x57FF_FFFF_C7FF_FFFE
        return byte < 0x80 && (mask >> UInt64(byte & 63)) & 1 != 0
    }
}
