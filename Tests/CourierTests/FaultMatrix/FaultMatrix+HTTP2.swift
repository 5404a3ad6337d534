import Courier
import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hostile and early-answering HTTP/2 servers (issue 20): the fault server of scripts/test.sh
/// (scripts/lib/h2_fault_server.py, on the third-party `h2` library, over TLS with ALPN h2).
extension FaultMatrix {
    /// A row on the HTTP/2 fault server.
    private static func h2(
        _ name: String, expect: FaultExpectation,
        _ run: @escaping @Sendable (FaultBench, FaultBench.H2Environment) async -> FaultOutcome
    ) -> FaultCase {
        FaultCase(name: name, expectation: expect, needsH2: true) { bench in
            guard let h2 = bench.h2 else { return .broken("no HTTP/2 fault server") }
            return await run(bench, h2)
        }
    }

    /// A POST of `size` bytes (more than the server's flow-control window, so the upload can
    /// never finish before the server answers).
    private static func upload(_ url: String, size: Int = 1 << 20) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x61, count: size)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// An authenticated upload of 1 MiB to /upload-auth.
    private struct UploadRoute: Router {
        let baseURL: String
        var path: String { "/upload-auth" }
        var method: HTTPMethod { .post }
        var authorization: AuthorizationType { .bearer }
        var parameters: RequestParams { .data(Data(repeating: 0x62, count: 1 << 20)) }
    }

    static let http2: [FaultCase] = [
        h2(
            "h2: 401 before the upload is read, then RST_STREAM(NO_ERROR): the whole response",
            expect: .success(status: 401, body: "early 401", headers: ["WWW-Authenticate": "Bearer", "X-Early": "yes"])
        ) { bench, h2 in
            FaultOutcome(await bench.session().request(.urlRequest(upload(h2.url + "/early?status=401"))).response())
        },
        h2(
            "h2: 413 before the upload is read, then RST_STREAM(NO_ERROR): the whole response",
            expect: .success(status: 413, body: "early 413", headers: ["Retry-After": "7", "X-Early": "yes"])
        ) { bench, h2 in
            FaultOutcome(await bench.session().request(.urlRequest(upload(h2.url + "/early?status=413"))).response())
        },
        h2(
            "h2: 307 before the upload is read is followed, the body sent again",
            expect: .success(status: 200, body: "stored 1048576 bytes")
        ) { bench, h2 in
            let response = await bench.session().request(.urlRequest(upload(h2.url + "/early?status=307"))).response()
            guard response.metrics?.redirectCount == 1 else {
                return .broken("redirects followed: \(String(describing: response.metrics?.redirectCount))")
            }
            return FaultOutcome(response)
        },
        h2(
            "h2: 307 before the upload is read, redirects not followed: Location delivered",
            expect: .success(status: 307, body: "early 307", headers: ["Location": "/sink"])
        ) { bench, h2 in
            let session = bench.session { $0.redirectPolicy = .doNotFollow }
            return FaultOutcome(await session.request(.urlRequest(upload(h2.url + "/early?status=307"))).response())
        },
        h2(
            "h2: 308 before a file upload is read is followed, the file sent again",
            expect: .success(status: 200, body: "stored 1048576 bytes")
        ) { bench, h2 in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-h2-\(UUID()).bin")
            guard FileManager.default.createFile(atPath: file.path, contents: Data(repeating: 0x63, count: 1 << 20))
            else { return .broken("could not write \(file.path)") }
            defer { try? FileManager.default.removeItem(at: file) }
            let request = bench.session().upload(.file(file), to: .url(h2.url + "/early?status=308"))
            return FaultOutcome(await request.response())
        },
        h2(
            "h2: 307 before a streamed upload is read: not sent again, the status alone",
            expect: .success(status: 307, body: "")
        ) { bench, h2 in
            let chunks = AsyncStream<Data> { continuation in
                for _ in 0..<16 { continuation.yield(Data(repeating: 0x64, count: 1 << 16)) }
                continuation.finish()
            }
            let request = bench.session().upload(
                .stream(chunks, length: 1 << 20), to: .url(h2.url + "/early?status=307"))
            return FaultOutcome(await request.response())
        },
        h2(
            "h2: 201 before the upload is read (the server acted): not sent again, the status alone",
            expect: .success(status: 201, body: "")
        ) { bench, h2 in
            FaultOutcome(await bench.session().request(.urlRequest(upload(h2.url + "/early?status=201"))).response())
        },
        h2(
            "h2: 413 before the upload is read, on a server without HTTP/1.1: the status alone",
            expect: .success(status: 413, body: "")
        ) { bench, h2 in
            FaultOutcome(
                await bench.session().request(.urlRequest(upload(h2.serialURL + "/early?status=413"))).response())
        },
        h2(
            "h2: 413 before the upload is read, the HTTP/1.1 attempt outlasts the request limit: the status alone",
            expect: .success(status: 413, body: "")
        ) { bench, h2 in
            let session = bench.session { $0.timeouts.request = 3 }
            return FaultOutcome(
                await session.request(.urlRequest(upload(h2.url + "/early?status=413&http1=stall"))).response())
        },
        h2(
            "h2: 413 before the upload is read, the HTTP/1.1 attempt outlasts the idle limit: the status alone",
            expect: .success(status: 413, body: "")
        ) { bench, h2 in
            let session = bench.session { $0.timeouts.idle = 2 }
            return FaultOutcome(
                await session.request(.urlRequest(upload(h2.url + "/early?status=413&http1=stall"))).response())
        },
        h2(
            "h2: an authenticated upload answered early with 401 refreshes the token and is sent again",
            expect: .success(status: 200, body: "stored 1048576 bytes")
        ) { bench, h2 in
            let refreshes = Locked(0)
            let authentication = AuthenticationInterceptor(credential: AuthCredential(accessToken: "stale-token")) {
                _ in
                refreshes.withLock { $0 += 1 }
                return AuthCredential(accessToken: "fresh-token")
            }
            let session = bench.session { $0.interceptors = [authentication] }
            let response = await session.request(UploadRoute(baseURL: h2.url)).response()
            guard refreshes.withLock({ $0 }) == 1 else {
                return .broken("refreshed \(refreshes.withLock { $0 }) times")
            }
            return FaultOutcome(response)
        },
        h2("h2: GOAWAY below the stream, POST sent again", expect: .success(status: 200, body: "attempt 2")) {
            bench, h2 in
            var request = upload(h2.url + "/goaway?case=post-\(UUID().uuidString)", size: 10)
            request.httpMethod = "POST"
            return FaultOutcome(await bench.session().request(.urlRequest(request)).response())
        },
        h2("h2: GOAWAY below the stream, GET sent again", expect: .success(status: 200, body: "attempt 2")) {
            bench, h2 in
            FaultOutcome(
                await bench.session().request(.url(h2.url + "/goaway?case=get-\(UUID().uuidString)&close=0")).response()
            )
        },
        h2(
            "h2: one stream per connection, 1,000 requests 50 at a time, none refused",
            expect: .success(status: 200, body: "ok")
        ) { bench, h2 in
            // No other row uses this listener: what it counts meanwhile is this row's.
            let session = bench.session()
            guard let before = await serialStats(session, h2) else { return .broken("no /stats") }
            let width = 50
            let outcome = await concurrentRequests(session, url: h2.serialURL + "/slow", count: 1000, width: width)
            guard let after = await serialStats(session, h2) else { return .broken("no /stats") }
            // Each refusal is a stream sent past the server's limit, which libcurl retries at most
            // 4 times before failing the request: there must be none.
            guard after.refused == before.refused else {
                return .broken("the server refused \(after.refused - before.refused) streams")
            }
            // And the requests go out side by side, over several connections: a connection that
            // has answered is not held back like a new one when it is reused.
            guard after.slowMost > 1 else {
                return .broken("the server held at most \(after.slowMost) request at once")
            }
            // Without closing connections it needs again: no more than `width` are ever busy at
            // once (libcurl's default cache, four per handle in the multi, made 138 to 203).
            return after.connections <= 2 * width ? outcome : .broken("\(after.connections) connections were opened")
        },
        h2(
            "h2: a POST refused 6 times (libcurl gives up after 5 retries) goes back to Courier's queue",
            expect: .success(status: 200, body: "attempt 7")
        ) { bench, h2 in
            let request = upload(h2.url + "/refuse?times=6&case=\(UUID().uuidString)", size: 10)
            return FaultOutcome(await bench.session().request(.urlRequest(request)).response())
        },
        h2("h2: PUSH_PROMISE", expect: .success(status: 200, body: "pushed")) { bench, h2 in
            FaultOutcome(await bench.session { $0.timeouts.request = 20 }.request(.url(h2.url + "/push")).response())
        },
        h2("h2: CONTINUATION flood", expect: .errorCase("protocolViolation", containing: "CONTINUATION")) {
            bench, h2 in
            FaultOutcome(await bench.session().request(.url(h2.url + "/continuation-flood")).response())
        },
        h2("h2: header block that decodes to 16 MB", expect: .errorCase("protocolViolation", containing: "")) {
            bench, h2 in
            FaultOutcome(await bench.session().request(.url(h2.url + "/header-bomb")).response())
        },
        h2("h2: after a header-block bomb the next request succeeds", expect: .success(status: 200, body: "ok")) {
            bench, h2 in
            let session = bench.session { $0.timeouts.request = 20 }
            let bomb = await session.request(.url(h2.url + "/header-bomb")).response()
            guard let error = bomb.error, FaultOutcome.caseName(error) == "protocolViolation" else {
                return .broken("the bomb ended in \(String(describing: bomb.error))")
            }
            return FaultOutcome(await session.request(.url(h2.url + "/ok")).response())
        },
        h2("h2: a secret header echoed in a body is not logged", expect: .success(status: 200)) { bench, h2 in
            let lines = Locked<[String]>([])
            let session = bench.session {
                $0.plugins = [NetworkLogger(level: .body) { entry in lines.withLock { $0.append(entry.message) } }]
            }
            var request = URLRequest(url: URL(string: h2.url + "/echo-headers")!)
            request.setValue("Bearer h2-echoed-token-S30", forHTTPHeaderField: "Authorization")
            let response = await session.request(.urlRequest(request)).response()
            let text = lines.withLock { $0.joined(separator: "\n") }
            let echoed = response.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard echoed.contains("h2-echoed-token-S30") else { return .broken("the server did not echo: \(echoed)") }
            if text.contains("h2-echoed-token-S30") { return .broken("the token was logged:\n\(text)") }
            return FaultOutcome(response)
        }
    ]

    /// The one-stream listener's counts: streams refused so far, and, since the previous call,
    /// the most `/slow` requests it held at once and the connections it accepted.
    private struct SerialStats: Decodable {
        var refused: Int
        var slowMost: Int
        var connections: Int
        enum CodingKeys: String, CodingKey {
            case refused
            case slowMost = "slow_most"
            case connections
        }
    }

    private static func serialStats(_ session: Session, _ h2: FaultBench.H2Environment) async -> SerialStats? {
        try? await session.request(.url(h2.serialURL + "/stats")).decodable(SerialStats.self)
    }

    /// `count` GETs of `url`, `width` at a time; the last response, or what went wrong.
    private static func concurrentRequests(
        _ session: Session, url: String, count: Int, width: Int
    ) async
        -> FaultOutcome
    {
        let failures = Locked<[String]>([])
        let last = Locked<DataResponse<Data?>?>(nil)
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<width {
                group.addTask {
                    for _ in stride(from: lane, to: count, by: width) {
                        let response = await session.request(.url(url)).response()
                        if response.error != nil || response.statusCode != 200 {
                            failures.withLock {
                                $0.append(
                                    "\(String(describing: response.error)) \(String(describing: response.statusCode))")
                            }
                        }
                        last.withLock { $0 = response }
                    }
                }
            }
        }
        let failed = failures.withLock { $0 }
        if !failed.isEmpty { return .broken("\(failed.count) of \(count) failed, first: \(failed[0])") }
        guard let response = last.withLock({ $0 }) else { return .broken("no request ran") }
        return FaultOutcome(response)
    }
}
