import BenchmarkFixtures
import Courier
import CourierSync
import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How late time limits fire: `CourierBenchmarks deadlines <count>` runs `count` requests per
/// scenario against a local server that accepts connections and never answers (or answers a
/// head and stalls), each with a request (or idle) limit of 200 to 390 ms, and prints how long
/// after its deadline each request completed: median, 99th percentile and maximum, in ms.
///
/// Scenarios: `direct` (a connection per request), `queued` (2 connections for all requests,
/// so most wait behind the connection limit), `idle` (the head arrives, then nothing) and
/// `connect` (a listener that never accepts, its queue full: connect limit 200 ms). Lateness is
/// over the requests that failed with the expected kind.
enum DeadlineBench {
    static func run(count: Int) throws -> String {
        var lines = ["scenario\trequests\tfired as expected\tmedian ms\tp99 ms\tmax ms"]
        for scenario in ["direct", "queued", "idle", "connect"] {
            let server = try SilentServer(sendHead: scenario == "idle", accepting: scenario != "connect")
            defer { server.stop() }
            var configuration = Session.Configuration()
            configuration.maxConnectionsPerHost = scenario == "queued" ? 2 : 0
            if scenario == "idle" { configuration.timeouts = .init(connect: 5, request: 30, idle: 0.2) }
            if scenario == "connect" { configuration.timeouts = .init(connect: 0.2, request: 2) }
            let session = Session(configuration: configuration)
            let fixedLimit = scenario == "idle" || scenario == "connect"
            let expected: CourierError = .timedOut(
                scenario == "idle" ? .idle : scenario == "connect" ? .connect : .request)
            let results = try runBlocking { () async -> [(Bool, Double)] in
                await withTaskGroup(of: (Bool, Double).self) { group in
                    for index in 0..<count {
                        group.addTask {
                            let limit = 0.2 + Double(index % 20) * 0.01
                            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/\(index)")!)
                            if !fixedLimit { request.timeoutInterval = limit }
                            let start = ContinuousClock.now
                            let error = await session.request(.urlRequest(request)).response().error
                            let elapsed = ContinuousClock.now - start
                            let seconds =
                                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                            return (error == expected, (seconds - (fixedLimit ? 0.2 : limit)) * 1000)
                        }
                    }
                    var results: [(Bool, Double)] = []
                    for await result in group { results.append(result) }
                    return results
                }
            }
            let late = results.filter { $0.0 }.map { $0.1 }.sorted()
            func percentile(_ p: Double) -> Double {
                late.isEmpty ? .nan : late[min(late.count - 1, Int(Double(late.count) * p))]
            }
            lines.append(
                [
                    scenario, String(count), String(results.filter { $0.0 }.count),
                    String(format: "%.1f", percentile(0.5)), String(format: "%.1f", percentile(0.99)),
                    String(format: "%.1f", late.last ?? 0)
                ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n")
    }
}

/// Accepts every connection on 127.0.0.1 and never answers (or sends one head, then stalls); or,
/// not accepting, a listener whose queue fills so that further connections hang.
final class SilentServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = Locked<[Int32]>([])
    private let stopped = Locked(false)

    init(sendHead: Bool, accepting: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, accepting ? 1024 : 0) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BenchmarkFailure("cannot listen on 127.0.0.1") }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard accepting else {
            // Fill the accept queue first: the kernel then drops further SYNs, so connects hang.
            for _ in 0..<4 {
                let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                _ = withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                accepted.withLock { $0.append(client) }
            }
            usleep(100_000)
            return
        }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0, !stopped.withLock({ $0 }) else { return }
                accepted.withLock { $0.append(client) }
                if sendHead {
                    let head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"
                    _ = head.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
            }
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in accepted.withLock({ $0 }) { close(fd) }
    }
}
