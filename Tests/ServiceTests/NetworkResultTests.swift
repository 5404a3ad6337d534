import Courier
import XCTest

final class NetworkResultTests: XCTestCase {
    private let failure = ServiceFailure(statusCode: 404, message: "no such user", body: Data("{}".utf8))

    /// `case .pathErr:` without bindings must compile next to cases that bind the context.
    func testCasesMatchWithAndWithoutBindings() {
        let results: [NetworkResult<Item>] = [
            .success(Item(id: 1, title: "a")), .requestErr(failure), .pathErr(failure),
            .serverErr(failure), .networkFail(ServiceFailure(error: .cancelled))
        ]
        var seen: [String] = []
        for result in results {
            switch result {
            case .success(let item): seen.append("success \(item.id)")
            case .requestErr(let failure): seen.append("requestErr \(failure.message ?? "")")
            case .pathErr: seen.append("pathErr")
            case .serverErr: seen.append("serverErr")
            case .networkFail(let failure) where failure.error == .cancelled: seen.append("cancelled")
            case .networkFail: seen.append("networkFail")
            }
        }
        XCTAssertEqual(seen, ["success 1", "requestErr no such user", "pathErr", "serverErr", "cancelled"])
    }

    func testMapTransformsSuccessAndKeepsFailures() {
        let success: NetworkResult<Item> = .success(Item(id: 7, title: "t"))
        XCTAssertEqual(success.map(\.id), .success(7))
        let failed: NetworkResult<Item> = .serverErr(failure)
        XCTAssertEqual(failed.map(\.id), .serverErr(failure))
    }

    func testGetValueAndFailure() throws {
        let success: NetworkResult<Int> = .success(3)
        XCTAssertEqual(try success.get(), 3)
        XCTAssertEqual(success.value, 3)
        XCTAssertNil(success.failure)
        XCTAssertTrue(success.failure == nil)

        let failed: NetworkResult<Int> = .requestErr(failure)
        XCTAssertEqual(failed.failure, failure)
        XCTAssertFalse(failed.failure == nil)
        do {
            _ = try failed.get()
            XCTFail("expected a throw")
        } catch {
            XCTAssertEqual(error, .requestErr(failure))
            XCTAssertEqual(error.statusCode, 404)
            XCTAssertEqual(error.message, "no such user")
        }
    }

    func testDescriptionsAreReadable() {
        XCTAssertEqual(NetworkResult<Int>.requestErr(failure).description, "requestErr(HTTP 404: no such user)")
        let decoding = ServiceFailure(
            statusCode: 200, error: .decodingFailed(path: "data.title", reason: "expected String, found null"))
        XCTAssertEqual(
            ServiceError.pathErr(decoding).description,
            "pathErr(HTTP 200: Decoding failed at data.title: expected String, found null)")
        XCTAssertEqual(ServiceFailure(error: .cancelled).description, "The request was cancelled")
        XCTAssertEqual(failure.bodyText, "{}")
    }

    /// A pathErr on a 2xx whose envelope says "success": the description leads with why the
    /// body was rejected (path, expected type, what was found), the server's message after it.
    func testPathErrDescriptionLeadsWithTheDecodingFailure() {
        let body = json(#"{"isSuccess":true,"code":"COMMON200","message":"success","result":[{"id":1,"title":7}]}"#)
        let result = ResultService().judgeStatus(by: 200, body, type: [Item].self)
        XCTAssertEqual(result.kind, .pathErr)
        XCTAssertEqual(
            result.description,
            #"pathErr(HTTP 200, code COMMON200: Decoding failed at result[0].title: "#
                + #"expected String, found number (server message: "success"))"#)

        let missing = json(#"{"status":200,"success":true,"message":"ok","data":{"id":1}}"#)
        XCTAssertEqual(
            StatusService().judgeStatus(by: 200, missing, type: Item.self).failure?.description,
            #"HTTP 200: Decoding failed at data.title: missing key 'title' (server message: "ok")"#)
    }

    func testServiceReplyHoldsTheValueStatusAndHeaders() {
        let reply = ServiceReply(value: Item(id: 5, title: "five"), statusCode: 201, headers: ["Location": "/items/5"])
        XCTAssertEqual(reply.value.title, "five")
        XCTAssertEqual(reply.statusCode, 201)
        XCTAssertEqual(reply.headers["location"], "/items/5")
    }
}
