import Foundation

// The types a ``Router`` may declare for `headers`, `defaultHeaders`, `parameters` and `timeout`.
// These requirements have defaults, and a protocol default silently wins over a property of the
// same name but another type. So each requirement's type is an associated type constrained to one
// of these protocols: the habits of Moya and Alamofire routers (`var headers: [String: String]?`,
// `var timeout: TimeInterval`) conform and work; a dictionary of parameters, whose encoding would
// be a guess, is refused by the compiler with a message saying what to write.

/// A value a ``Router`` can give as its ``Router/headers`` or ``Router/defaultHeaders``:
/// ``HTTPHeaders``, `[String: String]` (Moya's `TargetType` habit, sent sorted by name), or an
/// optional of either (nil sends none).
public protocol HTTPHeadersConvertible {
    /// The headers.
    var httpHeaders: HTTPHeaders { get }
}

extension HTTPHeaders: HTTPHeadersConvertible {
    /// Itself.
    public var httpHeaders: HTTPHeaders { self }
}

extension Dictionary: HTTPHeadersConvertible where Key == String, Value == String {
    /// The headers, sorted by name so the order is deterministic.
    public var httpHeaders: HTTPHeaders { HTTPHeaders(self) }
}

extension Optional: HTTPHeadersConvertible where Wrapped: HTTPHeadersConvertible {
    /// The wrapped headers, or none.
    public var httpHeaders: HTTPHeaders { self?.httpHeaders ?? HTTPHeaders() }
}

/// A value a ``Router`` can give as its ``Router/parameters``: a ``RequestParams``, which says
/// where the parameters go and how they are encoded. A bare dictionary does not say that, so
/// declaring `var parameters: [String: Any]` (or an optional) is a compile error naming the
/// cases to use instead.
public protocol RequestParamsConvertible {
    /// The parameters and their encoding.
    var requestParams: RequestParams { get }
}

extension RequestParams: RequestParamsConvertible {
    /// Itself.
    public var requestParams: RequestParams { self }
}

@available(
    *, unavailable,
    message:
        "a Router's parameters say how they are encoded: return RequestParams, e.g. .body(dict) for JSON, .parameters(dict) for URL encoding (query for GET/HEAD/DELETE, form otherwise), .query(dict), .form(dict)"
)
extension Dictionary: RequestParamsConvertible {
    /// Unavailable: say how the dictionary is encoded.
    public var requestParams: RequestParams { .requestPlain }
}

@available(
    *, unavailable, message: "a Router's parameters are not optional: return RequestParams, and .requestPlain for none"
)
extension Optional: RequestParamsConvertible {
    /// Unavailable: return ``RequestParams/requestPlain`` for no parameters.
    public var requestParams: RequestParams { .requestPlain }
}

/// A value a ``Router`` can give as its ``Router/timeout``: seconds as a `TimeInterval` or an
/// `Int`, a `Duration`, or an optional of these (nil keeps the session's timeout).
public protocol TimeoutConvertible {
    /// The timeout in seconds, or nil for the session's own.
    var timeoutSeconds: TimeInterval? { get }
}

extension Double: TimeoutConvertible {
    /// The value, in seconds.
    public var timeoutSeconds: TimeInterval? { self }
}

extension Int: TimeoutConvertible {
    /// The value, in seconds.
    public var timeoutSeconds: TimeInterval? { TimeInterval(self) }
}

extension Duration: TimeoutConvertible {
    /// The duration in seconds.
    public var timeoutSeconds: TimeInterval? {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension Optional: TimeoutConvertible where Wrapped: TimeoutConvertible {
    /// The wrapped timeout, or nil.
    public var timeoutSeconds: TimeInterval? { self?.timeoutSeconds ?? nil }
}
