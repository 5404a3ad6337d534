import Courier
import CourierTesting
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `PluginHook.implemented(by:)`: a hook declared with a wrong signature compiles without a
/// diagnostic (Swift 6.3 gives none: the protocol's default satisfies the requirement) and is
/// never called; the check reports it missing.
final class PluginHookTests: XCTestCase {
    struct AllHooks: Plugin {
        func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest { request }
        func willSend(_ request: URLRequest, context: RequestContext) {}
        func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {}
        func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
            response
        }
    }

    struct NoHooks: Plugin {}

    /// Each hook with a wrong label or a wrong parameter or result type, as a user might write it.
    struct WrongLabel: Plugin {
        func prepare(_ request: URLRequest, ctx: RequestContext) throws -> URLRequest { request }
    }
    struct WrongLabelInAnExtension: Plugin {}
    struct WrongParameterType: Plugin {
        func willSend(_ request: URLRequest?, context: RequestContext) {}
    }
    struct WrongResponseType: Plugin {
        func didReceive(_ response: DataResponse<Data>, context: RequestContext) {}
    }
    struct WrongResultType: Plugin {
        func process(_ response: DataResponse<Data?>, context: RequestContext) -> DataResponse<Data?>? { response }
    }

    func testAPluginWithEveryHookImplementsAll() {
        XCTAssertEqual(PluginHook.implemented(by: AllHooks()), Set(PluginHook.allCases))
        XCTAssertEqual(PluginHook.implemented(by: NoHooks()), [])
    }

    func testAHookWithAWrongSignatureIsReportedMissing() {
        XCTAssertEqual(PluginHook.implemented(by: WrongLabel()), [])
        XCTAssertEqual(PluginHook.implemented(by: WrongLabelInAnExtension()), [])
        XCTAssertEqual(PluginHook.implemented(by: WrongParameterType()), [])
        XCTAssertEqual(PluginHook.implemented(by: WrongResponseType()), [])
        XCTAssertEqual(PluginHook.implemented(by: WrongResultType()), [])
    }

    /// What the check reports is what a session calls: the misspelled `prepare` adds no header.
    func testTheCheckAgreesWithWhatASessionCalls() async throws {
        struct Stamp: Plugin {
            func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
                var request = request
                request.setValue("yes", forHTTPHeaderField: "X-Stamped")
                return request
            }
        }
        struct MisspelledStamp: Plugin {
            func prepare(_ request: URLRequest, ctx: RequestContext) throws -> URLRequest {
                var request = request
                request.setValue("yes", forHTTPHeaderField: "X-Stamped")
                return request
            }
        }
        XCTAssertEqual(PluginHook.implemented(by: Stamp()), [.prepare])
        XCTAssertEqual(PluginHook.implemented(by: MisspelledStamp()), [])

        let stubs = StubTransport()
        stubs.on(.request(.get, "/stamp"), reply: .empty(statusCode: 204))
        let session = Session(transport: stubs)
        _ = try await session.request(.url("https://api.example.test/stamp")).plugin(Stamp()).validate().data()
        _ = try await session.request(.url("https://api.example.test/stamp")).plugin(MisspelledStamp()).validate()
            .data()
        XCTAssertEqual(stubs.requests.map { $0.header("X-Stamped") }, ["yes", nil])
    }
}

extension PluginHookTests.WrongLabelInAnExtension {
    func prepare(_ request: URLRequest, ctx: RequestContext) throws -> URLRequest { request }
}
