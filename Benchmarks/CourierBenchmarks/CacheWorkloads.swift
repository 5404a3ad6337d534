import BenchmarkFixtures
import Courier
import Foundation

/// The cache and coalescing workloads (Courier only): `cache-hit` is W1 against `/cached.json`
/// (the same 1.2 KB, served by nginx with `Cache-Control: max-age=3600`) with a memory cache, so
/// every measured request is answered from the cache; compare with W1, a network round trip.
/// `coalesce64` sends batches of 64 identical GETs at once (one shared transfer per batch);
/// `coalesce64-off` the same batches with coalescing off (64 transfers per batch).
enum CacheWorkloads {
    static let batch = 64

    static func run(_ workload: Workload, count: Int) throws -> Measurement {
        switch workload {
        case .cacheHit: return try cachedHits(count: count)
        case .coalesced: return try batches(count: count, coalescing: true)
        case .uncoalesced: return try batches(count: count, coalescing: false)
        default: throw BenchmarkFailure("\(workload.rawValue) is not a cache workload")
        }
    }

    static func cachedHits(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.cache = .memory(maxBytes: 1 << 20)
        let session = Session(configuration: configuration)
        let url = Environment.baseURL + "/cached.json"
        return try runBlocking {
            let first = await session.request(url, method: .get).validate().response()
            guard first.error == nil else { throw BenchmarkFailure("cache-hit: \(first.error!)") }
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                let response = await session.request(url, method: .get).validate().response()
                guard response.metrics?.cacheOutcome == .hit, let data = response.data else {
                    throw BenchmarkFailure(
                        "cache-hit: not a hit (\(String(describing: response.metrics?.cacheOutcome)))")
                }
                bytes += data.count
            }
            return clock.stop(bytes: bytes)
        }
    }

    /// `count` requests in batches of 64 identical GETs started together.
    static func batches(count: Int, coalescing: Bool) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.coalescesIdenticalRequests = coalescing
        let session = Session(configuration: configuration)
        let rounds = max(1, count / batch)
        return try runBlocking {
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<rounds {
                bytes += try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<batch {
                        group.addTask { try await session.request(BenchAPI.small).validate().data().count }
                    }
                    return try await group.reduce(0, +)
                }
            }
            return clock.stop(bytes: bytes)
        }
    }
}
