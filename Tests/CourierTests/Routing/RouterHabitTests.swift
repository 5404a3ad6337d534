import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import Courier

/// Declarations carried over from Moya and Alamofire routers are used, not silently ignored by
/// the protocol's defaults. (Those that cannot be honoured do not compile; see
/// ServiceTests/MisuseDoesNotCompileTests.)
final class RouterHabitTests: XCTestCase {
    /// Moya's `TargetType` spelling of headers.
    enum MoyaStyleAPI: Router {
        case profile, anonymous
        var baseURL: String { "https://api.test" }
        var path: String { "/me" }
        var method: HTTPMethod { .get }
        var headers: [String: String]? {
            switch self {
            case .profile: return ["Authorization": "Bearer t", "X-Client": "ios"]
            case .anonymous: return nil
            }
        }
    }

    func testMoyaStyleOptionalDictionaryHeadersAreSent() throws {
        let request = try MoyaStyleAPI.profile.asURLRequest()
        XCTAssertEqual(
            request.allHTTPHeaderFields,
            ["Accept": "application/json", "Authorization": "Bearer t", "X-Client": "ios"])
        XCTAssertEqual(try MoyaStyleAPI.anonymous.asURLRequest().allHTTPHeaderFields, ["Accept": "application/json"])
    }

    func testDictionaryHeadersAreValidatedLikeAnyOthers() {
        struct Injected: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var headers: [String: String] { ["X-Evil": "a\r\nX-Admin: 1"] }
        }
        XCTAssertThrowsError(try Injected().asURLRequest()) { error in
            XCTAssertSameError(error as? CourierError, .invalidHeader(name: "X-Evil", reason: "the value contains CR"))
        }
    }

    func testNonOptionalDictionaryAndOptionalHTTPHeaders() throws {
        struct Plain: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var headers: [String: String] { ["X-B": "2", "X-A": "1"] }
            var defaultHeaders: [String: String] { [:] }
        }
        let plain = try Plain().asURLRequest()
        XCTAssertEqual(plain.allHTTPHeaderFields, ["X-A": "1", "X-B": "2"])

        struct Optional: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var headers: HTTPHeaders? { [.authorization(bearerToken: "t")] }
        }
        XCTAssertEqual(try Optional().asURLRequest().value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    /// An API-wide protocol may give headers for all its routers; a router's own declaration,
    /// whatever its spelling, replaces them.
    func testAPIProtocolDefaultsAndRouterOwnHeaders() throws {
        let shared = try KeyedAPI.search.asURLRequest()
        XCTAssertEqual(shared.value(forHTTPHeaderField: "X-Api-Key"), "k")
        let own = try KeyedOwnHeadersAPI.search.asURLRequest()
        XCTAssertNil(own.value(forHTTPHeaderField: "X-Api-Key"))
        XCTAssertEqual(own.value(forHTTPHeaderField: "X-Own"), "yes")
    }

    func testNonOptionalAndIntegerTimeoutsAreUsed() throws {
        struct Seconds: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: TimeInterval { 12.5 }
        }
        struct WholeSeconds: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: Int { 30 }
        }
        struct AsDuration: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: Duration? { .milliseconds(1500) }
        }
        XCTAssertEqual(try Seconds().asURLRequest().timeoutInterval, 12.5)
        XCTAssertEqual(try WholeSeconds().asURLRequest().timeoutInterval, 30)
        XCTAssertEqual(try AsDuration().asURLRequest().timeoutInterval, 1.5)
    }

    func testInvalidTimeoutsOfAnyTypeAreRejected() {
        struct Zero: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: Int { 0 }
        }
        XCTAssertThrowsError(try Zero().asURLRequest()) { error in
            XCTAssertSameError(
                error as? CourierError,
                .invalidRequest(reason: "timeout must be a positive number of seconds, got 0.0"))
        }
    }
}

extension RouterHabitTests {
    /// A type Courier cannot read is used (not silently replaced by the default) and fails the
    /// request with an error naming the property and what to declare.
    func testHeadersAndTimeoutsOfOtherTypesFailNamingTheProperty() {
        struct NumericHeaders: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var headers: [String: Int] { ["X-Count": 1] }
        }
        struct TextTimeout: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var timeout: String { "30" }
        }
        XCTAssertThrowsError(try NumericHeaders().asURLRequest()) { error in
            XCTAssertEqual(error as? CourierError, .invalidRequest)
            XCTAssertTrue(
                (error as? CourierError)?.description.contains("headers of type Dictionary<String, Int>") ?? false,
                "\(error)")
        }
        XCTAssertThrowsError(try TextTimeout().asURLRequest()) { error in
            XCTAssertEqual(error as? CourierError, .invalidRequest)
            XCTAssertTrue((error as? CourierError)?.description.contains("timeout of type String") ?? false, "\(error)")
        }
    }

    func testNilOptionalHeadersAndTimeoutsSendNone() throws {
        struct Nothing: Router {
            var baseURL: String { "https://api.test" }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var headers: HTTPHeaders? { nil }
            var defaultHeaders: [String: String]? { nil }
            var timeout: Int? { nil }
        }
        let request = try Nothing().asURLRequest()
        XCTAssertEqual(request.allHTTPHeaderFields ?? [:], [:])
        XCTAssertEqual(request.timeoutInterval, URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval)
    }
}

protocol KeyedAPIRouter: Router {}

extension KeyedAPIRouter {
    var baseURL: String { "https://api.test" }
    var headers: HTTPHeaders { ["X-Api-Key": "k"] }
}

enum KeyedAPI: KeyedAPIRouter {
    case search
    var path: String { "/search" }
    var method: HTTPMethod { .get }
}

enum KeyedOwnHeadersAPI: KeyedAPIRouter {
    case search
    var path: String { "/search" }
    var method: HTTPMethod { .get }
    var headers: [String: String]? { ["X-Own": "yes"] }
}
