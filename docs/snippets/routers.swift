import Courier

// The routers the guides use without declaring them (AuthRouter is in authrouter.swift).
protocol ExampleAPI: Router {}
extension ExampleAPI { var baseURL: String { "https://api.example.com/v1" } }

enum HomeAPI: ExampleAPI {
    case banner, latest, popular(page: Int)
    var path: String {
        switch self {
        case .banner: return "/home/banner"
        case .latest: return "/home/latest"
        case .popular: return "/home/popular"
        }
    }
    var method: HTTPMethod { .get }
    var parameters: RequestParams {
        switch self {
        case .popular(let page): return .query(["page": page])
        default: return .requestPlain
        }
    }
}

enum LoginRouter: ExampleAPI {
    case signIn(provider: String, email: String)
    var path: String { "/login" }
    var method: HTTPMethod { .post }
    var parameters: RequestParams {
        switch self {
        case let .signIn(provider, email): return .body(["provider": provider, "email": email])
        }
    }
}

enum TravelAPI: ExampleAPI {
    case search(city: String)
    var path: String { "/trips/search" }
    var method: HTTPMethod { .post }
    var parameters: RequestParams {
        switch self {
        case .search(let city): return .body(["city": city])
        }
    }
}

enum ItemsAPI: ExampleAPI {
    case delete(Int)
    var path: String {
        switch self {
        case .delete(let id): return "/items/\(id)"
        }
    }
    var method: HTTPMethod { .delete }
}

let apiSession = Session()
let stagingSession = Session()
let isoDates = CourierJSONDecoder(dateDecodingStrategy: .iso8601)

enum UserAPI: ExampleAPI {
    case me
    var path: String { "/users/me" }
    var method: HTTPMethod { .get }
}

enum FilesAPI: ExampleAPI {
    case archive(Int)
    var path: String {
        switch self {
        case .archive(let id): return "/files/\(id)/archive"
        }
    }
    var method: HTTPMethod { .get }
}

let id = 7
