import BenchmarkFixtures
import Courier
import Dispatch
import Foundation

/// The workloads through Courier's full user path: Router enum → Session → DataRequest.
enum CourierWorkloads {
    static let inFlight = 64

    static func run(_ workload: Workload, count: Int) throws -> Measurement {
        switch workload {
        case .w1: return try sequential(BenchAPI.small, count: count, warmup: 50)
        case .w1sync: return try sequentialSync(count: count, warmup: 50)
        case .w1park:
            var configuration = Session.Configuration()
            configuration.spinsBeforeParking = false
            return try sequential(BenchAPI.small, count: count, warmup: 50, configuration: configuration)
        case .w1logoff: return try sequentialSync(count: count, warmup: 50, plugins: [NetworkLogger(level: .off)])
        case .w1logged:
            return try sequentialSync(count: count, warmup: 50, plugins: [NetworkLogger(level: .basic) { _ in }])
        case .w2: return try concurrent(count: count)
        case .w2transport: return try concurrentTransport(count: count)
        case .w2head: throw BenchmarkFailure("w2head is raw libcurl's (RawCurlBaseline)")
        case .w3: return try decoded(count: count, warmup: 5)
        case .w3fetch: return try sequential(BenchAPI.array, count: count, warmup: 5)
        case .w4mem: return try bigIntoMemory(count: count)
        case .w4file: return try bigToFile(count: count)
        case .w6: return try TransferWorkloads.uploadFromDisk(count: count)
        case .w7: return try TransferWorkloads.streamBody(count: count)
        case .w5: return try sequential(BenchAPI.post(try Environment.postBody()), count: count, warmup: 50)
        case .formArray, .formKeys, .formParameters: return try EncodingWorkloads.run(workload, count: count)
        case .cacheHit, .coalesced, .uncoalesced: return try CacheWorkloads.run(workload, count: count)
        }
    }

    /// `count` requests one after another with `async`/`await`.
    static func sequential(
        _ route: BenchAPI, count: Int, warmup: Int,
        configuration: Session.Configuration = Session.Configuration()
    ) throws -> Measurement {
        let session = Session(configuration: configuration)
        return try runBlocking {
            for _ in 0..<warmup { _ = try await session.request(route).validate().data() }
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                bytes += try await session.request(route).validate().data().count
            }
            return clock.stop(bytes: bytes)
        }
    }

    /// False when `BENCH_SPINS_BEFORE_PARKING=0` is in the environment (run.sh's callgrind mode:
    /// under valgrind, which runs one thread at a time, a spin only counts loop turns). Read by
    /// W1 through handlers and by W2.
    static let spinsBeforeParking = ProcessInfo.processInfo.environment["BENCH_SPINS_BEFORE_PARKING"] != "0"

    /// W1 with completion handlers and a semaphore: no Swift concurrency, so valgrind can run it.
    static func sequentialSync(count: Int, warmup: Int, plugins: [any Plugin] = []) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.plugins = plugins
        configuration.spinsBeforeParking = spinsBeforeParking
        let session = Session(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        let bytes = Counter()
        let failures = Counter()
        func one() {
            session.request(BenchAPI.small).validate().responseData { response in
                switch response.result {
                case .success(let data): _ = bytes.add(data.count)
                case .failure: _ = failures.add()
                }
                done.signal()
            }
            done.wait()
        }
        return try measureBlocking(count: count, warmup: warmup, bytes: bytes, failures: failures, one: one)
    }

    /// `count` requests with `inFlight` running at any time (spinning as ``spinsBeforeParking`` says).
    static func concurrent(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.spinsBeforeParking = spinsBeforeParking
        let session = Session(configuration: configuration)
        return try keepInFlight(count: count) { _ in
            { try await session.request(BenchAPI.small).validate().data().count }
        }
    }

    /// Times `count` requests made by ``inFlight`` tasks at once (W2's shape): task number `i`
    /// (0 ..< ``inFlight``) makes its requests with `caller(i)`, one after another, each returning
    /// the body bytes it received.
    static func keepInFlight(
        count: Int, _ caller: @escaping @Sendable (Int) -> @Sendable () async throws -> Int
    ) throws -> Measurement {
        try runBlocking {
            let next = Counter()
            var clock = Stopwatch()
            clock.start()
            let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<inFlight {
                    group.addTask {
                        let one = caller(task)
                        var bytes = 0
                        while next.add() < count { bytes += try await one() }
                        return bytes
                    }
                }
                return try await group.reduce(0, +)
            }
            return clock.stop(bytes: bytes)
        }
    }

    /// `w2transport`: W2's requests handed straight to the session's transport (its libcurl
    /// engine), each awaited on a continuation that the transport's completion resumes: what the
    /// engine costs without `DataRequest` (no driver, plugins, validation or serializer). The
    /// request is built once, with the session's default headers, as `session.request` builds it.
    static func concurrentTransport(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.spinsBeforeParking = spinsBeforeParking
        let session = Session(configuration: configuration)
        let prepared = session.prepared(try BenchAPI.small.makeRequest())
        let options = session.transferOptions(for: prepared)
        let transport = session.transport
        return try keepInFlight(count: count) { _ in
            {
                let result = await withUnsafeContinuation { continuation in
                    _ = transport.execute(prepared, options: options) { continuation.resume(returning: $0) }
                }
                guard result.statusCode == 200 else {
                    let reason = result.error.map { "\($0)" } ?? "status \(result.statusCode ?? 0)"
                    throw BenchmarkFailure("w2transport: \(reason)")
                }
                return result.data.count
            }
        }
    }

    /// W3: the 193 KB array decoded into `[Item]` with the session's default decoder (`CourierJSONDecoder`).
    static func decoded(count: Int, warmup: Int) throws -> Measurement {
        let session = Session()
        return try runBlocking {
            for _ in 0..<warmup { _ = try await session.request(BenchAPI.array).validate().decodable([Item].self) }
            var clock = Stopwatch()
            clock.start()
            var items = 0
            for _ in 0..<count {
                items += try await session.request(BenchAPI.array).validate().decodable([Item].self).count
            }
            guard items == count * Fixtures.arrayCount else { throw BenchmarkFailure("decoded \(items) items") }
            return clock.stop(bytes: count * 193_001)
        }
    }

    /// W4 into memory: `data()` buffers the whole body.
    static func bigIntoMemory(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.receiveBufferSize = 256 << 10
        configuration.timeouts.request = nil
        configuration.security.maxResponseSize = nil  // 512 MiB is over the 64 MiB default
        let session = Session(configuration: configuration)
        return try runBlocking {
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                let data = try await session.request(BenchAPI.big).validate().data()
                guard data.count == Fixtures.bigSize else { throw BenchmarkFailure("received \(data.count) bytes") }
                bytes += data.count
            }
            return clock.stop(bytes: bytes)
        }
    }

    /// W4 streamed to a file with `Session.download(_:to:)`: memory stays flat.
    static func bigToFile(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.receiveBufferSize = 512 << 10
        configuration.timeouts.request = nil
        let session = Session(configuration: configuration)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(getpid()).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        return try runBlocking {
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                let response = await session.download(BenchAPI.big, to: file).validate().response()
                if let error = response.error { throw BenchmarkFailure("download failed: \(error)") }
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                guard size == Fixtures.bigSize else { throw BenchmarkFailure("wrote \(size) bytes") }
                bytes += size
            }
            return clock.stop(bytes: bytes)
        }
    }
}
