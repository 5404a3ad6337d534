import Courier
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one fault case must end in: an exact typed error, or an exact outcome.
enum FaultExpectation: Sendable, CustomStringConvertible {
    /// Exactly this error (the case and every associated value).
    case error(CourierError)
    /// An error of this case whose message (libcurl's words) contains `text`.
    case errorCase(String, containing: String)
    /// No error, this status, (when given) this body, and these header values (names matched
    /// without regard to case). Whatever else is asked, no header name may contain whitespace.
    case success(status: Int, body: String? = nil, headers: [String: String] = [:])
    /// A service call's ``NetworkResult`` of this case, with this HTTP status (nil: no response)
    /// and, when given, this underlying error.
    case networkResult(String, status: Int?, error: CourierError? = nil)

    var description: String {
        switch self {
        case .error(let error): return "error \(error)"
        case .errorCase(let name, let text): return "\(name) containing '\(text)'"
        case .success(let status, let body, let headers):
            return "status \(status)" + (body.map { " body '\($0)'" } ?? "")
                + (headers.isEmpty ? "" : " headers \(headers)")
        case .networkResult(let name, let status, let error):
            return ".\(name) status \(status.map(String.init) ?? "none")" + (error.map { " error \($0)" } ?? "")
        }
    }
}

/// What a fault case observed.
enum FaultOutcome: Sendable {
    case response(error: CourierError?, status: Int?, body: Data?, headers: [HTTPHeader])
    case networkResult(name: String, status: Int?, error: CourierError?)
    /// The case saw something wrong besides the result (for example a request that must not
    /// have reached the server did).
    case broken(String)

    init<Value>(_ response: DataResponse<Value>) {
        self = .response(
            error: response.error, status: response.statusCode, body: response.data,
            headers: Array(response.headers))
    }

    init<Value>(_ result: NetworkResult<Value>) {
        let name: String
        switch result {
        case .success: name = "success"
        case .requestErr: name = "requestErr"
        case .pathErr: name = "pathErr"
        case .serverErr: name = "serverErr"
        case .networkFail: name = "networkFail"
        }
        self = .networkResult(name: name, status: result.failure?.statusCode, error: result.failure?.error)
    }

    /// Nil when the outcome is what `expectation` asks for, else what differs.
    func mismatch(against expectation: FaultExpectation) -> String? {
        switch (expectation, self) {
        case (_, .broken(let problem)):
            return problem
        case (.error(let expected), .response(let error, _, _, _)):
            return error == expected ? nil : "got \(String(describing: error))"
        case (.errorCase(let name, let text), .response(let error, _, _, _)):
            guard let error, Self.caseName(error) == name, text.isEmpty || error.description.contains(text) else {
                return "got \(String(describing: error))"
            }
            return nil
        case (.success(let status, let body, let expectedHeaders), .response(let error, let got, let data, let headers)):
            guard error == nil, got == status else {
                return "got status \(String(describing: got)), error \(String(describing: error))"
            }
            if let body, data.map({ String(decoding: $0, as: UTF8.self) }) != body {
                return "got body \(data.map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? "nil")"
            }
            if let bad = headers.first(where: { $0.name.contains(where: \.isWhitespace) || $0.name.isEmpty }) {
                return "header name with whitespace: '\(bad.name)'"
            }
            for (name, value) in expectedHeaders {
                let found = headers.first { $0.name.lowercased() == name.lowercased() }?.value
                if found != value { return "header \(name): got \(String(describing: found))" }
            }
            return nil
        case (.networkResult(let name, let status, let error), .networkResult(let got, let gotStatus, let gotError)):
            guard got == name, gotStatus == status, error == nil || gotError == error else {
                return "got .\(got) status \(String(describing: gotStatus)) error \(String(describing: gotError))"
            }
            return nil
        default:
            return "got \(self)"
        }
    }

    /// `protocolViolation` for `.protocolViolation(message: …)`, `cancelled` for `.cancelled`.
    static func caseName(_ error: CourierError) -> String {
        error.kind
    }
}

/// One named row of the fault matrix: how to provoke the fault and what Courier must report.
struct FaultCase: Sendable {
    /// A short, unique name, as listed in docs/reliability.md.
    let name: String
    let expectation: FaultExpectation
    /// Needs the TLS/HTTP2 nginx started by scripts/test.sh.
    var needsTLS = false
    /// Needs the HTTP/2 fault server started by scripts/test.sh (scripts/lib/h2_fault_server.py).
    var needsH2 = false
    let run: @Sendable (FaultBench) async -> FaultOutcome
}

/// The servers a fault case may use: one shared in-process test server, the TLS nginx and the
/// HTTP/2 fault server when running under scripts/test.sh, and helpers to make sessions and
/// raw-reply routes.
final class FaultBench: Sendable {
    let server: TestHTTPServer
    let tls: TLSEnvironment?
    let h2: H2Environment?

    struct TLSEnvironment: Sendable {
        let url: String
        let ca: String
    }

    /// The HTTP/2 fault server: its main listener and the one allowing one stream per connection.
    struct H2Environment: Sendable {
        let url: String
        let serialURL: String
    }

    /// scripts/test.sh ran the tests: every server it starts must be there.
    static var underTestScript: Bool {
        ProcessInfo.processInfo.environment["COURIER_TEST_SCRIPT"] == "1"
    }

    init() throws {
        server = try TestHTTPServer()
        let env = ProcessInfo.processInfo.environment
        if let url = env["COURIER_TLS_URL"], let ca = env["COURIER_TLS_CA"] {
            tls = TLSEnvironment(url: url, ca: ca)
        } else {
            tls = nil
        }
        if let url = env["COURIER_H2_FAULT_URL"], let serial = env["COURIER_H2_FAULT_SERIAL_URL"], tls != nil {
            h2 = H2Environment(url: url, serialURL: serial)
        } else {
            h2 = nil
        }
    }

    /// A session with the default configuration changed by `configure`.
    func session(_ configure: (inout Session.Configuration) -> Void = { _ in }) -> Session {
        var configuration = Session.Configuration()
        configure(&configuration)
        if let tls { configuration.tls.caCertificateFile = tls.ca }
        return Session(configuration: configuration)
    }

    /// Waits until the server has received a request for `path` whose `case` query item is
    /// `name`; returns whether it did. The wait is bounded (60 s) only so that a broken build
    /// cannot hang.
    func arrived(_ path: String, case name: String) async -> Bool {
        for _ in 0..<12_000 {
            if server.recordedRequests(path: path).contains(where: { $0.query["case"] == name }) { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return false
    }

    /// A URL on the test server whose route answers with exactly `bytes`, then closes.
    func rawURL(_ name: String, _ bytes: Data) -> URL {
        let path = "/fault/" + name.map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        server.route(path) { _ in TestHTTPResponse(behaviour: .raw(bytes)) }
        return server.url(path)
    }
}

extension FaultCase {
    /// A case whose server answers with exactly `reply` (CRLF line ends written out).
    static func raw(
        _ name: String, _ reply: String, expect: FaultExpectation,
        configure: @escaping @Sendable (inout Session.Configuration) -> Void = { _ in }
    ) -> FaultCase {
        raw(name, Data(reply.utf8), expect: expect, configure: configure)
    }

    /// A case whose server answers with exactly `reply`.
    static func raw(
        _ name: String, _ reply: Data, expect: FaultExpectation,
        configure: @escaping @Sendable (inout Session.Configuration) -> Void = { _ in }
    ) -> FaultCase {
        FaultCase(name: name, expectation: expect) { bench in
            let url = bench.rawURL(name, reply)
            return FaultOutcome(await bench.session(configure).request(.url(url)).response())
        }
    }

    /// A case that requests `path` on the test server.
    static func path(
        _ name: String, _ path: String, expect: FaultExpectation,
        configure: @escaping @Sendable (inout Session.Configuration) -> Void = { _ in }
    ) -> FaultCase {
        FaultCase(name: name, expectation: expect) { bench in
            FaultOutcome(await bench.session(configure).request(.url(bench.server.url(path))).response())
        }
    }
}
