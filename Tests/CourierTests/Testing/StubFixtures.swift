import Courier
import CourierTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router, model and service the `StubTransport` tests share: a router with sample data for
/// some cases, and a `BaseService` over it.
enum StubFixtures {
    struct Profile: Codable, Sendable, Equatable { var name: String }

    enum ProfileAPI: Router {
        case me, profile(id: Int), rename(id: Int, name: String), search(term: String, page: Int), noSample
        var baseURL: String { "https://api.example.test/v1" }
        var path: String {
            switch self {
            case .me: return "/me"
            case .profile(let id), .rename(let id, _): return "/profiles/\(id)"
            case .search: return "/search"
            case .noSample: return "/plain"
            }
        }
        var method: HTTPMethod {
            if case .rename = self { return .put }
            return .get
        }
        var parameters: RequestParams {
            switch self {
            case .rename(_, let name): return .body(["name": name])
            case let .search(term, page): return .query(["q": term, "page": page])
            default: return .requestPlain
            }
        }
        var sampleData: Data {
            switch self {
            case .me, .profile: return Data(#"{"name":"Sample"}"#.utf8)
            case .rename, .search, .noSample: return Data()
            }
        }
        var sampleStatusCode: Int {
            if case .rename = self { return 204 }
            return 200
        }
        var sampleHeaders: HTTPHeaders {
            if case .me = self { return [.contentType("application/json"), HTTPHeader(name: "X-Sample", value: "yes")] }
            return sampleData.isEmpty ? HTTPHeaders() : [.contentType("application/json")]
        }
    }

    final class ProfileService: BaseService, @unchecked Sendable {
        func me() async -> NetworkResult<Profile> { await request(ProfileAPI.me) }
        func profile(_ id: Int) async -> NetworkResult<Profile> { await request(ProfileAPI.profile(id: id)) }
    }
}

/// The case name of a router value, for compact assertions.
enum RecordedRequestName {
    static func of(_ router: any Router) -> String {
        Mirror(reflecting: router).children.first?.label ?? String(describing: router)
    }
}
