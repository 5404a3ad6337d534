import Courier

/// The MixUp home-screen service; its API wraps everything as `{isSuccess, code, message, result}`
/// with string codes (`"COMMON200"`, `"USER404"`).
///
/// A struct adopting ``Service``: the compiler checks it is `Sendable`, no `@unchecked` needed.
public struct MixUpService: Service {
    /// The one instance the app uses.
    public static let shared = MixUpService()

    /// Every response of this service is a `ResultEnvelope.Body`.
    public static var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }

    /// Every request of this service is logged by the ``NetworkLogger`` plugin: one line when it
    /// is sent, one when its response arrives (written before the caller gets the result).
    public var plugins: [any Plugin] { [DemoLog.logger(level: .basic)] }

    private init() {}

    /// The banners.
    public func banners() async -> NetworkResult<[Banner]> { await request(HomeAPI.banner) }

    /// The most played songs.
    public func popularSongs() async throws(ServiceError) -> [Song] { try await requestValue(HomeAPI.popular) }

    /// The newest songs.
    public func latestSongs() async throws(ServiceError) -> [Song] { try await requestValue(HomeAPI.latest) }

    /// Songs picked for `userId`; an unknown user is `requestErr` with app code `"USER404"` (the
    /// API answers 200 with `isSuccess: false`).
    public func personalized(userId: Int) async -> NetworkResult<[Song]> {
        await request(HomeAPI.personalized(userId: userId))
    }
}
