import Courier
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Time limits wherever the transfer is, and HTTP/2 connection use under load. Each row checks
/// which limit fired (and, where it matters, the order of events), never a duration.
extension FaultMatrix {
    private static func timed(_ url: URL, _ seconds: TimeInterval) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = seconds
        return request
    }

    static let timeouts: [FaultCase] = [
        FaultCase(name: "request timeout, server never answers", expectation: .error(.timedOut(.request))) { bench in
            FaultOutcome(await bench.session().request(timed(bench.server.url("/never?case=timeout"), 0.3)).response())
        },
        FaultCase(
            name: "request timeout while queued behind the connection limit",
            expectation: .error(.timedOut(.request))
        ) { bench in
            let session = bench.session { $0.maxConnectionsPerHost = 1 }
            let busy = session.request(timed(bench.server.url("/never?case=busy"), 8))
            let busyDone = Counter()
            let busyTask = Task {
                _ = await busy.response()
                busyDone.increment()
            }
            for _ in 0..<500
            where !bench.server.recordedRequests(path: "/never").contains(where: { $0.query["case"] == "busy" }) {
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
            let queued = await session.request(timed(bench.server.url("/hello?case=queued"), 0.3)).response()
            let busyFinishedFirst = busyDone.value > 0
            busy.cancel()
            await busyTask.value
            return busyFinishedFirst ? .broken("fired only after the connection was free") : FaultOutcome(queued)
        },
        FaultCase(
            name: "waiting for a connection longer than the connect limit is not a connect timeout",
            expectation: .success(status: 200, body: "Hello, Courier")
        ) { bench in
            let session = bench.session {
                $0.maxConnectionsPerHost = 1
                $0.timeouts = .init(connect: 0.2, request: 8)
            }
            let busy = session.request(bench.server.url("/delay?ms=600&case=busy-connect"))
            let busyTask = Task { await busy.response() }
            for _ in 0..<500
            where !bench.server.recordedRequests(path: "/delay").contains(where: { $0.query["case"] == "busy-connect" })
            {
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
            let queued = await session.request(bench.server.url("/hello?case=waiting")).response()
            _ = await busyTask.value
            return FaultOutcome(queued)
        },
        FaultCase(name: "connect timeout against a blackhole", expectation: .error(.timedOut(.connect))) { bench in
            let blackhole = Loopback.Blackhole()
            let session = bench.session { $0.timeouts = .init(connect: 0.3, request: 8) }
            let response = await session.request("http://127.0.0.1:\(blackhole.port)/").response()
            withExtendedLifetime(blackhole) {}
            return FaultOutcome(response)
        },
        FaultCase(
            name: "concurrent connects to a blackhole each time out on their own",
            expectation: .error(.timedOut(.connect))
        ) { bench in
            let blackhole = Loopback.Blackhole()
            let session = bench.session { $0.timeouts = .init(connect: 0.3, request: 1) }
            let port = blackhole.port
            let errors = await withTaskGroup(of: CourierError?.self) { group in
                for index in 0..<6 {
                    group.addTask { await session.request("http://127.0.0.1:\(port)/\(index)").response().error }
                }
                var errors: [CourierError?] = []
                for await error in group { errors.append(error) }
                return errors
            }
            withExtendedLifetime(blackhole) {}
            // One after another (each waiting for the one before to fail) the last would hit the request limit.
            let other = errors.first { $0 != .timedOut(.connect) }
            return FaultOutcome.response(error: other ?? .timedOut(.connect), status: nil, body: nil, headers: [])
        },
        .path(
            "idle timeout on a stalled body", "/headers-then-stall", expect: .error(.timedOut(.idle)),
            configure: { $0.timeouts = .init(connect: 5, request: 8, idle: 0.3) }),
        .path(
            "no idle timeout while bytes keep coming", "/trickle?size=20&chunk=5&interval=100",
            expect: .success(status: 200, body: "abcdefghijabcdefghij"),
            configure: { $0.timeouts = .init(connect: 5, request: 8, idle: 0.5) }),
        FaultCase(name: "request timeout while the body trickles", expectation: .error(.timedOut(.request))) { bench in
            FaultOutcome(
                await bench.session().request(timed(bench.server.url("/trickle?size=100&chunk=1&interval=50"), 0.4))
                    .response())
        },
        FaultCase(name: "request timeout spans a redirect chain", expectation: .error(.timedOut(.request))) { bench in
            let url = bench.server.url("/redirect?to=/delay?ms=3000")
            return FaultOutcome(await bench.session().request(timed(url, 0.4)).response())
        },
        FaultCase(
            name: "HTTP/2 past the stream limit opens few connections",
            expectation: .success(status: 200), needsTLS: true
        ) { bench in
            let session = bench.session()
            let url = "\(bench.tls?.url ?? "")/bytes"
            let connections = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<200 {
                    group.addTask { await session.request(url).validate().response().headers["X-Connection"] }
                }
                var seen: [String?] = []
                for await connection in group { seen.append(connection) }
                return seen
            }
            let streams = Int(ProcessInfo.processInfo.environment["COURIER_TLS_H2_STREAMS"] ?? "") ?? 50
            let distinct = Set(connections.compactMap { $0 }).count
            guard connections.allSatisfy({ $0 != nil }) else { return .broken("a request failed") }
            guard distinct <= (200 + streams - 1) / streams + 1 else { return .broken("\(distinct) connections") }
            return FaultOutcome(await session.request("\(bench.tls?.url ?? "")/info").response())
        }
    ]
}
