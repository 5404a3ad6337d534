import Courier

/// Dog pictures; the API has no envelope, so ``BaseService/envelope`` keeps its default.
public final class DogsService: BaseService, @unchecked Sendable {
    /// The one instance the app uses.
    public static let shared = DogsService()

    private init() { super.init() }

    /// The one generic loader every screen uses: any route, any decodable value.
    public func load<T: Decodable & Sendable>(_ route: DogsAPI, as type: T.Type = T.self) async -> NetworkResult<T> {
        await request(route, as: type)
    }
}
