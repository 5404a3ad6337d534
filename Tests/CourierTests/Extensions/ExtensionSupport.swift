import Courier
import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An append-only list shared between threads.
final class EventLog: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func contains(_ entry: String) -> Bool { all.contains(entry) }
}

/// A plugin recording each hook it sees as "<name>.<hook>", and tagging requests with its name.
struct RecordingPlugin: Plugin {
    let name: String
    let log: EventLog

    func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
        log.append("\(name).prepare")
        var request = request
        let previous = request.value(forHTTPHeaderField: "X-Plugins").map { $0 + "," } ?? ""
        request.setValue(previous + name, forHTTPHeaderField: "X-Plugins")
        return request
    }

    func willSend(_ request: URLRequest, context: RequestContext) {
        log.append("\(name).willSend")
    }

    func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
        log.append("\(name).didReceive.\(response.statusCode ?? 0)")
    }

    func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
        log.append("\(name).process")
        return response
    }
}

/// The error a test plugin or interceptor throws.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Session {
    /// A session over the real engine with `plugins` and `interceptors`.
    static func with(
        plugins: [any Plugin] = [], interceptors: [any RequestInterceptor] = [],
        retryPolicy: RetryPolicy = .disabled, clock: (any CourierClock)? = nil
    ) -> Session {
        var configuration = Session.Configuration()
        configuration.plugins = plugins
        configuration.interceptors = interceptors
        configuration.retryPolicy = retryPolicy
        if let clock { configuration.clock = clock }
        return Session(configuration: configuration)
    }
}
