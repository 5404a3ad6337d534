import Courier
import CourierTesting
import XCTest

/// Services the compiler checks (`Service` adopted by a struct, a final class or an actor, no
/// `@unchecked Sendable`), and `ServiceSession`, which points any service, singletons included,
/// at another session without editing it.
final class ServiceProtocolTests: XCTestCase {
    /// A singleton struct on `Session.default`, as an app writes it.
    struct ProfileService: Service {
        static let shared = ProfileService()
        static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        private init() {}

        func profile() async -> NetworkResult<Item> { await request(.url("http://profile.test/me")) }

        func profile(completion: @escaping @Sendable (NetworkResult<Item>) -> Void) {
            request(.url("http://profile.test/me"), completion: completion)
        }
    }

    /// A final class with its own session and decoder (Foundation's, configured), all `let`:
    /// checked `Sendable`.
    final class CatalogService: Service {
        static var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }
        let session: Session
        let decoder: any DataDecoder

        init(session: Session) {
            self.session = session
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            self.decoder = decoder
        }

        func item() async -> NetworkResult<CatalogItem> { await request(.url("http://catalog.test/item")) }
    }

    struct CatalogItem: Decodable, Sendable, Equatable {
        let itemId: Int
    }

    /// An actor: its state is isolated, the helpers are still available.
    actor TokenService: Service {
        static var envelope: any EnvelopeFormat.Type { NoEnvelope.self }
        let session: Session
        private var fetched = 0

        init(session: Session) { self.session = session }

        func token() async -> NetworkResult<String> {
            fetched += 1
            return await request(.url("http://token.test/"), decodingMode: .payload)
        }

        var fetchCount: Int { fetched }
    }

    /// A BaseService singleton, the router-pattern style, with a makeRequest override.
    final class LegacyService: BaseService, @unchecked Sendable {
        static let shared = LegacyService()
        private init() { super.init() }
        override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

        override func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
            super.makeRequest(target).validate()
        }

        func profile() async -> NetworkResult<Item> { await request(.url("http://legacy.test/me")) }
    }

    private static func statusStub(_ title: String) -> Session {
        Session.stubbed { _ in
            .json(#"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"\#(title)"}}"#)
        }
    }

    func testStructFinalClassAndActorServicesUseTheDefaultHelpers() async {
        let catalog = CatalogService(
            session: Session.stubbed { _ in
                .json(#"{"isSuccess":true,"code":"COMMON200","message":"ok","result":{"item_id":7}}"#)
            })
        let item = await catalog.item()
        XCTAssertEqual(item, .success(CatalogItem(itemId: 7)))

        let tokens = TokenService(session: Session.stubbed { _ in .json(#""t-1""#) })
        let token = await tokens.token()
        XCTAssertEqual(token, .success("t-1"))
        let count = await tokens.fetchCount
        XCTAssertEqual(count, 1)
    }

    func testScopedSessionReachesASingletonWithoutEditingIt() async {
        let result = await ServiceSession.using(Self.statusStub("stubbed")) { await ProfileService.shared.profile() }
        XCTAssertEqual(result, .success(Item(id: 1, title: "stubbed")))

        let legacy = await ServiceSession.using(Self.statusStub("legacy")) { await LegacyService.shared.profile() }
        XCTAssertEqual(legacy, .success(Item(id: 1, title: "legacy")))
    }

    func testScopedSessionWinsOverTheServicesOwnSession() async {
        let own = CatalogService(session: Self.statusStub("own"))
        let stub = Session.stubbed { _ in .json(#"{"isSuccess":true,"code":1000,"result":{"item_id":42}}"#) }
        let result = await ServiceSession.using(stub) { await own.item() }
        XCTAssertEqual(result, .success(CatalogItem(itemId: 42)))
    }

    func testScopeCoversChildTasksButNotUnrelatedOnes() async {
        let tokens = TokenService(session: Session.stubbed { _ in .json(#""own""#) })
        let stub = Session.stubbed { _ in .json(#""scoped""#) }
        let (child, detached) = await ServiceSession.using(stub) {
            async let child = tokens.token()
            let detached = await Task.detached { await tokens.token() }.value
            return (await child, detached)
        }
        XCTAssertEqual(child, .success("scoped"))
        XCTAssertEqual(detached, .success("own"))
        let outside = await tokens.token()
        XCTAssertEqual(outside, .success("own"))
    }

    func testCompletionHandlerRequestsMadeInTheScopeUseIt() {
        let done = expectation(description: "completion")
        ServiceSession.using(Self.statusStub("callback")) {
            ProfileService.shared.profile { result in
                XCTAssertEqual(result, .success(Item(id: 1, title: "callback")))
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    func testAScopedOverrideReachesChildTasksButNotOtherTasks() async {
        let scoped = await ServiceSession.using(Self.statusStub("scoped")) {
            async let child = ProfileService.shared.profile()
            return await child
        }
        XCTAssertEqual(scoped, .success(Item(id: 1, title: "scoped")))
        XCTAssertNil(ServiceSession.current, "the override ends with its closure")
    }

    func testBaseServiceIsAServiceWithTheSameJudging() {
        let body = json(#"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"a"}}"#)
        func judged<S: Service>(_ service: S) -> NetworkResult<Item> {
            service.judgeStatus(by: 200, body, type: Item.self, decodingMode: .payload)
        }
        XCTAssertEqual(judged(StatusService()), .success(Item(id: 1, title: "a")))
        XCTAssertEqual(judged(ProfileService.shared), .success(Item(id: 1, title: "a")))
        // The generic path sees a subclass's overrides (envelope and judgeStatus).
        XCTAssertEqual(judged(LenientSearchService()), .success(Item(id: 1, title: "a")))
        func judged404<S: Service>(_ service: S) -> NetworkResult<[Item]> {
            service.judgeStatus(by: 404, Data(), type: [Item].self, decodingMode: .payload)
        }
        XCTAssertEqual(judged404(LenientSearchService()), .success([]))
    }
}
