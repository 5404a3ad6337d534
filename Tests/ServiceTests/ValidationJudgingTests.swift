import Courier
import CourierTesting
import XCTest

/// A service that adds `validate()` to its requests still reports statuses as statuses: a
/// validated 404 stays `requestErr` with its message and body, never `networkFail`.
final class ValidationJudgingTests: XCTestCase {
    /// Validates every request, as services that copy Alamofire habits do.
    private final class ValidatingService: BaseService, @unchecked Sendable {
        override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

        override func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
            super.makeRequest(target).validate().validate(contentType: ["application/json"])
        }
    }

    /// The same with a `Service` struct, building on `standardRequest`.
    private struct ValidatingStruct: Service {
        static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        let session: Session

        func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
            standardRequest(target).validate(statusCode: [200])
        }
    }

    private static let session = Session.stubbed { request in
        switch request.url.path {
        case "/missing": return .json(#"{"status":404,"success":false,"message":"no such user"}"#, statusCode: 404)
        case "/broken": return .json(#"{"status":500,"success":false,"message":"database down"}"#, statusCode: 500)
        case "/created":
            return .json(
                #"{"status":201,"success":true,"message":"created","data":{"id":2,"title":"b"}}"#,
                statusCode: 201)
        case "/html":
            return StubResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<p>".utf8))
        case "/html404":
            return StubResponse(statusCode: 404, headers: ["Content-Type": "text/html"], body: Data("<p>".utf8))
        default: return .json(#"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"a"}}"#)
        }
    }

    func testValidated404IsRequestErrWithMessageAndBody() async {
        let result: NetworkResult<Item> = await ValidatingService(session: Self.session).request(
            "http://stub.test/missing")
        XCTAssertEqual(
            result,
            .requestErr(
                ServiceFailure(
                    statusCode: 404, message: "no such user",
                    body: json(#"{"status":404,"success":false,"message":"no such user"}"#))))
    }

    func testValidated500IsServerErrWithMessage() async {
        let result: NetworkResult<Item> = await ValidatingService(session: Self.session).request(
            "http://stub.test/broken")
        XCTAssertEqual(result.kind, .serverErr)
        XCTAssertEqual(result.failure?.statusCode, 500)
        XCTAssertEqual(result.failure?.message, "database down")
    }

    func testValidatedSuccessIsUnchanged() async {
        let result: NetworkResult<Item> = await ValidatingService(session: Self.session).request("http://stub.test/ok")
        XCTAssertEqual(result, .success(Item(id: 1, title: "a")))
    }

    func testJudgeStatusOverridesStillApplyToValidatedStatuses() async {
        final class LenientValidating: BaseService, @unchecked Sendable {
            override func makeRequest(_ target: any URLRequestConvertible) -> DataRequest {
                super.makeRequest(target).validate()
            }
            override func judgeStatus<T: Decodable & Sendable>(
                by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode
            ) -> NetworkResult<T> {
                if statusCode == 404, let none = [Item]() as? T { return .success(none) }
                return super.judgeStatus(by: statusCode, data, type: type, decodingMode: decodingMode)
            }
        }
        let result: NetworkResult<[Item]> = await LenientValidating(session: Self.session).request(
            "http://stub.test/missing")
        XCTAssertEqual(result, .success([]))
    }

    /// A 2xx the service's own validation refuses is a failure, not a success: `serverErr` for a
    /// refused status (a status the client cannot use), `pathErr` for a refused content type.
    func testRejected2xxIsAFailureThatSaysWhy() async {
        let created: NetworkResult<Item> = await ValidatingStruct(session: Self.session).request(
            "http://stub.test/created")
        XCTAssertEqual(created.kind, .serverErr)
        XCTAssertEqual(created.failure?.statusCode, 201)
        XCTAssertSameError(created.failure?.error, .unacceptableStatusCode(201))
        XCTAssertEqual(created.failure?.message, "created")

        let html: NetworkResult<Item> = await ValidatingService(session: Self.session).request("http://stub.test/html")
        XCTAssertEqual(html.kind, .pathErr)
        XCTAssertSameError(html.failure?.error, .unacceptableContentType("text/html"))

        // A refused content type on an error status is judged by its status.
        let html404: NetworkResult<Item> = await ValidatingService(session: Self.session).request(
            "http://stub.test/html404")
        XCTAssertEqual(html404.kind, .requestErr)
        XCTAssertEqual(html404.failure?.statusCode, 404)
        XCTAssertEqual(html404.failure?.bodyText, "<p>")
    }

    func testJudgeMapsValidationErrorsWithoutANetwork() {
        let service = StatusService()
        let body = #"{"status":409,"success":false,"message":"wrong password"}"#
        let rejected = makeResponse(status: 409, body: body, error: .unacceptableStatusCode(409))
        XCTAssertEqual(
            service.judge(rejected, as: Item.self),
            .requestErr(ServiceFailure(statusCode: 409, message: "wrong password", body: json(body))))
        // Transport errors with a response head (a truncated body) stay networkFail.
        let truncated = makeResponse(status: 200, body: "{", error: .truncatedResponse(message: "eof"))
        XCTAssertEqual(service.judge(truncated, as: Item.self).kind, .networkFail)
    }
}
