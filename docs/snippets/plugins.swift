// Declarations docs/plugins.md takes for granted.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum HomeAPI: Router {
    case latest
    var baseURL: String { "https://api.example.com" }
    var path: String { "/home/latest" }
    var method: HTTPMethod { .get }
}

actor KeyStore {
    func apiKey() async throws -> String { "key" }
}

struct Tokens: Decodable, Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: TimeInterval
}

struct Profile: Decodable, Sendable {
    let name: String
}
