import Courier
import CourierTesting
import Foundation
import XCTest

/// Every RequestParams case sent through a Router to httpbin's /anything: the args, form, json,
/// files and headers httpbin echoes must be exactly what the router declared.
final class RouterRoundTripTests: XCTestCase {
    struct Filter: Codable, Sendable, Equatable {
        var destination: String
        var maxPrice: Int
        var tags: [String]
    }

    struct Anything: Decodable, Sendable {
        var args: [String: JSONValue]
        var form: [String: JSONValue]
        var files: [String: String]
        var json: JSONValue?
        var data: String
        var headers: [String: String]
        var method: String
        var url: String
    }

    enum AnythingAPI: Router {
        case plain
        case query
        case queryEncodable
        case jsonBody
        case jsonEncodable
        case queryBody
        case queryJSONEncodable
        case queryData
        case form
        case formEncodable
        case rawData
        case multipart
        case multipartOverridingContentType
        case methodDependent(HTTPMethod)
        case methodDependentEncodable(HTTPMethod)
        case userSegment(String)

        var baseURL: String { (try? HTTPBin.url("/anything")) ?? "http://127.0.0.1:1" }

        var path: String {
            switch self {
            case .userSegment(let id): return "/users/\(segment: id)/profile"
            default: return "/case?fixed=1"
            }
        }

        var method: HTTPMethod {
            switch self {
            case .plain, .query, .queryEncodable, .userSegment: return .get
            case .methodDependent(let method), .methodDependentEncodable(let method): return method
            case .queryData: return .put
            case .form: return .patch
            default: return .post
            }
        }

        var headers: HTTPHeaders {
            switch self {
            case .multipartOverridingContentType:
                return ["X-Router-Case": "\(self)", "Content-Type": "application/json"]
            default:
                return ["X-Router-Case": "\(self)"]
            }
        }

        static let filter = Filter(destination: "Jeju Island", maxPrice: 300, tags: ["sea", "food"])

        var parameters: RequestParams {
            switch self {
            case .plain, .userSegment: return .requestPlain
            case .query: return .query(["q": "a b&c", "page": 2, "ok": true, "ids": [1, 2]])
            case .queryEncodable: return .queryEncodable(Self.filter)
            case .jsonBody: return .body(["email": "ada@example.com", "age": 36, "admin": false, "tags": ["a", "b"]])
            case .jsonEncodable: return .jsonEncodable(Self.filter)
            case .queryBody: return .queryBody(["page": 1], ["title": "Trip", "days": 3])
            case .queryJSONEncodable: return .queryJSONEncodable(["page": 4, "size": 20], Self.filter)
            case .queryData: return .queryData(["v": "2"], Data("plain text body".utf8), contentType: "text/plain")
            case .form: return .form(["name": "Ada Lovelace", "lang": "en", "note": "50% off & more"])
            case .formEncodable: return .formEncodable(Self.filter)
            case .rawData: return .data(Data("raw-bytes".utf8), contentType: "application/x-custom")
            case .multipart:
                var form = MultipartFormData()
                form.append("Seoul", name: "city")
                form.append(Data("photo-bytes".utf8), name: "photo", filename: "photo.txt", mimeType: "text/plain")
                return .multipart(form)
            case .multipartOverridingContentType:
                var form = MultipartFormData(boundary: "Courier boundary:1")
                form.append("Seoul", name: "city")
                return .multipart(form)
            case .methodDependent: return .parameters(["k": "v w"])
            case .methodDependentEncodable: return .parametersEncodable(Self.filter)
            }
        }
    }

    let session = Session()

    private func send(_ route: AnythingAPI) async throws -> Anything {
        _ = try HTTPBin.url("/")
        return try await session.request(route).validate().decodable(Anything.self)
    }

    func testPlainAndQueryCases() async throws {
        let plain = try await send(.plain)
        XCTAssertEqual(plain.method, "GET")
        XCTAssertEqual(plain.args, ["fixed": .string("1")])
        XCTAssertEqual(plain.headers["Accept"], "application/json")
        XCTAssertEqual(plain.headers["X-Router-Case"], "plain")

        let query = try await send(.query)
        XCTAssertEqual(
            query.args,
            [
                "fixed": .string("1"), "q": .string("a b&c"), "page": .string("2"),
                "ok": .string("1"), "ids[]": .array([.string("1"), .string("2")])
            ])
        XCTAssertEqual(query.data, "")

        let encodable = try await send(.queryEncodable)
        XCTAssertEqual(encodable.args["destination"], .string("Jeju Island"))
        XCTAssertEqual(encodable.args["maxPrice"], .string("300"))
        XCTAssertEqual(encodable.args["tags[]"], .array([.string("sea"), .string("food")]))
    }

    func testJSONBodies() async throws {
        let body = try await send(.jsonBody)
        XCTAssertEqual(
            body.json,
            .object([
                "email": .string("ada@example.com"), "age": .number(36), "admin": .bool(false),
                "tags": .array([.string("a"), .string("b")])
            ]))
        XCTAssertEqual(body.headers["Content-Type"], "application/json")

        let filterJSON = JSONValue.object([
            "destination": .string("Jeju Island"), "maxPrice": .number(300),
            "tags": .array([.string("sea"), .string("food")])
        ])
        let encodable = try await send(.jsonEncodable)
        XCTAssertEqual(encodable.json, filterJSON)

        let composite = try await send(.queryBody)
        XCTAssertEqual(composite.args["page"], .string("1"))
        XCTAssertEqual(composite.json, .object(["title": .string("Trip"), "days": .number(3)]))

        let compositeEncodable = try await send(.queryJSONEncodable)
        XCTAssertEqual(compositeEncodable.args["page"], .string("4"))
        XCTAssertEqual(compositeEncodable.args["size"], .string("20"))
        XCTAssertEqual(compositeEncodable.json, filterJSON)
        XCTAssertEqual(compositeEncodable.method, "POST")
    }

    func testRawBodies() async throws {
        let queryData = try await send(.queryData)
        XCTAssertEqual(queryData.method, "PUT")
        XCTAssertEqual(queryData.args["v"], .string("2"))
        XCTAssertEqual(queryData.data, "plain text body")
        XCTAssertEqual(queryData.headers["Content-Type"], "text/plain")

        let raw = try await send(.rawData)
        XCTAssertEqual(raw.data, "raw-bytes")
        XCTAssertEqual(raw.headers["Content-Type"], "application/x-custom")
    }

    func testFormBodies() async throws {
        let form = try await send(.form)
        XCTAssertEqual(form.method, "PATCH")
        XCTAssertEqual(
            form.form, ["name": .string("Ada Lovelace"), "lang": .string("en"), "note": .string("50% off & more")])
        XCTAssertTrue(form.headers["Content-Type"]?.hasPrefix("application/x-www-form-urlencoded") ?? false)

        let encodable = try await send(.formEncodable)
        XCTAssertEqual(encodable.form["destination"], .string("Jeju Island"))
        XCTAssertEqual(encodable.form["tags[]"], .array([.string("sea"), .string("food")]))
    }

    func testMultipart() async throws {
        let multipart = try await send(.multipart)
        XCTAssertEqual(multipart.form, ["city": .string("Seoul")])
        XCTAssertEqual(multipart.files, ["photo": "photo-bytes"])
        XCTAssertTrue(multipart.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") ?? false)
    }

    func testMultipartTypeWinsOverTheCallersAndQuotesItsBoundary() async throws {
        let multipart = try await send(.multipartOverridingContentType)
        XCTAssertEqual(multipart.form, ["city": .string("Seoul")])
        XCTAssertEqual(multipart.headers["Content-Type"], #"multipart/form-data; boundary="Courier boundary:1""#)
    }

    func testMethodDependentParameters() async throws {
        let get = try await send(.methodDependent(.get))
        XCTAssertEqual(get.args["k"], .string("v w"))
        XCTAssertEqual(get.form, [:])
        let delete = try await send(.methodDependent(.delete))
        XCTAssertEqual(delete.args["k"], .string("v w"))
        let post = try await send(.methodDependent(.post))
        XCTAssertEqual(post.form, ["k": .string("v w")])
        XCTAssertEqual(post.args, ["fixed": .string("1")])
    }

    func testMethodDependentEncodable() async throws {
        let expected: [String: JSONValue] = [
            "destination": .string("Jeju Island"), "maxPrice": .string("300"),
            "tags[]": .array([.string("sea"), .string("food")])
        ]
        let get = try await send(.methodDependentEncodable(.get))
        XCTAssertEqual(get.args, expected.merging(["fixed": .string("1")]) { $1 })
        XCTAssertEqual(get.form, [:])
        let put = try await send(.methodDependentEncodable(.put))
        XCTAssertEqual(put.form, expected)
        XCTAssertEqual(put.args, ["fixed": .string("1")])
    }

    func testPathSegmentsCannotChangeTheRoute() async throws {
        let echo = try await send(.userSegment("../admin?x=1#frag"))
        // httpbin reports the path with %2F decoded; what matters is that the ID stayed one segment
        // (`?` and `#` escaped, no query, same endpoint).
        XCTAssertTrue(echo.url.hasSuffix("/anything/users/../admin%3Fx=1%23frag/profile"), echo.url)
        XCTAssertEqual(echo.args, [:])
    }
}
