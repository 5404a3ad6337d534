import Courier

/// The MixUp home-screen service; its API wraps everything as `{isSuccess, code, message, result}`.
public final class MixUpService: BaseService, @unchecked Sendable {
    /// The one instance the app uses.
    public static let shared = MixUpService()

    private init() { super.init() }

    /// Every request of this service is logged by the ``NetworkLogger`` plugin: one line when it
    /// is sent, one when its response arrives (written before the caller gets the result).
    public override var plugins: [any Plugin] { [DemoLog.logger(level: .basic)] }

    /// Every response of this service is a ``ResultResponse``.
    public override class var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }

    /// The banners.
    public func banners() async -> NetworkResult<[Banner]> { await request(HomeAPI.banner) }

    /// The most played songs.
    public func popularSongs() async throws(ServiceError) -> [Song] { try await requestValue(HomeAPI.popular) }

    /// The newest songs.
    public func latestSongs() async throws(ServiceError) -> [Song] { try await requestValue(HomeAPI.latest) }

    /// Songs picked for `userId`; an unknown user is `requestErr` (the API answers 200 with
    /// `isSuccess: false`).
    public func personalized(userId: Int) async -> NetworkResult<[Song]> {
        await request(HomeAPI.personalized(userId: userId))
    }
}
