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
