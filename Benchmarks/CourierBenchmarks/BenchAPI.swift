import BenchmarkFixtures
import Courier
import Foundation

/// The benchmark's endpoints, declared the way a Courier user declares an API.
enum BenchAPI: Router {
    /// GET the 1.2 KB JSON object.
    case small
    /// GET the 193 KB JSON array of 1,000 objects.
    case array
    /// GET the 512 MiB file.
    case big
    /// POST a JSON body; the server answers with the 1.2 KB JSON object.
    case post(Data)
    /// POST to `/upload`, which discards the body (W6; the body is given by `Session.upload`).
    case upload

    var baseURL: String { Environment.baseURL }

    var path: String {
        switch self {
        case .small, .post: return "/small.json"
        case .array: return "/array.json"
        case .big: return "/big.bin"
        case .upload: return "/upload"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .post, .upload: return .post
        case .small, .array, .big: return .get
        }
    }

    var parameters: RequestParams {
        switch self {
        case .post(let body): return .data(body, contentType: "application/json")
        case .small, .array, .big, .upload: return .requestPlain
        }
    }
}

/// Settings passed by Benchmarks/run.sh through the environment.
enum Environment {
    /// The nginx started by run.sh.
    static let baseURL = ProcessInfo.processInfo.environment["BENCH_BASE_URL"] ?? "http://127.0.0.1:18080"
    /// Where the fixtures are, and where file downloads go.
    static let workDirectory = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_WORK"] ?? "Benchmarks/.work")
    static var fixtures: URL { workDirectory.appendingPathComponent("www") }

    static func postBody() throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(Fixtures.postBodyName))
    }
}
