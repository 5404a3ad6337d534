import Courier
import CourierTestServer
import Foundation

/// The same faults seen through a service: which ``NetworkResult`` case the caller gets.
extension FaultMatrix {
    /// A service over a given session, decoding `{"status": Int}` bodies.
    final class ProbeService: BaseService, @unchecked Sendable {
        struct Status: Decodable, Sendable { var status: Int }

        func fetch(_ url: URL) async -> NetworkResult<Status> {
            await request(.url(url))
        }
    }

    private static func service(
        _ name: String, _ path: String, expect: FaultExpectation,
        configure: @escaping @Sendable (inout Session.Configuration) -> Void = { _ in }
    ) -> FaultCase {
        FaultCase(name: name, expectation: expect) { bench in
            bench.server.route("/fault/service-violation") { _ in
                .raw("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
            }
            let service = ProbeService(session: bench.session(configure))
            return FaultOutcome(await service.fetch(bench.server.url(path)))
        }
    }

    static let services: [FaultCase] = [
        service("service: 503 is a server error", "/status/503", expect: .networkResult("serverErr", status: 503)),
        service("service: 404 is a request error", "/status/404", expect: .networkResult("requestErr", status: 404)),
        service(
            "service: 200 with another shape is a path error", "/hello", expect: .networkResult("pathErr", status: 200)),
        service(
            "service: connection cut short is a network failure", "/truncated?send=5&declared=50",
            expect: .networkResult("networkFail", status: 200)),
        service(
            "service: a timeout is a network failure", "/never?case=service",
            expect: .networkResult("networkFail", status: nil, error: .timedOut(.request)),
            configure: { $0.timeouts.request = 0.3 }),
        service(
            "service: a protocol violation is a network failure", "/fault/service-violation",
            expect: .networkResult(
                "networkFail", status: 200,
                error: .protocolViolation(message: "conflicting Content-Length values 1 and 2")))
    ]
}
