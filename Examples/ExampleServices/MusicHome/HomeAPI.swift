import Courier

/// The music app's home screen endpoints; all `GET`.
public enum HomeAPI: DemoRouter {
    /// `GET /home/banner`.
    case banner
    /// `GET /home/popular`.
    case popular
    /// `GET /home/latest`.
    case latest
    /// `GET /home/personalized?userId=…`.
    case personalized(userId: Int)

    /// The endpoint path.
    public var path: String {
        switch self {
        case .banner: return "/home/banner"
        case .popular: return "/home/popular"
        case .latest: return "/home/latest"
        case .personalized: return "/home/personalized"
        }
    }

    /// Always `GET`.
    public var method: HTTPMethod { .get }

    /// The user id for ``personalized(userId:)``.
    public var parameters: RequestParams {
        switch self {
        case .banner, .popular, .latest: return .requestPlain
        case .personalized(let userId): return .query(["userId": userId])
        }
    }
}
