import BenchmarkFixtures
import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parameter encoding without any network: Courier's form encoders on large inputs, the
/// sizes of issue 8 (a 100,000-element array and a 20,000-key dictionary). Each run encodes
/// the same value `count` times after one warm-up encoding.
enum EncodingWorkloads {
    static let arrayCount = 100_000
    static let keyCount = 20_000

    private struct Numbers: Encodable {
        var values: [Int]
    }

    static func run(_ workload: Workload, count: Int) throws -> Measurement {
        switch workload {
        case .formArray:
            let value = Numbers(values: Array(0..<arrayCount))
            return try repeated(count: count) { try URLFormEncoder().encode(value).utf8.count }
        case .formKeys:
            let value = Dictionary(uniqueKeysWithValues: (0..<keyCount).map { ("key\($0)", $0) })
            return try repeated(count: count) { try URLFormEncoder().encode(value).utf8.count }
        case .formParameters:
            let parameters: Parameters = ["values": Array(0..<arrayCount)]
            var request = URLRequest(url: URL(fileURLWithPath: "/"))
            request.httpMethod = "POST"
            return try repeated(count: count) {
                try RequestParams.form(parameters).apply(to: request).httpBody?.count ?? 0
            }
        default:
            throw BenchmarkFailure("\(workload.rawValue) is not an encoding workload")
        }
    }

    /// Runs `encode` once to warm up, then `count` times on the clock; `encode` returns the
    /// number of bytes it wrote.
    private static func repeated(count: Int, _ encode: () throws -> Int) throws -> Measurement {
        _ = try encode()
        var clock = Stopwatch()
        clock.start()
        var bytes = 0
        for _ in 0..<count { bytes += try encode() }
        return clock.stop(bytes: bytes)
    }
}
