import Courier
import CourierSync
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plugins registered on a service run after the session's, for every call of the service.
final class ServicePluginTests: XCTestCase {
    /// Appends its name to `X-Plugins` and to a shared log at `prepare` and `process`.
    struct Tag: Plugin {
        let name: String
        let log: Locked<[String]>
        func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
            log.withLock { $0.append("\(name).prepare") }
            var request = request
            request.setValue(
                (request.value(forHTTPHeaderField: "X-Plugins").map { $0 + "," } ?? "") + name,
                forHTTPHeaderField: "X-Plugins")
            return request
        }
        func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
            log.withLock { $0.append("\(name).process") }
            return response
        }
    }

    final class TaggedService: BaseService, @unchecked Sendable {
        let log: Locked<[String]>
        init(session: Session, log: Locked<[String]>) {
            self.log = log
            super.init(session: session)
        }
        override var plugins: [any Plugin] { [Tag(name: "service", log: log)] }
    }

    func testServicePluginsRunAfterTheSessionsOnEveryCallStyle() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        server.route("GET", "/item") { _ in .jsonString(#"{"id":1,"title":"a"}"#) }
        let log = Locked<[String]>([])
        var configuration = Session.Configuration()
        configuration.plugins = [Tag(name: "session", log: log)]
        let service = TaggedService(session: Session(configuration: configuration), log: log)

        let value: NetworkResult<Item> = await service.request(.url(server.url("/item")))
        XCTAssertEqual(value.value, Item(id: 1, title: "a"))
        let viaCompletion: NetworkResult<Item> = await withCheckedContinuation { continuation in
            service.request(.url(server.url("/item")), as: Item.self) { continuation.resume(returning: $0) }
        }
        XCTAssertEqual(viaCompletion.value, Item(id: 1, title: "a"))

        XCTAssertEqual(
            server.recordedRequests(path: "/item").map { $0.header("X-Plugins") },
            ["session,service", "session,service"])
        XCTAssertEqual(
            log.withLock { $0 },
            [
                "session.prepare", "service.prepare", "session.process", "service.process",
                "session.prepare", "service.prepare", "session.process", "service.process"
            ])
    }
}
