import Courier
import XCTest

/// Status × body × decode outcome → NetworkResult, for the one mapping in `judgeStatus`.
final class JudgeStatusTableTests: XCTestCase {
    private struct Row {
        let status: Int
        let body: String
        let kind: Kind
        var message: String?
        var path: String?
        let line: UInt

        init(
            _ status: Int, _ body: String, _ kind: Kind, message: String? = nil, path: String? = nil,
            line: UInt = #line
        ) {
            self.status = status
            self.body = body
            self.kind = kind
            self.message = message
            self.path = path
            self.line = line
        }
    }

    private static let item = #"{"id":1,"title":"a"}"#

    private func check<T: Decodable & Sendable>(_ rows: [Row], service: BaseService, type: T.Type) {
        for row in rows {
            let result = service.judgeStatus(by: row.status, json(row.body), type: type, decodingMode: .payload)
            XCTAssertEqual(result.kind, row.kind, "\(row.status) \(row.body): \(result)", line: row.line)
            if let message = row.message {
                XCTAssertEqual(result.failure?.message, message, line: row.line)
            }
            if let path = row.path {
                guard let failure_ = result.failure?.error, failure_ == .decodingFailed, let found = failure_.subject
                else {
                    XCTFail("expected a decoding error in \(result)", line: row.line)
                    continue
                }
                XCTAssertEqual(found, path, line: row.line)
            }
            if row.kind != .success {
                XCTAssertEqual(result.failure?.statusCode, row.status, line: row.line)
                XCTAssertEqual(result.failure?.body, json(row.body), line: row.line)
            }
        }
    }

    func testStatusEnvelopeTable() {
        let item = Self.item
        check(
            [
                Row(200, #"{"status":200,"success":true,"message":"ok","data":\#(item)}"#, .success),
                Row(201, #"{"status":201,"success":true,"message":"created","data":\#(item)}"#, .success),
                Row(200, #"{"status":200,"success":true,"message":"ok","data":null}"#, .pathErr, path: "data"),
                Row(200, #"{"status":200,"success":true,"message":"ok"}"#, .pathErr, message: "ok", path: "data"),
                Row(
                    200, #"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":null}}"#, .pathErr,
                    path: "data.title"),
                Row(
                    200, #"{"status":200,"success":true,"message":"ok","data":{"id":"1","title":"a"}}"#, .pathErr,
                    path: "data.id"),
                // Metadata is lenient: a missing or oddly typed status never fails a body whose data decodes.
                Row(200, #"{"success":true,"message":"ok","data":\#(item)}"#, .success),
                Row(200, #"{"status":"200","success":"true","message":7,"data":\#(item)}"#, .success),
                Row(200, "<html>oops</html>", .pathErr, path: ""),
                Row(200, "", .pathErr, path: ""),
                Row(
                    200, #"{"status":200,"success":false,"message":"account locked","data":null}"#, .requestErr,
                    message: "account locked"),
                Row(
                    400, #"{"status":400,"success":false,"message":"email is required"}"#, .requestErr,
                    message: "email is required"),
                Row(404, "", .requestErr),
                Row(409, "wrong password", .requestErr),
                Row(418, #"{"error":"I'm a teapot"}"#, .requestErr, message: "I'm a teapot"),
                Row(
                    500, #"{"status":500,"success":false,"message":"database down"}"#, .serverErr,
                    message: "database down"),
                Row(503, "", .serverErr),
                Row(302, "", .serverErr)
            ], service: StatusService(), type: Item.self)
    }

    func testNoEnvelopeTable() {
        check(
            [
                Row(200, #"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#, .success),
                Row(200, #"[{"id":1,"title":"a"},{"id":2}]"#, .pathErr, path: "[1].title"),
                Row(200, #"{"id":1,"title":"a"}"#, .pathErr, path: ""),
                Row(200, "[]", .success),
                Row(404, #"{"message":"Breed not found"}"#, .requestErr, message: "Breed not found"),
                Row(422, #"{"detail":"bad filter","code":7}"#, .requestErr, message: "bad filter"),
                Row(502, "<html>Bad Gateway</html>", .serverErr)
            ], service: PlainService(), type: [Item].self)
    }

    func testEmptyBodiesDecodeToEmptyOnlyWhenNoValueWasAskedFor() {
        for service in [PlainService(), StatusService()] as [BaseService] {
            XCTAssertEqual(service.judgeStatus(by: 204, Data(), type: Empty.self), .success(Empty()))
            XCTAssertEqual(service.judgeStatus(by: 200, Data(), type: Empty.self), .success(Empty()))
            XCTAssertEqual(service.judgeStatus(by: 204, Data(), type: Item.self).kind, .pathErr)
        }
        // Without an envelope any body is fine when nothing was asked for; with one, it must be the envelope.
        XCTAssertEqual(PlainService().judgeStatus(by: 200, json("OK"), type: Empty.self), .success(Empty()))
        XCTAssertEqual(StatusService().judgeStatus(by: 200, json("OK"), type: Empty.self).kind, .pathErr)
        let noData = #"{"status":200,"success":true,"message":"deleted"}"#
        XCTAssertEqual(StatusService().judgeStatus(by: 200, json(noData), type: Empty.self), .success(Empty()))
    }

    func testDecodingFailureReasonIsReadable() {
        let body = #"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":null}}"#
        let result = StatusService().judgeStatus(by: 200, json(body), type: Item.self)
        XCTAssertSameError(
            result.failure?.error, .decodingFailed(path: "data.title", reason: "expected String, found null"))
    }

    func testOverriddenJudgeStatusTreats404AsEmptySuccess() {
        let service = LenientSearchService()
        XCTAssertEqual(
            service.judgeStatus(
                by: 404, json(#"{"status":404,"success":false}"#), type: [Item].self,
                decodingMode: .payload), .success([]))
        // Other types and statuses still follow the default mapping.
        XCTAssertEqual(service.judgeStatus(by: 404, Data(), type: Item.self, decodingMode: .payload).kind, .requestErr)
        XCTAssertEqual(service.judgeStatus(by: 500, Data(), type: [Item].self, decodingMode: .payload).kind, .serverErr)
        // judge(_:) goes through the override too.
        XCTAssertEqual(service.judge(makeResponse(status: 404), as: [Item].self), .success([]))
    }

    func testTransportFailuresAreNetworkFail() {
        let service = StatusService()
        let refused = service.judge(makeResponse(status: nil, error: .cannotConnect(message: "refused")), as: Item.self)
        XCTAssertEqual(refused, .networkFail(ServiceFailure(error: .cannotConnect(message: "refused"))))

        let truncated = service.judge(
            makeResponse(status: 200, body: "{\"sta", error: .truncatedResponse(message: "eof")),
            as: Item.self)
        XCTAssertEqual(truncated.kind, .networkFail)
        XCTAssertEqual(truncated.failure?.statusCode, 200)
        XCTAssertSameError(truncated.failure?.error, .truncatedResponse(message: "eof"))

        let cancelled = service.judge(makeResponse(status: nil, error: .cancelled), as: Item.self)
        XCTAssertEqual(cancelled.failure?.error, .cancelled)
        XCTAssertEqual(cancelled.kind, .networkFail)
    }

    func testJudgeReplyKeepsStatusAndHeaders() {
        let body = #"{"status":201,"success":true,"message":"created","data":{"id":9,"title":"new"}}"#
        let response = makeResponse(
            status: 201, body: body, headers: ["Content-Type": "application/json", "Location": "/items/9"])
        guard case .success(let reply) = StatusService().judgeReply(response, as: Item.self) else {
            return XCTFail("expected success")
        }
        XCTAssertEqual(reply.statusCode, 201)
        XCTAssertEqual(reply.value, Item(id: 9, title: "new"))
        XCTAssertEqual(reply.headers["location"], "/items/9")
    }
}
