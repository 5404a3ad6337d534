import Foundation

/// Decodes a response body into a `Decodable` value. Courier decodes with
/// ``CourierJSONDecoder`` unless you pass another decoder — Foundation's `JSONDecoder`
/// conforms too, so either can be chosen per session, per service and per request:
///
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.decoder = JSONDecoder()                                   // per session
/// let user = try await session.request(UserAPI.me).decodable(User.self,
///                                                            decoder: CourierJSONDecoder()) // per request
/// ```
public protocol DataDecoder: Sendable {
    /// Decodes a value of `type` from `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension CourierJSONDecoder: DataDecoder {}

extension JSONDecoder: DataDecoder {}
