import BenchmarkFixtures
import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same workloads through Foundation's URLSession (FoundationNetworking on Linux).
enum URLSessionWorkloads {
    static func makeSession(maxConnections: Int = 64) -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = maxConnections
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 120
        return URLSession(configuration: configuration)
    }

    static func request(_ path: String, post body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: Environment.baseURL + path)!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    static func run(_ workload: Workload, count: Int) throws -> Measurement {
        switch workload {
        case .w1: return try sequential(count: count, warmup: 50) { request("/small.json") }
        case .w1sync: return try sequentialSync(count: count, warmup: 50)
        case .w1logoff, .w1logged: throw BenchmarkFailure("\(workload.rawValue) measures Courier's plugins only")
        case .w1park: throw BenchmarkFailure("w1park measures Courier's spinning only")
        case .w2transport: throw BenchmarkFailure("w2transport measures Courier's transport only")
        case .w2head: throw BenchmarkFailure("w2head is raw libcurl's (RawCurlBaseline)")
        case .w6, .w7: throw BenchmarkFailure("\(workload.rawValue) compares Courier with raw libcurl only")
        case .w2: return try concurrent(count: count)
        case .w3: return try decoded(count: count, warmup: 5)
        case .w3fetch: return try sequential(count: count, warmup: 5) { request("/array.json") }
        case .w4mem: return try sequential(count: count, warmup: 0) { request("/big.bin") }
        case .w4file: return try download(count: count)
        case .w5:
            let body = try Environment.postBody()
            return try sequential(count: count, warmup: 50) { request("/small.json", post: body) }
        case .formArray, .formKeys, .formParameters:
            throw BenchmarkFailure("\(workload.rawValue) measures Courier's encoders only")
        case .cacheHit, .coalesced, .uncoalesced:
            throw BenchmarkFailure("\(workload.rawValue) measures Courier's cache and coalescing only")
        }
    }

    static func fetch(_ session: URLSession, _ request: URLRequest) async throws -> Data {
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkFailure("unexpected response \(response)")
        }
        return data
    }

    static func sequential(
        count: Int, warmup: Int,
        _ make: @escaping @Sendable () -> URLRequest
    ) throws -> Measurement {
        let session = makeSession()
        return try runBlocking {
            for _ in 0..<warmup { _ = try await fetch(session, make()) }
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count { bytes += try await fetch(session, make()).count }
            return clock.stop(bytes: bytes)
        }
    }

    /// W1 with a completion handler and a semaphore (for valgrind).
    static func sequentialSync(count: Int, warmup: Int) throws -> Measurement {
        let session = makeSession()
        let done = DispatchSemaphore(value: 0)
        let bytes = Counter()
        let failures = Counter()
        func one() {
            session.dataTask(with: request("/small.json")) { data, response, _ in
                if let data, (response as? HTTPURLResponse)?.statusCode == 200 {
                    _ = bytes.add(data.count)
                } else {
                    _ = failures.add()
                }
                done.signal()
            }.resume()
            done.wait()
        }
        return try measureBlocking(count: count, warmup: warmup, bytes: bytes, failures: failures, one: one)
    }

    static func concurrent(count: Int) throws -> Measurement {
        let session = makeSession()
        return try runBlocking {
            let next = Counter()
            var clock = Stopwatch()
            clock.start()
            let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<CourierWorkloads.inFlight {
                    group.addTask {
                        var bytes = 0
                        while next.add() < count { bytes += try await fetch(session, request("/small.json")).count }
                        return bytes
                    }
                }
                return try await group.reduce(0, +)
            }
            return clock.stop(bytes: bytes)
        }
    }

    static func decoded(count: Int, warmup: Int) throws -> Measurement {
        let session = makeSession()
        return try runBlocking {
            for _ in 0..<warmup {
                _ = try JSONDecoder().decode([Item].self, from: try await fetch(session, request("/array.json")))
            }
            var clock = Stopwatch()
            clock.start()
            var items = 0
            for _ in 0..<count {
                let data = try await fetch(session, request("/array.json"))
                items += try JSONDecoder().decode([Item].self, from: data).count
            }
            guard items == count * Fixtures.arrayCount else { throw BenchmarkFailure("decoded \(items) items") }
            return clock.stop(bytes: count * 193_001)
        }
    }

    /// W4 to a file: URLSession's download task writes a temporary file.
    ///
    /// FoundationNetworking on Linux leaves that file behind after the handler returns (512 MiB
    /// in /tmp per run, whose dirty pages were then written back during later workloads), so the
    /// run removes each one after the timed part, as run.sh does with the other clients' files.
    static func download(count: Int) throws -> Measurement {
        let session = makeSession()
        let done = DispatchSemaphore(value: 0)
        let bytes = Counter()
        let failures = Counter()
        let files = Locked<[URL]>([])
        var clock = Stopwatch()
        clock.start()
        for _ in 0..<count {
            session.downloadTask(with: request("/big.bin")) { location, response, _ in
                if let location { files.withLock { $0.append(location) } }
                if let location, (response as? HTTPURLResponse)?.statusCode == 200,
                    let size = try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? Int
                {
                    _ = bytes.add(size)
                } else {
                    _ = failures.add()
                }
                done.signal()
            }.resume()
            done.wait()
        }
        let measurement = clock.stop(bytes: bytes.current)
        for file in files.withLock({ $0 }) { try? FileManager.default.removeItem(at: file) }
        if failures.current > 0 || measurement.bytes != count * Fixtures.bigSize {
            throw BenchmarkFailure("download failed (\(measurement.bytes) bytes)")
        }
        return measurement
    }
}
