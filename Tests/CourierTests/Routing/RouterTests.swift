import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import Courier
import CourierSync
import CourierTesting

/// The seed routers of `Fixtures.swift`, router defaults and router-level errors.
final class RouterTests: XCTestCase {
    func testAuthSignUpAndSignIn() throws {
        let signUp = try AuthRouter.signUp(email: "ada@x.test", name: "Ada", pw: "s3cret!").asURLRequest()
        XCTAssertEqual(signUp.httpMethod, "POST")
        XCTAssertEqual(signUp.url?.absoluteString, "https://api.seed.test/v1/auth/signup")
        XCTAssertEqual(signUp.bodyText, #"{"email":"ada@x.test","name":"Ada","pw":"s3cret!"}"#)
        XCTAssertEqual(signUp.allHTTPHeaderFields, ["Accept": "application/json", "Content-Type": "application/json"])

        let signIn = try AuthRouter.signIn(email: "ada@x.test", pw: "pw").asURLRequest()
        XCTAssertEqual(signIn.url?.absoluteString, "https://api.seed.test/v1/auth/signin")
        XCTAssertEqual(signIn.bodyText, #"{"email":"ada@x.test","pw":"pw"}"#)
        XCTAssertEqual(AuthRouter.signIn(email: "", pw: "").sampleData, Data(#"{"token":"sample-token"}"#.utf8))
    }

    func testCaseWithItsOwnAuthorizationHeader() throws {
        let request = try AuthRouter.me(token: "tok123").asURLRequest()
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertEqual(request.url?.absoluteString, "https://api.seed.test/v1/auth/me")
        XCTAssertNil(request.httpBody)
        XCTAssertEqual(request.allHTTPHeaderFields, ["Accept": "application/json", "Authorization": "Bearer tok123"])
    }

    func testHeaderInjectionThroughRouterCaseIsRejected() {
        XCTAssertThrowsError(try AuthRouter.me(token: "t\r\nX-Admin: 1").asURLRequest()) { error in
            XCTAssertSameError(
                error as? CourierError, .invalidHeader(name: "Authorization", reason: "the value contains CR"))
        }
    }

    func testHomeAPI() throws {
        let expectations: [(HomeAPI, String)] = [
            (.banner, "https://api.seed.test/v1/home/banner"),
            (.popular(page: 3), "https://api.seed.test/v1/home/popular?page=3"),
            (.latest(limit: 10, includeAds: false), "https://api.seed.test/v1/home/latest?includeAds=0&limit=10"),
            (.personalized(userId: "u-42"), "https://api.seed.test/v1/home/users/u-42/personalized"),
            (
                .personalized(userId: "../../admin?x=1#f"),
                "https://api.seed.test/v1/home/users/..%2F..%2Fadmin%3Fx%3D1%23f/personalized"
            )
        ]
        for (route, url) in expectations {
            let request = try route.asURLRequest()
            XCTAssertEqual(request.url?.absoluteString, url)
            XCTAssertEqual(request.httpMethod, "GET")
            XCTAssertNil(request.httpBody)
            XCTAssertNil(request.value(forHTTPHeaderField: "Content-Type"))
            XCTAssertEqual(try route.resolvedURL().absoluteString, url)
        }
        XCTAssertEqual(try HomeAPI.personalized(userId: "x").asURLRequest().timeoutInterval, 5)
        XCTAssertEqual(HomeAPI.banner.sampleData, Data())
    }

    func testTravelSearchCompositeQueryAndEncodableBody() throws {
        let filter = TravelFilter(destination: "Kyoto", maxPrice: 1200.5, tags: ["food", "temples"], refundable: nil)
        let request = try TravelAPI.search(page: 2, size: 20, filter: filter).asURLRequest()
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.url?.absoluteString, "https://api.seed.test/v1/travel/search?lang=en&page=2&size=20")
        XCTAssertEqual(request.bodyText, #"{"destination":"Kyoto","maxPrice":1200.5,"tags":["food","temples"]}"#)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func testTravelMultipartUpload() throws {
        let route = TravelAPI.uploadPhoto(
            tripId: "trip 7", photo: Data("JPEG".utf8), caption: "Fuji", boundary: "seed-boundary")
        let request = try route.asURLRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://api.seed.test/v1/travel/trips/trip%207/photos")
        XCTAssertEqual(request.timeoutInterval, 120)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=seed-boundary")
        XCTAssertEqual(
            request.bodyText,
            """
            --seed-boundary\r
            Content-Disposition: form-data; name="caption"\r
            \r
            Fuji\r
            --seed-boundary\r
            Content-Disposition: form-data; name="photo"; filename="photo.jpg"\r
            Content-Type: image/jpeg\r
            \r
            JPEG\r
            --seed-boundary--\r\n
            """)
    }

    func testBaseURLCanBeOverriddenPerTask() throws {
        try SeedAPI.$baseURL.withValue("http://127.0.0.1:8080/") {
            XCTAssertEqual(try HomeAPI.banner.asURLRequest().url?.absoluteString, "http://127.0.0.1:8080/home/banner")
            XCTAssertEqual(
                try AuthRouter.signIn(email: "e", pw: "p").asURLRequest().url?.absoluteString,
                "http://127.0.0.1:8080/auth/signin")
        }
        XCTAssertEqual(try HomeAPI.banner.asURLRequest().url?.absoluteString, "https://api.seed.test/v1/home/banner")
    }

    func testInvalidBaseURLs() throws {
        try SeedAPI.$baseURL.withValue("file:///etc") {
            XCTAssertThrowsError(try HomeAPI.banner.asURLRequest()) { error in
                XCTAssertSameError(error as? CourierError, .unsupportedScheme("file"))
            }
        }
        try SeedAPI.$baseURL.withValue("api.seed.test") {
            XCTAssertThrowsError(try HomeAPI.banner.asURLRequest()) { error in
                XCTAssertSameError(
                    error as? CourierError,
                    .invalidURL("'api.seed.test' is not an absolute URL (expected for example https://api.example.com)")
                )
            }
        }
    }

    func testDefaultsAndOverrides() throws {
        struct Custom: Router {
            var baseURL: String { "https://c.test" }
            var path: String { "/x" }
            var method: HTTPMethod { .delete }
            var defaultHeaders: HTTPHeaders { ["User-Agent": "Courier-Tests", "Accept": "text/plain"] }
            var headers: HTTPHeaders { [HTTPHeader(name: "Accept", value: "text/csv")] }
            var timeout: TimeInterval? { 2.5 }
        }
        let request = try Custom().asURLRequest()
        XCTAssertEqual(request.httpMethod, "DELETE")
        XCTAssertEqual(request.allHTTPHeaderFields, ["User-Agent": "Courier-Tests", "Accept": "text/csv"])
        XCTAssertEqual(request.timeoutInterval, 2.5)
        XCTAssertNil(request.httpBody)
    }

    func testARoutersURLRequestIsTheRequestCourierSends() async throws {
        struct Search: Router {
            var baseURL: String { "https://c.test" }
            var path: String { "/search" }
            var method: HTTPMethod { .post }
            var headers: HTTPHeaders { ["X-B": "2", "X-A": "1"] }
            var parameters: RequestParams { .body(["q": "swift"]) }
        }
        let stubs = StubTransport(sampleData: false) { _ in .empty() }
        _ = await Session(transport: stubs).request(Search()).response()
        let sent = try XCTUnwrap(stubs.requests.first).request
        let urlRequest = try Search().asURLRequest()
        XCTAssertEqual(try HTTPRequest(urlRequest).url, sent.url)
        XCTAssertEqual(urlRequest.httpMethod, "POST")
        XCTAssertEqual(urlRequest.httpBody, sent.bodyData)
        XCTAssertEqual(urlRequest.allHTTPHeaderFields?["X-A"], "1")
        // The router's order reaches the transport (a URLRequest keeps none).
        XCTAssertEqual(sent.headers.map(\.name), ["Accept", "X-B", "X-A", "Content-Type", "User-Agent"])
    }

    /// A router's properties are read once per request: a computed base URL that changes between
    /// reads gives the request the value that was checked, not a later one.
    func testRouterPropertiesAreReadOncePerRequest() throws {
        struct Switching: Router {
            let baseReads: Locked<Int>
            let methodReads: Locked<Int>
            var baseURL: String {
                baseReads.withLock { count in
                    count += 1
                    return count == 1 ? "https://first.test" : "https://second.test"
                }
            }
            var path: String { "/x" }
            var method: HTTPMethod {
                methodReads.withLock { $0 += 1 }
                return .get
            }
        }
        let router = Switching(baseReads: Locked(0), methodReads: Locked(0))
        let request = try router.makeRequest()
        XCTAssertEqual(request.url.absoluteString, "https://first.test/x")
        XCTAssertEqual(router.baseReads.withLock { $0 }, 1)
        XCTAssertEqual(router.methodReads.withLock { $0 }, 1)
    }

    func testInvalidMethodAndTimeout() {
        XCTAssertThrowsError(try AdHocRouter(method: "GET /evil HTTP/1.1\r\n").asURLRequest()) { error in
            guard error as? CourierError == .invalidRequest else { return XCTFail("\(error)") }
        }
        struct BadTimeout: Router {
            var value: TimeInterval
            var baseURL: String { "https://c.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: TimeInterval? { value }
        }
        for value in [0, -1, .nan, .infinity] {
            XCTAssertThrowsError(try BadTimeout(value: value).asURLRequest()) { error in
                guard error as? CourierError == .invalidRequest else { return XCTFail("\(error)") }
            }
        }
    }

    func testRoutersAreURLRequestConvertibleAndSendable() throws {
        let convertibles: [any URLRequestConvertible] = [
            HomeAPI.banner, AuthRouter.me(token: "t"), .url("https://x.test/a")
        ]
        XCTAssertEqual(
            try convertibles.map { try $0.asURLRequest().url?.host }, ["api.seed.test", "api.seed.test", "x.test"])
    }

    func testRequestsBuildConcurrentlyWithTaskLocalBaseURLs() async throws {
        let urls = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try SeedAPI.$baseURL.withValue("http://127.0.0.1:\(8000 + index)") {
                        try HomeAPI.popular(page: index).asURLRequest().url?.absoluteString ?? ""
                    }
                }
            }
            var collected: [String] = []
            for try await url in group { collected.append(url) }
            return collected
        }
        XCTAssertEqual(Set(urls), Set((0..<20).map { "http://127.0.0.1:\(8000 + $0)/home/popular?page=\($0)" }))
    }
}
