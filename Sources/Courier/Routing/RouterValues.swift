import Foundation

// The types a ``Router`` may declare for `headers`, `defaultHeaders`, `parameters` and `timeout`.
// These requirements have defaults, and a protocol default silently wins over a property of the
// same name but another type. So each requirement's type is an associated type:
// - `headers`, `defaultHeaders` and `timeout` are unconstrained, so whatever type a router
//   declares is the one used (never a default behind its back). `RouterValue` reads the habits of
//   Moya and Alamofire routers (`var headers: [String: String]?`, `var timeout: TimeInterval`);
//   any other type fails when the request is built, with an error naming the property and what
//   to declare. No standard-library type conforms to a Courier protocol for this.
// - `parameters` is unconstrained too, so a router's own declaration is always the one inferred;
//   the request-building defaults exist only when it is `RequestParams`, and
//   unavailable ones with a message saying what to write stand in otherwise. So a dictionary of
//   parameters, whose encoding would be a guess, or an optional, is refused by the compiler.

/// Reads the values a router declares for `headers`, `defaultHeaders` and `timeout`, whatever
/// their declared type; an unsupported type fails the request, naming the property.
enum RouterValue {
    /// ``HTTPHeaders`` or `[String: String]` (sent sorted by name), or an optional of either (nil
    /// sends none).
    static func headers<T>(_ value: T, of property: String) throws(CourierError) -> HTTPHeaders {
        // The common declaration without a dynamic cast (a cast costs more than the rest).
        if T.self == HTTPHeaders.self { return unsafeBitCast(value, to: HTTPHeaders.self) }
        if let headers = value as? HTTPHeaders { return headers }
        if let dictionary = value as? [String: String] { return HTTPHeaders(dictionary) }
        if T.self == HTTPHeaders?.self || T.self == [String: String]?.self { return HTTPHeaders() }
        throw .invalidRequest(
            reason:
                "a Router's \(property) of type \(T.self) is not supported: declare HTTPHeaders (a dictionary literal works) or [String: String], optional or not"
        )
    }

    /// Seconds as a `TimeInterval` or an `Int`, a `Duration`, or an optional of these (nil keeps
    /// the session's timeout).
    static func timeout<T>(_ value: T) throws(CourierError) -> TimeInterval? {
        if T.self == TimeInterval?.self { return unsafeBitCast(value, to: TimeInterval?.self) }
        if let seconds = value as? TimeInterval { return seconds }
        if let seconds = value as? Int { return TimeInterval(seconds) }
        if let duration = value as? Duration {
            let (seconds, attoseconds) = duration.components
            return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        }
        if T.self == TimeInterval?.self || T.self == Int?.self || T.self == Duration?.self { return nil }
        throw .invalidRequest(
            reason:
                "a Router's timeout of type \(T.self) is not supported: declare TimeInterval? (seconds), Int or Duration, optional or not"
        )
    }
}
