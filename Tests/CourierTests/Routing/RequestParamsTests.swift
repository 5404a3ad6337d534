import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import Courier

/// A router built from plain values, to exercise each ``RequestParams`` case.
struct AdHocRouter: Router {
    var baseURL = "https://api.test/v1"
    var path = "/items?fixed=1"
    var method: HTTPMethod = .get
    var parameters: RequestParams = .requestPlain
    var headers: HTTPHeaders = []
}

/// Golden URL, body and headers for every ``RequestParams`` case.
final class RequestParamsTests: XCTestCase {
    private struct Payload: Encodable, Sendable {
        var name: String
        var link: String
        var count: Int
    }

    private let payload = Payload(name: "Ada", link: "a/b", count: 2)

    private func build(_ parameters: RequestParams, _ method: HTTPMethod = .get) throws -> URLRequest {
        try AdHocRouter(method: method, parameters: parameters).asURLRequest()
    }

    private func assertRequest(
        _ request: URLRequest, url: String, body: String?, contentType: String?,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(request.url?.absoluteString, url, file: file, line: line)
        XCTAssertEqual(request.bodyText, body, file: file, line: line)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), contentType, file: file, line: line)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "application/json", file: file, line: line)
    }

    func testRequestPlain() throws {
        assertRequest(try build(.requestPlain), url: "https://api.test/v1/items?fixed=1", body: nil, contentType: nil)
    }

    func testQuery() throws {
        assertRequest(
            try build(.query(["q": "a b", "ids": [1, 2]])),
            url: "https://api.test/v1/items?fixed=1&ids%5B%5D=1&ids%5B%5D=2&q=a%20b", body: nil, contentType: nil)
        let options = URLEncodingOptions(arrayEncoding: .noBrackets, spaceEncoding: .plusReplaced)
        assertRequest(
            try build(.query(["q": "a b", "ids": [1, 2]], options: options)),
            url: "https://api.test/v1/items?fixed=1&ids=1&ids=2&q=a+b", body: nil, contentType: nil)
        assertRequest(try build(.query([:])), url: "https://api.test/v1/items?fixed=1", body: nil, contentType: nil)
    }

    func testQueryEncodable() throws {
        assertRequest(
            try build(.queryEncodable(payload)),
            url: "https://api.test/v1/items?fixed=1&count=2&link=a/b&name=Ada", body: nil, contentType: nil)
        let snake = URLFormEncoder(keyEncoding: .convertToSnakeCase)
        struct Paging: Encodable, Sendable { var pageSize: Int }
        assertRequest(
            try build(.queryEncodable(Paging(pageSize: 5), encoder: snake)),
            url: "https://api.test/v1/items?fixed=1&page_size=5", body: nil, contentType: nil)
    }

    func testBody() throws {
        assertRequest(
            try build(.body(["email": "a@b.c", "pw": "x/y", "n": 1]), .post),
            url: "https://api.test/v1/items?fixed=1", body: #"{"email":"a@b.c","n":1,"pw":"x/y"}"#,
            contentType: "application/json")
        assertRequest(
            try build(.body(["a": [1]], options: [.sortedKeys, .prettyPrinted]), .post),
            url: "https://api.test/v1/items?fixed=1", body: "{\n  \"a\": [\n    1\n  ]\n}",
            contentType: "application/json")
    }

    func testJSONEncodable() throws {
        assertRequest(
            try build(.jsonEncodable(payload), .put),
            url: "https://api.test/v1/items?fixed=1", body: #"{"count":2,"link":"a/b","name":"Ada"}"#,
            contentType: "application/json")
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Named: Encodable, Sendable { var firstName: String }
        assertRequest(
            try build(.jsonEncodable(Named(firstName: "A"), encoder: encoder), .patch),
            url: "https://api.test/v1/items?fixed=1", body: #"{"first_name":"A"}"#, contentType: "application/json")
    }

    func testJSONEncodableFailureIsParameterEncodingFailed() {
        struct Bad: Encodable, Sendable { var values: [Double] }
        XCTAssertThrowsError(try build(.jsonEncodable(Bad(values: [1, .nan])), .post)) { error in
            guard let failure_ = error as? CourierError, failure_ == .parameterEncodingFailed,
                let keyPath = failure_.subject
            else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(keyPath, "values[1]")
        }
    }

    func testQueryBody() throws {
        assertRequest(
            try build(.queryBody(["page": 1], ["city": "Oslo", "tags": ["x"]]), .post),
            url: "https://api.test/v1/items?fixed=1&page=1", body: #"{"city":"Oslo","tags":["x"]}"#,
            contentType: "application/json")
    }

    func testQueryJSONEncodable() throws {
        assertRequest(
            try build(.queryJSONEncodable(["page": 1, "size": 20], payload), .post),
            url: "https://api.test/v1/items?fixed=1&page=1&size=20", body: #"{"count":2,"link":"a/b","name":"Ada"}"#,
            contentType: "application/json")
    }

    func testQueryData() throws {
        assertRequest(
            try build(.queryData(["v": 2], Data("a,b\n1,2".utf8), contentType: "text/csv"), .post),
            url: "https://api.test/v1/items?fixed=1&v=2", body: "a,b\n1,2", contentType: "text/csv")
    }

    func testForm() throws {
        assertRequest(
            try build(.form(["user": "ada lovelace", "remember": true, "roles": ["a", "b"]]), .post),
            url: "https://api.test/v1/items?fixed=1",
            body: "remember=1&roles%5B%5D=a&roles%5B%5D=b&user=ada%20lovelace",
            contentType: "application/x-www-form-urlencoded; charset=utf-8")
        let options = URLEncodingOptions(boolEncoding: .literal, spaceEncoding: .plusReplaced)
        assertRequest(
            try build(.form(["user": "ada lovelace", "remember": true], options: options), .post),
            url: "https://api.test/v1/items?fixed=1", body: "remember=true&user=ada+lovelace",
            contentType: "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testFormEncodable() throws {
        assertRequest(
            try build(.formEncodable(payload), .post),
            url: "https://api.test/v1/items?fixed=1", body: "count=2&link=a/b&name=Ada",
            contentType: "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testData() throws {
        assertRequest(
            try build(.data(Data([0x01, 0x02])), .put), url: "https://api.test/v1/items?fixed=1",
            body: "\u{01}\u{02}", contentType: "application/octet-stream")
        assertRequest(
            try build(.data(Data("<a/>".utf8), contentType: "application/xml"), .post),
            url: "https://api.test/v1/items?fixed=1", body: "<a/>", contentType: "application/xml")
    }

    func testMultipart() throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append("1", name: "n")
        assertRequest(
            try build(.multipart(form), .post), url: "https://api.test/v1/items?fixed=1",
            body: "--XyZ\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\n1\r\n--XyZ--\r\n",
            contentType: "multipart/form-data; boundary=XyZ")
    }

    func testMethodDependentParameters() throws {
        let parameters: Parameters = ["q": "swift", "n": 1]
        for method in [HTTPMethod.get, .head, .delete] {
            assertRequest(
                try build(.parameters(parameters), method),
                url: "https://api.test/v1/items?fixed=1&n=1&q=swift", body: nil, contentType: nil)
        }
        for method in [HTTPMethod.post, .put, .patch, .options, HTTPMethod(rawValue: "PURGE")] {
            assertRequest(
                try build(.parameters(parameters), method), url: "https://api.test/v1/items?fixed=1",
                body: "n=1&q=swift", contentType: "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    func testMethodDependentEncodable() throws {
        for method in [HTTPMethod.get, .head, .delete] {
            assertRequest(
                try build(.parametersEncodable(payload), method),
                url: "https://api.test/v1/items?fixed=1&count=2&link=a/b&name=Ada", body: nil, contentType: nil)
        }
        for method in [HTTPMethod.post, .put, .patch] {
            assertRequest(
                try build(.parametersEncodable(payload), method), url: "https://api.test/v1/items?fixed=1",
                body: "count=2&link=a/b&name=Ada", contentType: "application/x-www-form-urlencoded; charset=utf-8")
        }
        let encoder = URLFormEncoder(keyEncoding: .uppercased)
        assertRequest(
            try build(.parametersEncodable(payload, encoder: encoder), .get),
            url: "https://api.test/v1/items?fixed=1&COUNT=2&LINK=a/b&NAME=Ada", body: nil, contentType: nil)
        var post = URLRequest(url: try XCTUnwrap(URL(string: "https://a.test/p")))
        post.httpMethod = "POST"
        XCTAssertEqual(
            try RequestParams.parametersEncodable(payload).apply(to: post).bodyText, "count=2&link=a/b&name=Ada")
    }

    func testExplicitContentTypeWins() throws {
        let request = try AdHocRouter(
            method: .post, parameters: .body(["a": 1]),
            headers: [.contentType("application/vnd.api+json")]
        ).asURLRequest()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd.api+json")
        XCTAssertEqual(request.bodyText, #"{"a":1}"#)
    }

    func testMultipartContentTypeReplacesTheCallersContentType() throws {
        // The boundary is part of the type: without it the server cannot split the body.
        var form = MultipartFormData(boundary: "b-1")
        form.append("v", name: "k")
        let request = try AdHocRouter(
            method: .post, parameters: .multipart(form),
            headers: [.contentType("application/json")]
        ).asURLRequest()
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=b-1")

        var typed = URLRequest(url: try XCTUnwrap(URL(string: "https://a.test/upload")))
        typed.httpMethod = "POST"
        typed.setValue("multipart/form-data", forHTTPHeaderField: "Content-Type")
        let applied = try RequestParams.multipart(form).apply(to: typed)
        XCTAssertEqual(applied.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=b-1")
        XCTAssertEqual(applied.httpBody, try form.encode())

        // A form with a file part is streamed; its type still wins.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ct-\(UUID().uuidString).txt")
        try Data("file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var fileForm = MultipartFormData(boundary: "b 2")
        fileForm.append(fileURL: file, name: "f")
        let streamed = try AdHocRouter(
            method: .post, parameters: .multipart(fileForm),
            headers: [.contentType("text/plain")]
        ).makeRequest()
        XCTAssertEqual(streamed.headers["Content-Type"], #"multipart/form-data; boundary="b 2""#)
        guard case .segments = streamed.body else { return XCTFail("the form should be read while sending") }
    }

    func testBadContentTypeIsRejected() {
        XCTAssertThrowsError(try build(.data(Data(), contentType: "text/plain\r\nX-Evil: 1"), .post)) { error in
            XCTAssertSameError(
                error as? CourierError, .invalidHeader(name: "Content-Type", reason: "the value contains CR"))
        }
    }

    func testApplyToExistingRequest() throws {
        let url = try XCTUnwrap(URL(string: "https://a.test/p?x=0#frag"))
        let get = try RequestParams.parameters(["q": "1"]).apply(to: URLRequest(url: url))
        XCTAssertEqual(get.url?.absoluteString, "https://a.test/p?x=0&q=1#frag")
        XCTAssertNil(get.httpBody)

        var post = URLRequest(url: url)
        post.httpMethod = "POST"
        let applied = try RequestParams.parameters(["q": "1"]).apply(to: post)
        XCTAssertEqual(applied.url, url)
        XCTAssertEqual(applied.bodyText, "q=1")
        XCTAssertEqual(
            applied.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")

        var typed = URLRequest(url: url)
        typed.setValue("text/x-custom", forHTTPHeaderField: "Content-Type")
        let kept = try RequestParams.body(["a": true]).apply(to: typed)
        XCTAssertEqual(kept.value(forHTTPHeaderField: "Content-Type"), "text/x-custom")
        XCTAssertEqual(kept.bodyText, #"{"a":true}"#)

        XCTAssertEqual(try RequestParams.requestPlain.apply(to: URLRequest(url: url)).url, url)
    }

    func testEncodingErrorsSurfaceFromRouter() {
        XCTAssertThrowsError(try build(.body(["user": ["birthday": Date()]]), .post)) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "user.birthday", reason: "Date is not a JSON value"))
        }
        XCTAssertThrowsError(try build(.query(["when": Date()]))) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "when", reason: "Date is not a URL-encodable value"))
        }
    }
}
