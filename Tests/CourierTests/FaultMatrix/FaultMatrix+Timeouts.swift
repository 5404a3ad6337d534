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
            FaultOutcome(
                await bench.session().request(.urlRequest(timed(bench.server.url("/never?case=timeout"), 0.3)))
                    .response())
        },
        FaultCase(
            name: "request timeout while queued behind the connection limit",
            expectation: .error(.timedOut(.request))
        ) { bench in
            let session = bench.session { $0.maxConnectionsPerHost = 1 }
            // The busy request holds the connection until it is cancelled; its own limit (60 s) is
            // there only so that a broken build cannot hang.
            let busy = session.request(.urlRequest(timed(bench.server.url("/never?case=busy"), 60)))
            let busyDone = Counter()
            let busyTask = Task {
                _ = await busy.response()
                busyDone.increment()
            }
            guard await bench.arrived("/never", case: "busy") else {
                busy.cancel()
                await busyTask.value
                return .broken("the busy request never arrived")
            }
            let queued = await session.request(.urlRequest(timed(bench.server.url("/hello?case=queued"), 0.3)))
                .response()
            let busyFinishedFirst = busyDone.value > 0
            busy.cancel()
            await busyTask.value
            return busyFinishedFirst ? .broken("fired only after the connection was free") : FaultOutcome(queued)
        },
        FaultCase(
            name: "waiting for a connection longer than the connect limit is not a connect timeout",
            expectation: .success(status: 200, body: "Hello, Courier")
        ) { bench in
            // A loopback connect never takes 1 s, even under a sanitizer on a loaded machine: only
            // the 3 s spent queued could make the limit fire.
            let session = bench.session {
                $0.maxConnectionsPerHost = 1
                $0.timeouts = .init(connect: 1, request: 30)
            }
            let busy = session.request(.url(bench.server.url("/delay?ms=3000&case=busy-connect")))
            let busyTask = Task { await busy.response() }
            guard await bench.arrived("/delay", case: "busy-connect") else {
                busy.cancel()
                _ = await busyTask.value
                return .broken("the busy request never arrived")
            }
            let queued = await session.request(.url(bench.server.url("/hello?case=waiting"))).response()
            _ = await busyTask.value
            return FaultOutcome(queued)
        },
        FaultCase(name: "connect timeout against a blackhole", expectation: .error(.timedOut(.connect))) { bench in
            let blackhole = Loopback.Blackhole()
            let session = bench.session { $0.timeouts = .init(connect: 0.3, request: 8) }
            let response = await session.request(.url("http://127.0.0.1:\(blackhole.port)/")).response()
            withExtendedLifetime(blackhole) {}
            return FaultOutcome(response)
        },
        FaultCase(
            name: "concurrent connects to a blackhole each time out on their own",
            expectation: .error(.timedOut(.connect))
        ) { bench in
            // Limits far enough apart (0.5 s and 2 s) that a loaded machine cannot swap them.
            let blackhole = Loopback.Blackhole()
            let session = bench.session { $0.timeouts = .init(connect: 0.5, request: 2) }
            let port = blackhole.port
            let errors = await withTaskGroup(of: CourierError?.self) { group in
                for index in 0..<8 {
                    group.addTask { await session.request(.url("http://127.0.0.1:\(port)/\(index)")).response().error }
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
        // Bytes every 100 ms for 2 s in all, against an idle limit of 1 s.
        .path(
            "no idle timeout while bytes keep coming", "/trickle?size=100&chunk=5&interval=100",
            expect: .success(status: 200, body: String(repeating: "abcdefghij", count: 10)),
            configure: { $0.timeouts = .init(connect: 5, request: 30, idle: 1) }),
        FaultCase(name: "request timeout while the body trickles", expectation: .error(.timedOut(.request))) { bench in
            FaultOutcome(
                await bench.session().request(
                    .urlRequest(timed(bench.server.url("/trickle?size=100&chunk=1&interval=50"), 0.4))
                )
                .response())
        },
        FaultCase(name: "request timeout spans a redirect chain", expectation: .error(.timedOut(.request))) { bench in
            let url = bench.server.url("/redirect?to=/delay?ms=3000")
            return FaultOutcome(await bench.session().request(.urlRequest(timed(url, 0.4))).response())
        },
        FaultCase(
            name: "HTTP/2 past the stream limit opens few connections",
            expectation: .success(status: 200), needsTLS: true
        ) { bench in
            let session = bench.session()
            let url = "\(bench.tls?.url ?? "")/bytes"
            let connections = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<200 {
                    group.addTask { await session.request(.url(url)).validate().response().headers["X-Connection"] }
                }
                var seen: [String?] = []
                for await connection in group { seen.append(connection) }
                return seen
            }
            let streams = Int(ProcessInfo.processInfo.environment["COURIER_TLS_H2_STREAMS"] ?? "") ?? 50
            let distinct = Set(connections.compactMap { $0 }).count
            guard connections.allSatisfy({ $0 != nil }) else { return .broken("a request failed") }
            guard distinct <= (200 + streams - 1) / streams + 1 else { return .broken("\(distinct) connections") }
            return FaultOutcome(await session.request(.url("\(bench.tls?.url ?? "")/info")).response())
        }
    ]
}
