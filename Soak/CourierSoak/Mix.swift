import Courier
import CourierSync
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one run of the mix observed.
struct MixResult {
    var failures: [String] = []
    var tally: [String: Int] = [:]
    var peak = Resources(fileDescriptors: 0, threads: 0, heapBytes: 0, residentBytes: 0)
}

/// One kind of request in the mix and the result it must end with.
struct Scenario: Sendable {
    enum Expectation: Sendable, Equatable {
        case status(Int)
        case cancelled
        case timedOut
        case truncated
        case connectionFailure
        case unacceptableStatus(Int)
    }

    let name: String
    let path: String
    var method = "GET"
    var body: Data?
    var timeout: TimeInterval?
    var retries = false
    var cancelAfter: TimeInterval?
    let expected: Expectation

    /// Ten scenarios, one of each per ten requests: half succeed, the rest fail in every way the
    /// engine has to clean up after.
    static func all(closedPort: Int) -> [Scenario] {
        [
            Scenario(name: "hello", path: "/hello", expected: .status(200)),
            Scenario(name: "bytes", path: "/bytes?size=65536&seed=3", expected: .status(200)),
            Scenario(name: "post-echo", path: "/echo", method: "POST", body: Data(repeating: 0x61, count: 2048),
                     expected: .status(200)),
            Scenario(name: "gzip", path: "/gzip?size=20000", expected: .status(200)),
            Scenario(name: "chunked", path: "/chunked?chunks=8&size=512", expected: .status(200)),
            Scenario(name: "503-retried", path: "/status/503", retries: true, expected: .unacceptableStatus(503)),
            Scenario(name: "closed-before-head", path: "/close-before-headers", expected: .truncated),
            Scenario(name: "truncated-body", path: "/truncated?send=10&declared=1000", expected: .truncated),
            Scenario(name: "timeout", path: "/delay?ms=300", timeout: 0.05, expected: .timedOut),
            Scenario(name: "cancelled", path: "/delay?ms=300", cancelAfter: 0.005, expected: .cancelled),
            Scenario(name: "refused", path: "http://127.0.0.1:\(closedPort)/", expected: .connectionFailure),
        ]
    }

    func matches(_ response: DataResponse<Data?>) -> Bool {
        switch (expected, response.error) {
        case (.status(let code), nil): return response.statusCode == code
        case (.cancelled, .cancelled?): return true
        case (.timedOut, .timedOut?): return true
        case (.truncated, .truncatedResponse?), (.truncated, .protocolViolation?): return true
        case (.connectionFailure, .cannotConnect?): return true
        case (.unacceptableStatus(let code), .unacceptableStatusCode?): return response.error?.statusCode == code
        default: return false
        }
    }
}

/// Runs `count` requests of the mix, `concurrency` at a time, on a fresh server and fresh
/// sessions, then shuts the server down and releases the sessions.
func runMix(count: Int, concurrency: Int) throws -> MixResult {
    let server = try TestHTTPServer()
    let plain = Session()
    var retrying = Session.Configuration()
    retrying.retryPolicy = RetryPolicy(maxRetries: 1, baseDelay: 0.001)
    let retry = Session(configuration: retrying)
    let scenarios = Scenario.all(closedPort: closedPort())

    let slots = DispatchSemaphore(value: concurrency)
    let finished = DispatchGroup()
    let record = Locked(MixResult())
    // One flag per request: set by its completion, which must come exactly once.
    let completions = Locked([UInt8](repeating: 0, count: count))

    for index in 0..<count {
        slots.wait()
        let scenario = scenarios[index % scenarios.count]
        var request = URLRequest(url: scenario.path.hasPrefix("http") ? URL(string: scenario.path)! : server.url(scenario.path))
        request.httpMethod = scenario.method
        request.httpBody = scenario.body
        if let timeout = scenario.timeout { request.timeoutInterval = timeout }
        let session = scenario.retries ? retry : plain
        finished.enter()
        let dataRequest = session.request(.urlRequest(request)).validate()
        dataRequest.response { response in
            let repeated = completions.withLock { flags in
                defer { flags[index] &+= 1 }
                return flags[index] > 0
            }
            record.withLock { result in
                if repeated {
                    result.failures.append("request \(index) (\(scenario.name)) completed twice")
                } else if !scenario.matches(response) {
                    result.failures.append("request \(index) (\(scenario.name)): expected \(scenario.expected), got "
                        + "\(response.statusCode.map(String.init) ?? "no status") \(String(describing: response.error))")
                }
                result.tally[scenario.name, default: 0] += 1
            }
            if !repeated {
                slots.signal()
                finished.leave()
            }
        }
        if let delay = scenario.cancelAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { dataRequest.cancel() }
        }
        if index % 1000 == 999 {
            let now = Resources.current()
            record.withLock { $0.peak = $0.peak.maxed(with: now) }
        }
        if index % 10_000 == 9_999 { say("  \(index + 1) requests") }
    }
    if finished.wait(timeout: .now() + 120) == .timedOut {
        record.withLock { $0.failures.append("requests still running 120 s after the last was started") }
    }
    let missing = completions.withLock { flags in flags.filter { $0 == 0 }.count }
    if missing > 0 { record.withLock { $0.failures.append("\(missing) requests never completed") } }
    server.shutdown()
    return record.withLock { $0 }
}

/// A loopback port nothing listens on.
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
