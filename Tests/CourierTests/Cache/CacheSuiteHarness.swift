@testable import Courier
import Foundation

/// One case of the third-party HTTP caching suite (http-tests/cache-tests, extracted to
/// ../shared/data/cache-tests/cases.json).
struct CacheSuiteCase {
    typealias Object = [String: Any]

    let id: String
    let kind: String
    let needs: [String]
    let requests: [Object]

    init?(_ object: Object) {
        guard let id = object["id"] as? String, let kind = object["kind"] as? String,
            let requests = object["requests"] as? [Object]
        else { return nil }
        self.id = id
        self.kind = kind
        self.needs = object["needs"] as? [String] ?? []
        self.requests = requests
    }

    enum Outcome: Equatable {
        case pass
        case fail(String)
        case setupFail(String)
    }

    /// Runs the case through a fresh ``HTTPCache`` (see ``CacheSuiteRun``).
    func run() -> Outcome {
        CacheSuiteRun(self).run()
    }
}

/// Runs one case through ``HTTPCache`` with a simulated origin and a virtual clock: the origin
/// does what the suite's server does (numbering requests, turning the case's relative dates into
/// HTTP-dates at its "now", answering 304 to a matching validation and 999 to a missing one), and
/// the checks are the suite client's (response type from `Server-Request-Count`, status, headers,
/// body, then the requests the origin saw).
final class CacheSuiteRun {
    typealias Object = [String: Any]

    private struct Failure: Error {
        let setup: Bool
        let message: String
    }

    private struct Response {
        var status: Int
        var headers: [CacheHeader]
        var body: String

        /// The fetch API's `Headers.get`: every value of the field joined with ", ".
        func get(_ name: String) -> String? { headers.combined(name) }
    }

    private struct ServerRecord {
        var requestNumber: Int
        var method: String
        var headers: [CacheHeader]
        var saved: [(String, String)]
    }

    private let item: CacheSuiteCase
    private let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 1 << 30))
    private let uuid = "7f7a1c52-4e1b-4c1a-9d3e-1c2b3a4d5e6f"
    private var now = Date(timeIntervalSince1970: 1_750_000_000)
    private var serverState: [ServerRecord] = []
    private var responses: [Response] = []
    /// The case's response fields as the origin sent them, by request number.
    private var sentFields: [Int: [CacheHeader]] = [:]

    init(_ item: CacheSuiteCase) {
        self.item = item
    }

    func run() -> CacheSuiteCase.Outcome {
        do {
            for (index, config) in item.requests.enumerated() {
                let number = index + 1
                let request = makeRequest(config, number: number)
                let policy: Session.CachePolicy =
                    (config["cache"] as? String) == "no-cache" ? .revalidate : .useProtocol
                let response = try fetch(
                    request, policy: policy, config: config, hasBody: config["request_body"] != nil)
                responses.append(response)
                try checkResponse(config, number: number, response: response)
                now +=
                    config["pause_after"] as? Bool == true
                    ? TimeInterval(config["pause_after_seconds"] as? Int ?? 3) : 0.01
            }
            try checkServerRequests()
            return .pass
        } catch let failure as Failure {
            return failure.setup ? .setupFail(failure.message) : .fail(failure.message)
        } catch {
            return .fail("\(error)")
        }
    }

    private func assert(_ setup: Bool, _ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(setup: setup, message: message()) }
    }

    private func isSetup(_ config: Object, _ member: String) -> Bool {
        config["setup"] as? Bool == true || (config["setup_tests"] as? [String] ?? []).contains(member)
    }

    // MARK: Client

    private func makeRequest(_ config: Object, number: Int) -> CacheRequest {
        var headers: [CacheHeader] = []
        for pair in config["request_headers"] as? [[Any]] ?? [] {
            guard let name = pair.first as? String else { continue }
            var value = pair.count > 1 ? "\(pair[1])" : ""
            if config["magic_ims"] as? Bool == true, name.lowercased() == "if-modified-since",
                let delta = pair[1] as? Int, let serverNow = responses.last?.get("Server-Now").flatMap(Double.init)
            {
                value = HTTPDate.format(Date(timeIntervalSince1970: (serverNow / 1000).rounded(.down) + Double(delta)))
            }
            headers.append(CacheHeader(name, value))
        }
        headers.append(CacheHeader("Test-ID", item.id))
        headers.append(CacheHeader("Req-Num", String(number)))
        var path = "http://cache-tests.invalid/test/\(uuid)"
        if let file = config["filename"] as? String { path += "/\(file)" }
        if let query = config["query_arg"] as? String { path += "?\(query)" }
        return CacheRequest(
            method: config["request_method"] as? String ?? "GET", url: URL(string: path)!, headers: headers)
    }

    /// What Courier's driver does around a transfer: prepare, send (with the plan's conditions),
    /// complete, and send again unconditionally when a 304 does not match the stored response.
    private func fetch(
        _ request: CacheRequest, policy: Session.CachePolicy, config: Object, hasBody: Bool
    ) throws -> Response {
        let plan = cache.prepare(request, policy: policy, now: now)
        switch plan.action {
        case .respond(let response, _):
            return Response(
                status: response.statusCode, headers: response.headers,
                body: String(decoding: response.body, as: UTF8.self))
        case .send(let conditions):
            var sent = request
            sent.headers += conditions
            let answer = try origin(sent, config: config)
            switch cache.complete(plan, request: request, response: answer, requestTime: now, responseTime: now) {
            case .deliver(let response, _):
                return Response(
                    status: response.statusCode, headers: response.headers,
                    body: String(decoding: response.body, as: UTF8.self))
            case .refetch:
                let retry = HTTPCache.Plan(action: .send(addingHeaders: []), revalidating: nil, storable: true)
                let second = try origin(request, config: config)
                guard
                    case .deliver(let response, _) = cache.complete(
                        retry, request: request, response: second, requestTime: now, responseTime: now)
                else { throw Failure(setup: false, message: "refetch asked twice") }
                return Response(
                    status: response.statusCode, headers: response.headers,
                    body: String(decoding: response.body, as: UTF8.self))
            }
        }
    }

    // MARK: Origin

    private func httpDate(_ serverNow: Date, _ delta: Int, rfc850: Bool) -> String {
        let instant = Date(timeIntervalSince1970: serverNow.timeIntervalSince1970.rounded(.down) + Double(delta))
        guard rfc850 else { return HTTPDate.format(instant) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
        return formatter.string(from: instant)
    }

    private func origin(_ request: CacheRequest, config requested: Object) throws -> CacheResponse {
        let clientNumber = Int(request.headers.first("Req-Num") ?? "") ?? 0
        let serverNumber = serverState.count + 1
        let number = clientNumber == 0 ? serverNumber : clientNumber
        guard number - 1 < item.requests.count else {
            throw Failure(setup: true, message: "no config for request \(number)")
        }
        let config = item.requests[number - 1]
        var status = (config["response_status"] as? [Any])?.first as? Int ?? 200
        if let type = config["expected_type"] as? String, type.hasSuffix("validated"), number >= 2 {
            // The suite's server compares with the previous request's fields as it sent them.
            // (or as configured, when the origin never saw that request).
            let configured = (item.requests[number - 2]["response_headers"] as? [[Any]] ?? []).compactMap { pair in
                (pair.first as? String).map { CacheHeader($0, pair.count > 1 ? "\(pair[1])" : "") }
            }
            let previous = sentFields[number - 1] ?? configured
            func previousValue(_ name: String) -> String? { previous.first(name) }
            status = 999
            if let modified = previousValue("last-modified"), request.headers.first("If-Modified-Since") == modified {
                status = 304
            }
            if let etag = previousValue("etag"), request.headers.first("If-None-Match") == etag { status = 304 }
        }
        let path = request.url.path + (request.url.query.map { "?\($0)" } ?? "")
        var headers: [CacheHeader] = [
            CacheHeader("Server-Base-Url", path), CacheHeader("Server-Request-Count", String(serverNumber)),
            CacheHeader("Client-Request-Count", String(clientNumber)),
            CacheHeader("Server-Now", String(Int64(now.timeIntervalSince1970 * 1000)))
        ]
        var saved: [(String, String)] = []
        let rfc850 = config["rfc850date"] as? [String] ?? []
        for pair in config["response_headers"] as? [[Any]] ?? [] {
            guard let name = pair.first as? String, pair.count > 1 else { continue }
            var value = "\(pair[1])"
            let lower = name.lowercased()
            if ["date", "expires", "last-modified", "if-modified-since", "if-unmodified-since"].contains(lower),
                let delta = pair[1] as? Int
            {
                value = httpDate(now, delta, rfc850: rfc850.contains(lower))
            }
            if ["location", "content-location"].contains(lower), config["magic_locations"] as? Bool == true {
                value = value.isEmpty ? path : "\(path)/\(value)"
            }
            headers.append(CacheHeader(name, value))
            sentFields[number, default: []].append(CacheHeader(name, value))
            if pair.count < 3 || pair[2] as? Bool == true {
                saved.removeAll { $0.0 == name }
                saved.append((name, headers.combined(name) ?? value))
            }
        }
        if !headers.contains("Content-Type") { headers.append(CacheHeader("Content-Type", "text/plain")) }
        if !headers.contains("Date") { headers.append(CacheHeader("Date", httpDate(now, 0, rfc850: false))) }
        serverState.append(
            ServerRecord(requestNumber: clientNumber, method: request.method, headers: request.headers, saved: saved))
        headers.append(
            CacheHeader("Request-Numbers", serverState.map { String($0.requestNumber) }.joined(separator: " ")))
        if config["disconnect"] as? Bool == true { throw Failure(setup: false, message: "origin disconnected") }
        let body =
            [204, 304].contains(status)
            ? "" : (config["response_body"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? uuid
        return CacheResponse(statusCode: status, headers: headers, body: Data(body.utf8))
    }

    // MARK: Checks

    private func checkResponse(_ config: Object, number: Int, response: Response) throws {
        let served = Int(response.get("Server-Request-Count") ?? "")
        if let type = config["expected_type"] as? String {
            let setup = isSetup(config, "expected_type")
            if type == "cached", !(response.status == 304 && served == nil) {
                try assert(setup, (served ?? Int.max) < number, "Response \(number) does not come from cache")
            }
            if type == "not_cached" { try assert(setup, served == number, "Response \(number) comes from cache") }
        }
        if config.keys.contains("expected_status") {
            if let expected = config["expected_status"] as? Int {
                try assert(
                    isSetup(config, "expected_status"), response.status == expected,
                    "Response \(number) status is \(response.status), not \(expected)")
            }
        } else if let status = (config["response_status"] as? [Any])?.first as? Int {
            try assert(
                true, response.status == status, "Response \(number) status is \(response.status), not \(status)")
        } else if response.status == 999 {
            try assert(
                isSetup(config, "expected_type"), false,
                "Request \(number) should have been conditional, but it was not.")
        } else {
            try assert(true, response.status == 200, "Response \(number) status is \(response.status), not 200")
        }
        let presentSetup = isSetup(config, "expected_response_headers")
        for header in config["expected_response_headers"] as? [Any] ?? [] {
            if let name = header as? String {
                try assert(presentSetup, response.get(name) != nil, "Response \(number) \(name) header not present.")
            } else if let triple = header as? [Any], triple.count > 2, let name = triple[0] as? String {
                try assert(presentSetup, response.get(name) != nil, "Response \(number) \(name) header not present.")
                let value = response.get(name)
                if triple[1] as? String == "=" {
                    try assert(
                        presentSetup, value == response.get("\(triple[2])"),
                        "Response \(number) header \(name) mismatch")
                } else {
                    let bound = triple[2] as? Int ?? 0
                    try assert(
                        presentSetup, (value.flatMap { Int($0) } ?? Int.min) > bound,
                        "Response \(number) header \(name) is \(value ?? "-"), should be bigger than \(bound)")
                }
            } else if let pair = header as? [Any], pair.count == 2, let name = pair[0] as? String {
                var expected = "\(pair[1])"
                if ["date", "expires", "last-modified"].contains(name.lowercased()), let delta = pair[1] as? Int,
                    let serverNow = response.get("Server-Now").flatMap(Double.init)
                {
                    expected = httpDate(Date(timeIntervalSince1970: serverNow / 1000), delta, rfc850: false)
                }
                try assert(
                    presentSetup, response.get(name) == expected,
                    "Response \(number) header \(name) is \"\(response.get(name) ?? "-")\", not \"\(expected)\"")
            }
        }
        let missingSetup = isSetup(config, "expected_response_headers_missing")
        for header in config["expected_response_headers_missing"] as? [Any] ?? [] {
            if let name = header as? String {
                try assert(
                    missingSetup, response.get(name) == nil, "Response \(number) includes unexpected header \(name)")
            } else if let pair = header as? [String], pair.count == 2, let value = response.get(pair[0]) {
                try assert(
                    missingSetup, !value.contains(pair[1]),
                    "Response \(number) header \(pair[0]) still has value \(value)")
            }
        }
        try checkBody(config, response: response)
    }

    private func checkBody(_ config: Object, response: Response) throws {
        if config["check_body"] as? Bool == false { return }
        if config.keys.contains("expected_response_text") {
            if let text = config["expected_response_text"] as? String {
                try assert(
                    isSetup(config, "expected_response_text"), response.body == text,
                    "Response body is \"\(response.body)\", not \"\(text)\"")
            }
        } else if let body = config["response_body"] as? String {
            try assert(true, response.body == body, "Response body is \"\(response.body)\", not \"\(body)\"")
        } else if ![204, 304].contains(response.status), config["request_method"] as? String != "HEAD" {
            try assert(true, response.body == uuid, "Response body is \"\(response.body)\", not the default")
        }
    }

    private func checkServerRequests() throws {
        var serverIndex = 0
        for (index, config) in item.requests.enumerated() {
            let number = index + 1
            let typeSetup = isSetup(config, "expected_type")
            var validating: [String] = []
            let record = serverIndex < serverState.count ? serverState[serverIndex] : nil
            if let type = config["expected_type"] as? String {
                if type == "cached" { continue }
                if type == "not_cached" {
                    try assert(
                        typeSetup, record?.requestNumber == number,
                        "Response \(number) comes from cache (\(record?.requestNumber ?? 0) on server)")
                }
                if type == "etag_validated" { validating.append("If-None-Match") }
                if type == "lm_validated" { validating.append("If-Modified-Since") }
            }
            serverIndex += 1
            for name in validating {
                try assert(typeSetup, record != nil, "request \(number) wasn't sent to server")
                try assert(
                    typeSetup, record?.headers.contains(name) == true, "request \(number) doesn't have \(name) header")
            }
            let requestSetup = isSetup(config, "expected_request_headers")
            for header in config["expected_request_headers"] as? [Any] ?? [] {
                if let name = header as? String {
                    try assert(
                        requestSetup, record?.headers.contains(name) == true,
                        "Request \(number) \(name) header not present.")
                } else if let pair = header as? [String], pair.count == 2 {
                    let value = record?.headers.first(pair[0])
                    try assert(
                        requestSetup, value == pair[1],
                        "Request \(number) header \(pair[0]) is \"\(value ?? "-")\", not \"\(pair[1])\"")
                }
            }
            if let record, index < responses.count {
                for (name, value) in record.saved where name.lowercased() != "date" {
                    let received = responses[index].get(name)
                    try assert(
                        true, received == value,
                        "Response \(number) header \(name) is \"\(received ?? "-")\", not \"\(value)\"")
                }
            }
            if let method = config["expected_method"] as? String {
                try assert(
                    isSetup(config, "expected_method"), record?.method == method,
                    "Request \(number) had method \(record?.method ?? "-"), not \(method)")
            }
        }
    }
}
