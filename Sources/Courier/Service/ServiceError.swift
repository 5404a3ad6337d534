/// A failed ``NetworkResult`` as a Swift error, thrown by ``NetworkResult/get()`` and by the
/// throwing service helpers such as ``Service/requestValue(_:as:decodingMode:)->T``.
///
/// ```swift
/// do {
///     let songs = try await MixUpService.shared.latestSongs()
/// } catch .requestErr(let failure) {
///     print(failure.message ?? "rejected")
/// } catch {
///     print(error)
/// }
/// ```
public enum ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// See ``NetworkResult/requestErr(_:)``.
    case requestErr(ServiceFailure)
    /// See ``NetworkResult/pathErr(_:)``.
    case pathErr(ServiceFailure)
    /// See ``NetworkResult/serverErr(_:)``.
    case serverErr(ServiceFailure)
    /// See ``NetworkResult/networkFail(_:)``.
    case networkFail(ServiceFailure)

    /// The failure context, whatever the kind: its ``ServiceFailure/statusCode``,
    /// ``ServiceFailure/message``, ``ServiceFailure/error``…
    public var failure: ServiceFailure {
        switch self {
        case .requestErr(let failure), .pathErr(let failure), .serverErr(let failure), .networkFail(let failure):
            return failure
        }
    }

    /// The HTTP status code, if a response arrived.
    package var statusCode: Int? { failure.statusCode }

    /// The server's message, if it sent one.
    package var message: String? { failure.message }

    /// `requestErr(HTTP 404: no such user)` and so on.
    public var description: String {
        switch self {
        case .requestErr(let failure): return "requestErr(\(failure))"
        case .pathErr(let failure): return "pathErr(\(failure))"
        case .serverErr(let failure): return "serverErr(\(failure))"
        case .networkFail(let failure): return "networkFail(\(failure))"
        }
    }
}
