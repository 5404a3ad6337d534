import Dispatch
import Foundation

/// One-line request helpers: a service method names the route and the value it expects.
///
/// ```swift
/// // completion handler, on `queue` (default: the session's callback queue)
/// func signIn(email: String, pw: String, completion: @escaping @Sendable (NetworkResult<SignIn>) -> Void) {
///     request(AuthRouter.signIn(email: email, pw: pw), completion: completion)
/// }
/// // async, never throws
/// func signIn(email: String, pw: String) async -> NetworkResult<SignIn> {
///     await request(AuthRouter.signIn(email: email, pw: pw))
/// }
/// // async throws
/// func latest() async throws(ServiceError) -> [Song] { try await requestValue(HomeAPI.latest) }
/// ```
/// Ask for `ServiceReply<Value>` instead of `Value` to also get the status code and headers.
/// Cancelling the awaiting task (or the returned ``DataRequest``) cancels the transfer; the
/// call then completes with ``NetworkResult/networkFail(_:)`` whose failure's
/// ``ServiceFailure/error`` is ``CourierError/cancelled``.
extension Service {
    // MARK: Completion handlers

    /// Sends `target` and calls `completion` exactly once, on `queue` (or the session's callback
    /// queue), with the judged result. Returns the request so the caller can cancel it.
    @discardableResult
    public func request<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: T.Type = T.self, decodingMode: DecodingMode = .payload,
        queue: DispatchQueue? = nil, completion: @escaping @Sendable (NetworkResult<T>) -> Void
    ) -> DataRequest {
        serviceRequest(target).response(queue: queue) { response in
            completion(self.judge(response, as: type, decodingMode: decodingMode))
        }
    }

    /// Like the completion-handler `request` above, but the value comes with its status code and headers.
    @discardableResult
    public func request<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: ServiceReply<T>.Type = ServiceReply<T>.self,
        decodingMode: DecodingMode = .payload, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (NetworkResult<ServiceReply<T>>) -> Void
    ) -> DataRequest {
        serviceRequest(target).response(queue: queue) { response in
            completion(self.judgeReply(response, as: T.self, decodingMode: decodingMode))
        }
    }

    // MARK: async

    /// Sends `target` and returns the judged result; never throws.
    public func request<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) async -> NetworkResult<T> {
        judge(await serviceRequest(target).response(), as: type, decodingMode: decodingMode)
    }

    /// Sends `target` and returns the judged result with the status code and headers.
    public func request<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: ServiceReply<T>.Type = ServiceReply<T>.self,
        decodingMode: DecodingMode = .payload
    ) async -> NetworkResult<ServiceReply<T>> {
        judgeReply(await serviceRequest(target).response(), as: T.self, decodingMode: decodingMode)
    }

    // MARK: async throws

    /// Sends `target` and returns the value, or throws the ``ServiceError``.
    public func requestValue<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) async throws(ServiceError) -> T {
        try await request(target, as: type, decodingMode: decodingMode).get()
    }

    /// Sends `target` and returns the value with its status code and headers, or throws the
    /// ``ServiceError``.
    public func requestValue<T: Decodable & Sendable>(
        _ target: any URLRequestConvertible, as type: ServiceReply<T>.Type = ServiceReply<T>.self,
        decodingMode: DecodingMode = .payload
    ) async throws(ServiceError) -> ServiceReply<T> {
        try await request(target, as: type, decodingMode: decodingMode).get()
    }
}
