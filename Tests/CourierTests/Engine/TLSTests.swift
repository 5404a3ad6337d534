@testable import Courier
import Foundation
import XCTest

/// TLS and HTTP/2 against the nginx that scripts/test.sh starts on 127.0.0.1 with a private CA.
final class TLSTests: XCTestCase {
    struct Info: Decodable, Sendable {
        var protocol_: String
        var connection: String
        var client: String?
        enum CodingKeys: String, CodingKey { case protocol_ = "protocol", connection, client }
    }

    struct Environment {
        let url: String, ca: String, pin: String, clientCert: String, clientKey: String
    }

    private func environment() throws -> Environment {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["COURIER_TLS_URL"], let ca = env["COURIER_TLS_CA"], let pin = env["COURIER_TLS_PIN"],
            let cert = env["COURIER_TLS_CLIENT_CERT"], let key = env["COURIER_TLS_CLIENT_KEY"]
        else {
            throw HTTPBin.NotRunning()
        }
        return Environment(url: url, ca: ca, pin: pin, clientCert: cert, clientKey: key)
    }

    private func session(_ configure: (inout Session.Configuration) -> Void) -> Session {
        var configuration = Session.Configuration()
        configure(&configuration)
        return Session(configuration: configuration)
    }

    func testUntrustedCertificateIsRejectedByDefault() async throws {
        let env = try environment()
        let response = await Session().request(.url(env.url + "/info")).response()
        guard response.error == .tlsFailure else {
            return XCTFail("expected tlsFailure, got \(String(describing: response.error))")
        }
    }

    func testCustomCAGivesHTTP2WithMetrics() async throws {
        let env = try environment()
        let trusted = session { $0.tls.caCertificateFile = env.ca }
        let response = await trusted.request(.url(env.url + "/info")).decodableResponse(of: Info.self)
        XCTAssertEqual(response.value?.protocol_, "HTTP/2.0")
        XCTAssertEqual(response.metrics?.httpVersion, .http2)
        let metrics = try XCTUnwrap(response.metrics)
        XCTAssertGreaterThan(metrics.tlsHandshake, 0)
        XCTAssertGreaterThanOrEqual(metrics.tlsHandshake, metrics.connect)
        XCTAssertGreaterThanOrEqual(metrics.total, metrics.timeToFirstByte)
    }

    func testHTTP11CanBeRequired() async throws {
        let env = try environment()
        let http1 = session {
            $0.tls.caCertificateFile = env.ca
            $0.maxHTTPVersion = .http1_1
        }
        let info = try await http1.request(.url(env.url + "/info")).decodable(Info.self)
        XCTAssertEqual(info.protocol_, "HTTP/1.1")
    }

    func testPinnedPublicKey() async throws {
        let env = try environment()
        let pinned = session {
            $0.tls.caCertificateFile = env.ca
            $0.tls.pinnedPublicKeyHashes = [env.pin]
        }
        let good = await pinned.request(.url(env.url + "/info")).response()
        XCTAssertEqual(good.statusCode, 200)
        let wrong = session {
            $0.tls.caCertificateFile = env.ca
            $0.tls.pinnedPublicKeyHashes = [Data(repeating: 7, count: 32).base64EncodedString()]
        }
        let mismatch = await wrong.request(.url(env.url + "/info")).response()
        XCTAssertEqual(mismatch.error, .pinnedKeyMismatch)
    }

    func testClientCertificate() async throws {
        let env = try environment()
        let mutual = session {
            $0.tls.caCertificateFile = env.ca
            $0.tls.clientCertificate = .init(certificateFile: env.clientCert, privateKeyFile: env.clientKey)
        }
        let info = try await mutual.request(.url(env.url + "/info")).decodable(Info.self)
        XCTAssertEqual(info.client, "SUCCESS")
        let anonymous = session { $0.tls.caCertificateFile = env.ca }
        let none = try await anonymous.request(.url(env.url + "/info")).decodable(Info.self)
        XCTAssertEqual(none.client, "NONE")
    }

    func testConcurrentRequestsMultiplexOverOneHTTP2Connection() async throws {
        let env = try environment()
        let trusted = session { $0.tls.caCertificateFile = env.ca }
        let url = env.url + "/info"
        let connections = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 {
                group.addTask { try? await trusted.request(.url(url)).decodable(Info.self).connection }
            }
            var seen: [String?] = []
            for await connection in group { seen.append(connection) }
            return seen
        }
        XCTAssertEqual(connections.compactMap { $0 }.count, 32)
        XCTAssertEqual(Set(connections.compactMap { $0 }).count, 1, "PIPEWAIT: all streams share one connection")
    }

    func testHTTP2PastTheStreamLimitOpensFewConnections() async throws {
        let env = try environment()
        let streams = Int(ProcessInfo.processInfo.environment["COURIER_TLS_H2_STREAMS"] ?? "") ?? 50
        let trusted = session { $0.tls.caCertificateFile = env.ca }
        let requests = 200
        let url = env.url + "/bytes"
        let connections = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<requests {
                group.addTask {
                    let response = await trusted.request(.url(url)).validate().response()
                    return response.error == nil && response.data?.count == 262_144
                        ? response.head?.value(forHeader: "X-Connection") : nil
                }
            }
            var seen: [String?] = []
            for await connection in group { seen.append(connection) }
            return seen
        }
        XCTAssertEqual(connections.compactMap { $0 }.count, requests, "every request succeeds")
        let needed = (requests + streams - 1) / streams
        XCTAssertLessThanOrEqual(
            Set(connections.compactMap { $0 }).count, needed + 1,
            "about ceil(\(requests) / \(streams)) connections, not one per waiting request")
    }

    /// The process's resident memory, from /proc/self/statm.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The caveat of docs/transfers.md: when a reader falls behind an HTTP/2 stream, the pause
    /// stops libcurl reading that stream, but the server may still send up to one flow-control
    /// window, which libcurl holds. Memory stays bounded all the same (not the 256 MiB body),
    /// and the stream resumes and delivers every byte.
    func testHTTP2StreamWithASlowReaderKeepsMemoryBounded() async throws {
        let env = try environment()
        let trusted = session { $0.tls.caCertificateFile = env.ca }
        let size = 256 << 20
        let stream = trusted.streamRequest(.url(env.url + "/big"), bufferSize: 64 << 10)
        let before = Self.residentBytes()
        let head = try await stream.validate().head()
        XCTAssertEqual(head.httpVersion, .http2)
        // Not reading yet: the window fills and the engine pauses; give the server time to
        // send whatever flow control still lets through, and watch memory meanwhile.
        var peak = before
        for _ in 0..<40 {
            try await Task.sleep(nanoseconds: 50_000_000)
            peak = max(peak, Self.residentBytes())
        }
        XCTAssertGreaterThan(stream.core.buffer.pauseCount, 0, "the engine paused the transfer")
        XCTAssertLessThanOrEqual(stream.core.buffer.receivedBytes, 64 << 10, "nothing past the window reached Courier")
        XCTAssertLessThan(peak - before, 48 << 20, "a paused stream holds about one flow-control window, not the body")
        var received = 0
        var reads = 0
        for try await chunk in stream.bytes {
            received += chunk.count
            reads += 1
            if reads % 16 == 0 { await Task.yield() }
        }
        XCTAssertEqual(received, size)
        XCTAssertLessThanOrEqual(stream.core.buffer.highWater, 64 << 10)
        XCTAssertGreaterThan(stream.core.buffer.pauseCount, 1)
    }
}
