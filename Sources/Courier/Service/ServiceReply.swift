/// A decoded value together with the status and headers of the response it came from.
///
/// Ask for it when a success status matters, for example 200 for a returning user and 201 for a
/// new one:
/// ```swift
/// switch await LoginService.shared.signIn(email: email) {   // NetworkResult<ServiceReply<Login>>
/// case .success(let reply) where reply.statusCode == 201: welcomeNewUser(reply.value)
/// case .success(let reply):                              welcomeBack(reply.value.name)
/// default: break
/// }
/// ```
/// Request it with `as: ServiceReply<Login>.self` in any ``BaseService`` helper.
public struct ServiceReply<Value: Sendable>: Sendable {
    /// The decoded value.
    public var value: Value
    /// The HTTP status code of the response (2xx unless `judgeStatus` was overridden).
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders

    /// Creates a reply.
    public init(value: Value, statusCode: Int, headers: HTTPHeaders = []) {
        self.value = value
        self.statusCode = statusCode
        self.headers = headers
    }
}

extension ServiceReply: Equatable where Value: Equatable {}
