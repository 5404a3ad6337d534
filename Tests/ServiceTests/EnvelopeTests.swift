import Courier
import XCTest

/// Each ready-made envelope shape, through a service that declares it once.
final class EnvelopeTests: XCTestCase {
    private let item = Item(id: 1, title: "a")

    func testStatusEnvelope() {
        let service = StatusService()
        let body = #"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"a"}}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(body), type: Item.self), .success(item))
        let refused = #"{"status":409,"success":false,"message":"wrong password"}"#
        XCTAssertEqual(service.judgeStatus(by: 409, json(refused), type: Item.self).failure?.message, "wrong password")
    }

    func testResultEnvelopeWithCodeAndFlag() {
        let service = ResultService()
        let body = #"{"isSuccess":true,"code":1000,"message":"success","result":[{"id":1,"title":"a"}]}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(body), type: [Item].self), .success([item]))

        // Such APIs answer 200 with isSuccess false: that is the server refusing the request.
        let flagged = #"{"isSuccess":false,"code":2001,"message":"unknown user","result":null}"#
        let result = service.judgeStatus(by: 200, json(flagged), type: [Item].self)
        XCTAssertEqual(
            result,
            .requestErr(
                ServiceFailure(
                    statusCode: 200, message: "unknown user", appCode: "2001",
                    body: json(flagged))))
        XCTAssertEqual(result.failure?.code, 2001)

        let missing = #"{"isSuccess":true,"code":1000,"message":"success"}"#
        XCTAssertSameError(
            service.judgeStatus(by: 200, json(missing), type: [Item].self).failure?.error,
            .decodingFailed(path: "result", reason: "missing or null payload 'result'"))
    }

    func testStatusEnvelopeWithOptionalFieldsAndTypealias() {
        typealias Response<T: Decodable> = StatusEnvelope.Body<T>
        let service = StatusService()
        let body = #"{"status":200,"success":true,"data":{"id":1,"title":"a"}}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(body), type: Item.self), .success(item))
        guard
            case .success(let whole) = service.judgeStatus(
                by: 200, json(body), type: Response<Item>.self,
                decodingMode: .envelope)
        else {
            return XCTFail("expected the whole envelope")
        }
        XCTAssertEqual(whole, Response(status: 200, success: true, message: nil, data: item))
    }

    func testSuccessErrorEnvelopeWithStringOrObjectError() {
        let service = SuccessErrorService()
        let body = #"{"success":true,"data":{"id":1,"title":"a"},"error":null}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(body), type: Item.self), .success(item))

        let text = #"{"success":false,"data":null,"error":"quota exceeded"}"#
        XCTAssertEqual(service.judgeStatus(by: 429, json(text), type: Item.self).failure?.message, "quota exceeded")

        let object = #"{"success":false,"data":null,"error":{"code":42,"message":"invalid token"}}"#
        let failure = service.judgeStatus(by: 401, json(object), type: Item.self).failure
        XCTAssertEqual(failure?.message, "invalid token")
        XCTAssertEqual(failure?.appCode, "42")
        XCTAssertEqual(failure?.code, 42)

        XCTAssertEqual(service.judgeStatus(by: 200, json(text), type: Item.self).kind, .requestErr)
    }

    func testNoEnvelopeDecodesTheDTODirectly() {
        let service = PlainService()
        XCTAssertEqual(service.judgeStatus(by: 200, json(#"{"id":1,"title":"a"}"#), type: Item.self), .success(item))
    }

    func testEnvelopeIsDeclaredOncePerServiceFamily() {
        // A base service for one API; every service of that API inherits its envelope.
        class TeamService: BaseService, @unchecked Sendable {
            override class var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }
        }
        final class ProfileService: TeamService, @unchecked Sendable {}
        XCTAssertTrue(ProfileService.envelope == ResultEnvelope.self)
        let body = #"{"isSuccess":true,"code":1000,"message":"success","result":{"id":1,"title":"a"}}"#
        XCTAssertEqual(ProfileService().judgeStatus(by: 200, json(body), type: Item.self), .success(item))
    }

    /// An app's own envelope models, under the names apps commonly give them, live next to
    /// Courier's without shadowing them: Courier's are named after their envelope.
    func testAppModelsNamedLikeOldLibraryModelsDoNotShadowCouriers() {
        let body = #"{"status":200,"success":true,"message":"ok","data":{"id":1,"title":"a"}}"#
        let result = StatusService().judgeStatus(
            by: 200, json(body), type: StatusEnvelope.Body<Item>.self,
            decodingMode: .envelope)
        XCTAssertEqual(result, .success(StatusEnvelope.Body(status: 200, success: true, message: "ok", data: item)))
        // The app's own `GenericResponse` (another shape) decodes as the app means it.
        let own = StatusService().judgeStatus(
            by: 200, json(#"{"code":7,"payload":{"id":1,"title":"a"}}"#),
            type: GenericResponse<Item>.self, decodingMode: .envelope)
        XCTAssertEqual(own.value?.code, 7)
        XCTAssertEqual(own.value?.payload, item)
    }
}

/// What an app commonly calls its own envelope model, in a shape unlike Courier's.
struct GenericResponse<T: Decodable & Sendable>: Decodable, Sendable {
    let code: Int
    let payload: T?
}
