import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier

// Seed-style routers shared by the routing tests (and usable by engine tests).
//
// The project-wide base URL is declared ONCE, in `SeedAPIRouter`'s extension. It reads a
// task-local value so a test can point every router at another host (for example a loopback
// test server) without any global mutable state:
//
//     try await SeedAPI.$baseURL.withValue("http://127.0.0.1:\(port)") { ... }

/// Shared constants for the seed API fixtures.
enum SeedAPI {
    /// The host the fixtures use unless a test overrides ``baseURL``.
    static let defaultBaseURL = "https://api.seed.test/v1"
    /// The base URL every seed router uses; override per task with `$baseURL.withValue`.
    @TaskLocal static var baseURL: String = defaultBaseURL
}

/// The project-wide router protocol: routers adopting it only declare path, method and parameters.
protocol SeedAPIRouter: Router {}

extension SeedAPIRouter {
    var baseURL: String { SeedAPI.baseURL }
}

/// Authentication endpoints: JSON bodies, and one case carrying its own auth header.
enum AuthRouter: SeedAPIRouter {
    case signUp(email: String, name: String, pw: String)
    case signIn(email: String, pw: String)
    case me(token: String)

    var path: String {
        switch self {
        case .signUp: return "/auth/signup"
        case .signIn: return "/auth/signin"
        case .me: return "/auth/me"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .signUp, .signIn: return .post
        case .me: return .get
        }
    }

    var parameters: RequestParams {
        switch self {
        case let .signUp(email, name, pw): return .body(["email": email, "name": name, "pw": pw])
        case let .signIn(email, pw): return .body(["email": email, "pw": pw])
        case .me: return .requestPlain
        }
    }

    var headers: HTTPHeaders {
        switch self {
        case .me(let token): return [.authorization(bearerToken: token)]
        case .signUp, .signIn: return []
        }
    }

    var sampleData: Data {
        switch self {
        case .signIn, .signUp: return Data(#"{"token":"sample-token"}"#.utf8)
        case .me: return Data(#"{"name":"Ada"}"#.utf8)
        }
    }
}

/// Home screen endpoints: all GET, some with a query, one with a path parameter.
enum HomeAPI: SeedAPIRouter {
    case banner
    case popular(page: Int)
    case latest(limit: Int, includeAds: Bool)
    case personalized(userId: String)

    var path: String {
        switch self {
        case .banner: return "/home/banner"
        case .popular: return "/home/popular"
        case .latest: return "home/latest"
        case .personalized(let userId): return "/home/users/\(segment: userId)/personalized"
        }
    }

    var method: HTTPMethod { .get }

    var parameters: RequestParams {
        switch self {
        case .banner, .personalized: return .requestPlain
        case .popular(let page): return .query(["page": page])
        case let .latest(limit, includeAds): return .query(["limit": limit, "includeAds": includeAds])
        }
    }

    var timeout: TimeInterval? {
        switch self {
        case .personalized: return 5
        default: return nil
        }
    }
}

/// The filter a travel search posts as its JSON body.
struct TravelFilter: Encodable, Sendable, Equatable {
    var destination: String
    var maxPrice: Double
    var tags: [String]
    var refundable: Bool?
}

/// Travel endpoints: composite query + Encodable body, and a multipart upload.
enum TravelAPI: SeedAPIRouter {
    case search(page: Int, size: Int, filter: TravelFilter)
    case uploadPhoto(tripId: String, photo: Data, caption: String, boundary: String)

    var path: String {
        switch self {
        case .search: return "/travel/search?lang=en"
        case .uploadPhoto(let tripId, _, _, _): return "/travel/trips/\(segment: tripId)/photos"
        }
    }

    var method: HTTPMethod { .post }

    var parameters: RequestParams {
        switch self {
        case let .search(page, size, filter):
            return .queryJSONEncodable(["page": page, "size": size], filter)
        case let .uploadPhoto(_, photo, caption, boundary):
            var form = MultipartFormData(boundary: boundary)
            form.append(caption, name: "caption")
            form.append(photo, name: "photo", filename: "photo.jpg")
            return .multipart(form)
        }
    }

    var timeout: TimeInterval? {
        switch self {
        case .search: return nil
        case .uploadPhoto: return 120
        }
    }
}

/// Small helpers for reading built requests in assertions.
extension URLRequest {
    /// The body as UTF-8 text, or `nil` when there is no body.
    var bodyText: String? {
        httpBody.map { String(decoding: $0, as: UTF8.self) }
    }
}
