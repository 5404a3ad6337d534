import Courier
import CourierSync
import CourierTestServer
import Dispatch
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the one driver runs a request's user code: in the awaiting task, or on the completion
/// handler's queue; never on the engine thread, whatever the session is configured with.
final class RequestDriverTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    enum Tenant { @TaskLocal static var id = "none" }

    /// Records the task-local tenant each hook saw.
    struct TenantPlugin: Plugin {
        let seen: Locked<[String]>
        func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
            seen.withLock { $0.append("didReceive:\(Tenant.id)") }
        }
        func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
            seen.withLock { $0.append("process:\(Tenant.id)") }
            return response
        }
    }

    func testAnAwaitedRequestRunsItsPluginsAndValidatorsInTheAwaitingTask() async {
        for withPlugin in [false, true] {
            let seen = Locked<[String]>([])
            let request = Session().request(.url(server.url("/hello")))
                .validate { _, _, _ in
                    seen.withLock { $0.append("validate:\(Tenant.id)") }
                    return .success(())
                }
            if withPlugin { request.plugin(TenantPlugin(seen: seen)) }
            let response = await Tenant.$id.withValue("acme") { await request.response() }
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(
                seen.withLock { $0 },
                withPlugin ? ["didReceive:acme", "validate:acme", "process:acme"] : ["validate:acme"],
                "the awaiting task's task-local values are visible: the hooks ran in that task")
        }
    }

    func testACompletionHandlersValidatorsRunOnItsQueue() {
        let queue = DispatchQueue(label: "courier.tests.driver")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        for withPlugin in [false, true] {
            let onQueue = Locked<[Bool]>([])
            let done = expectation(description: "handler \(withPlugin)")
            let request = Session().request(.url(server.url("/hello")))
                .validate { _, _, _ in
                    onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
                    return .success(())
                }
            if withPlugin { request.plugin(TenantPlugin(seen: Locked([]))) }
            request.response(queue: queue) { response in
                onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
                XCTAssertEqual(response.statusCode, 200)
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(onQueue.withLock { $0 }, [true, true], "validator, then handler, on the handler's queue")
        }
    }

    /// A request that fails before any wait (it could not be built) still calls its handler on
    /// the handler's queue, not on the thread that added the handler.
    func testAnInvalidRequestsHandlerRunsOnItsQueue() {
        let queue = DispatchQueue(label: "courier.tests.driver.invalid")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let done = expectation(description: "handler")
        let onQueue = Locked<Bool?>(nil)
        Session().request(.url("ftp://example.com/file")).response(queue: queue) { response in
            onQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == true }
            XCTAssertEqual(response.error?.kind, "unsupportedScheme")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(onQueue.withLock { $0 }, true)
    }
}
