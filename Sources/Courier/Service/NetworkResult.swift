/// The outcome of a service call: the decoded value, or which kind of failure happened and why.
///
/// A service method returns one of these, and the caller switches over exactly five cases:
/// ```swift
/// switch await AuthService.shared.signIn(email: email, pw: pw) {
/// case .success(let signIn):            showHome(signIn)
/// case .requestErr(let failure):        showAlert(failure.message ?? "Check your input")
/// case .pathErr:                        showAlert("Unexpected response")
/// case .serverErr, .networkFail:        showRetry()
/// }
/// ```
/// Every failure case carries one ``ServiceFailure`` (HTTP status, the server's message, the raw
/// body and the underlying error), so `case .pathErr:` without bindings compiles as well as
/// `case .requestErr(let failure):`.
///
/// `.success` carries the value itself. When the caller must tell one success status from
/// another (200 *signed in* versus 201 *account created*), ask for a ``ServiceReply`` instead:
/// `.success(let reply)` then has `reply.statusCode` and `reply.value`.
public enum NetworkResult<Value: Sendable>: Sendable {
    /// A 2xx response whose body decoded as promised.
    case success(Value)
    /// The server rejected the request: a 4xx status, or a 2xx envelope whose success flag is false.
    case requestErr(ServiceFailure)
    /// The response could not be turned into the promised value: the body (or the envelope's
    /// payload) does not decode, is missing, or is empty (or `validate(contentType:)` refused a
    /// 2xx). Its description leads with the decoding failure: path, expected type, what was found.
    case pathErr(ServiceFailure)
    /// The server failed: a 5xx status, or a status the client cannot use (1xx, 3xx, or a 2xx
    /// the request's `validate()` refused).
    case serverErr(ServiceFailure)
    /// No usable HTTP response: the request could not be built, the connection failed, timed out,
    /// was cut short, or was cancelled (`failure.error == .cancelled`).
    case networkFail(ServiceFailure)

    /// The value on success, else nil.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The failure context on failure, else nil (so `result.failure == nil` tells a success).
    public var failure: ServiceFailure? {
        switch self {
        case .success: return nil
        case .requestErr(let failure), .pathErr(let failure), .serverErr(let failure), .networkFail(let failure):
            return failure
        }
    }

    /// The same outcome with the success value transformed; failures pass through unchanged.
    public func map<NewValue: Sendable>(_ transform: (Value) -> NewValue) -> NetworkResult<NewValue> {
        switch self {
        case .success(let value): return .success(transform(value))
        case .requestErr(let failure): return .requestErr(failure)
        case .pathErr(let failure): return .pathErr(failure)
        case .serverErr(let failure): return .serverErr(failure)
        case .networkFail(let failure): return .networkFail(failure)
        }
    }

    /// The value, or throws the ``ServiceError`` describing the failure (its case is this
    /// result's failure case).
    public func get() throws(ServiceError) -> Value {
        switch self {
        case .success(let value): return value
        case .requestErr(let failure): throw .requestErr(failure)
        case .pathErr(let failure): throw .pathErr(failure)
        case .serverErr(let failure): throw .serverErr(failure)
        case .networkFail(let failure): throw .networkFail(failure)
        }
    }
}

extension NetworkResult: Equatable where Value: Equatable {}

extension NetworkResult: CustomStringConvertible {
    /// `success(…)` or the failure kind with its one-line description, for logs.
    public var description: String {
        switch self {
        case .success(let value): return "success(\(value))"
        case .requestErr(let failure): return "requestErr(\(failure))"
        case .pathErr(let failure): return "pathErr(\(failure))"
        case .serverErr(let failure): return "serverErr(\(failure))"
        case .networkFail(let failure): return "networkFail(\(failure))"
        }
    }
}
