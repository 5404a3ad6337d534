import Courier
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Connections, TLS, bodies cut short, downloads and cancellation.
extension FaultMatrix {
    static let transport: [FaultCase] = [
        FaultCase(name: "connection refused", expectation: .errorCase("cannotConnect", containing: "")) { bench in
            FaultOutcome(await bench.session().request(.url("http://127.0.0.1:\(Loopback.closedPort())/")).response())
        },
        FaultCase(name: "unresolvable host", expectation: .error(.dnsFailure(host: "no-such-host.invalid"))) { bench in
            FaultOutcome(await bench.session().request(.url("http://no-such-host.invalid/")).response())
        },
        .path("empty reply", "/close-before-headers", expect: .errorCase("truncatedResponse", containing: "")),
        .path(
            "body shorter than its Content-Length", "/truncated?send=10&declared=100",
            expect: .errorCase("truncatedResponse", containing: "")),
        .raw(
            "garbage instead of HTTP", "garbage garbage garbage\r\n\r\n",
            expect: .errorCase("protocolViolation", containing: "")),
        .raw(
            "body that is not the gzip it claims",
            "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 9\r\n\r\nnot-gzip!",
            expect: .errorCase("protocolViolation", containing: "")),
        FaultCase(
            name: "untrusted certificate", expectation: .errorCase("tlsFailure", containing: ""),
            needsTLS: true
        ) { bench in
            FaultOutcome(await Session().request(.url("\(bench.tls?.url ?? "")/info")).response())
        },
        FaultCase(name: "pinned key mismatch", expectation: .error(.pinnedKeyMismatch), needsTLS: true) { bench in
            let session = bench.session {
                $0.tls.pinnedPublicKeyHashes = [Data(repeating: 7, count: 32).base64EncodedString()]
            }
            return FaultOutcome(await session.request(.url("\(bench.tls?.url ?? "")/info")).response())
        },
        FaultCase(
            name: "download to a missing directory",
            expectation: .error(
                .invalidRequest(
                    reason: "cannot open download destination /nonexistent-courier-dir/x.bin: No such file or directory"
                ))
        ) { bench in
            let destination = URL(fileURLWithPath: "/nonexistent-courier-dir/x.bin")
            return FaultOutcome(
                await bench.session().download(.url(bench.server.url("/hello")), to: destination).response())
        },
        FaultCase(name: "cancelled while the server stalls", expectation: .error(.cancelled)) { bench in
            let request = bench.session().request(.url(bench.server.url("/never?case=cancel")))
            let task = Task { await request.response() }
            // Cancelled once this very request is in flight (other cases use `/never` too).
            guard await bench.arrived("/never", case: "cancel") else {
                request.cancel()
                _ = await task.value
                return .broken("the request never arrived")
            }
            request.cancel()
            return FaultOutcome(await task.value)
        }
    ]
}
