import BenchmarkFixtures
import Courier
import Foundation

/// How fast cancellation completes a request: `CourierBenchmarks cancel <count>` sends `count`
/// requests, one at a time, to a local server that accepts and never answers, cancels each 20 ms
/// after it started (the engine loop is then parked, waiting on the socket), and prints the time
/// from `cancel()` until the awaiting task has its result: median, 99th percentile and maximum, in µs.
enum CancelBench {
    static func run(count: Int) throws -> String {
        let server = try SilentServer(sendHead: false, accepting: true)
        defer { server.stop() }
        let session = Session()
        let url = URL(string: "http://127.0.0.1:\(server.port)/never")!
        let latencies = try runBlocking { () async throws -> [Double] in
            var latencies: [Double] = []
            for _ in 0..<count {
                let request = session.request(.url(url))
                let task = Task { await request.response().error }
                try await Task.sleep(for: .milliseconds(20))
                let start = ContinuousClock.now
                request.cancel()
                guard await task.value == .cancelled else { throw BenchmarkFailure("not cancelled") }
                let elapsed = (ContinuousClock.now - start).components
                latencies.append(Double(elapsed.seconds) * 1e6 + Double(elapsed.attoseconds) / 1e12)
            }
            return latencies.sorted()
        }
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        return String(
            format: "cancel\t%d requests\tmedian %.0f µs\tp99 %.0f µs\tmax %.0f µs",
            count, percentile(0.5), percentile(0.99), latencies.last ?? 0)
    }
}
