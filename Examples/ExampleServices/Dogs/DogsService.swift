import Courier

/// Dog pictures; the API has no envelope.
///
/// A final class adopting ``Service`` (compiled in Swift 5 mode by `DogsExample`): no stored
/// state, so the compiler accepts it as `Sendable` without `@unchecked`.
public final class DogsService: Service {
    /// The one instance the app uses.
    public static let shared = DogsService()

    /// The body is the value itself.
    public static var envelope: any EnvelopeFormat.Type { NoEnvelope.self }

    private init() {}

    /// The one generic loader every screen uses: any route, any decodable value.
    public func load<T: Decodable & Sendable>(_ route: DogsAPI, as type: T.Type = T.self) async -> NetworkResult<T> {
        await request(route, as: type)
    }
}
