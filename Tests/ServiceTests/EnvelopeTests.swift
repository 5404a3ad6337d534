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
        XCTAssertEqual(result, .requestErr(ServiceFailure(statusCode: 200, message: "unknown user", code: 2001,
                                                          body: json(flagged))))

        let missing = #"{"isSuccess":true,"code":1000,"message":"success"}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(missing), type: [Item].self).failure?.error,
                       .decodingFailed(path: "result", reason: "missing or null payload 'result'"))
    }

    func testGenericEnvelopeWithOptionalFieldsAndTypealias() {
        typealias Response<T: Decodable> = GenericResponse<T>
        let service = GenericService()
        let body = #"{"status":200,"success":true,"data":{"id":1,"title":"a"}}"#
        XCTAssertEqual(service.judgeStatus(by: 200, json(body), type: Item.self), .success(item))
        guard case .success(let whole) = service.judgeStatus(by: 200, json(body), type: Response<Item>.self,
                                                             decodingMode: .envelope) else {
            return XCTFail("expected the whole envelope")
        }
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.data, item)
        XCTAssertNil(whole.message)
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
        XCTAssertEqual(failure?.code, 42)

        XCTAssertEqual(service.judgeStatus(by: 200, json(text), type: Item.self).kind, .requestErr)
    }

    func testNoEnvelopeDecodesTheDTODirectly() {
        let service = PlainService()
        XCTAssertEqual(service.judgeStatus(by: 200, json(#"{"id":1,"title":"a"}"#), type: Item.self), .success(item))
    }

    func testCustomEnvelopeFormat() {
        struct Wrapped<P: Decodable>: ResponseEnvelope {
            let ok: Bool
            let info: String?
            let body: P?
            var payload: P? { body }
            var message: String? { info }
            var isSuccessFlag: Bool? { ok }
            static var payloadKey: String { "body" }
        }
        enum WrappedEnvelope: EnvelopeFormat {
            static func open<P: Decodable>(_ data: Data, as payload: P.Type, decoder: JSONDecoder) throws -> OpenedEnvelope<P> {
                OpenedEnvelope(try decoder.decode(Wrapped<P>.self, from: data))
            }
        }
        final class WrappedService: BaseService, @unchecked Sendable {
            override class var envelope: any EnvelopeFormat.Type { WrappedEnvelope.self }
        }
        let service = WrappedService()
        XCTAssertEqual(service.judgeStatus(by: 200, json(#"{"ok":true,"body":{"id":1,"title":"a"}}"#), type: Item.self),
                       .success(item))
        XCTAssertEqual(service.judgeStatus(by: 200, json(#"{"ok":true,"body":{"id":1}}"#), type: Item.self).failure?.error,
                       .decodingFailed(path: "body.title", reason: "missing key 'title'"))
        XCTAssertEqual(service.judgeStatus(by: 400, json(#"{"ok":false,"info":"nope"}"#), type: Item.self).failure?.message,
                       "nope")
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
}
