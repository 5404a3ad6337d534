import Courier
import XCTest

/// Envelope metadata (codes, messages, flags, statuses) decodes leniently: app codes may be
/// strings or numbers, and a metadata field of an unexpected type never fails a body whose
/// payload decodes.
final class LenientEnvelopeTests: XCTestCase {
    private let item = Item(id: 1, title: "a")

    func testStringAppCodeOnSuccessIsSuccess() {
        let body = #"{"isSuccess":true,"code":"COMMON200","message":"success","result":{"id":1,"title":"a"}}"#
        XCTAssertEqual(ResultService().judgeStatus(by: 200, json(body), type: Item.self), .success(item))
        guard
            case .success(let whole) = ResultService().judgeStatus(
                by: 200, json(body),
                type: ResultEnvelope.Body<Item>.self,
                decodingMode: .envelope)
        else {
            return XCTFail("expected the whole envelope")
        }
        XCTAssertEqual(whole.appCode, "COMMON200")
        XCTAssertNil(whole.code)
    }

    func testFlaggedFailureKeepsTheAppCodeAsSent() {
        for (code, expected) in [(#""USER404""#, "USER404"), ("2001", "2001"), (#""2001""#, "2001")] {
            let body = #"{"isSuccess":false,"code":\#(code),"message":"unknown user","result":null}"#
            let result = ResultService().judgeStatus(by: 200, json(body), type: Item.self)
            XCTAssertEqual(
                result,
                .requestErr(
                    ServiceFailure(
                        statusCode: 200, message: "unknown user",
                        appCode: expected, body: json(body))))
        }
        let numeric = #"{"isSuccess":false,"code":2001,"message":"unknown user"}"#
        XCTAssertEqual(ResultService().judgeStatus(by: 200, json(numeric), type: Item.self).failure?.code, 2001)
    }

    func testErrorBodiesKeepTheirStringCode() {
        let social = #"{"success":false,"data":null,"error":{"code":"INVALID_TOKEN","message":"bad token"}}"#
        let failure = SuccessErrorService().judgeStatus(by: 401, json(social), type: Item.self).failure
        XCTAssertEqual(failure?.appCode, "INVALID_TOKEN")
        XCTAssertEqual(failure?.message, "bad token")
        XCTAssertEqual(failure?.description, "HTTP 401, code INVALID_TOKEN: bad token")

        let result = #"{"isSuccess":false,"code":"USER404","message":"no such user"}"#
        XCTAssertEqual(ResultService().judgeStatus(by: 404, json(result), type: Item.self).failure?.appCode, "USER404")

        // Without a declared envelope, a top-level code or an error object's code is still read.
        let plain = PlainService()
        XCTAssertEqual(
            plain.judgeStatus(by: 400, json(#"{"code":"E42","message":"bad"}"#), type: Item.self).failure,
            ServiceFailure(
                statusCode: 400, message: "bad", appCode: "E42", body: json(#"{"code":"E42","message":"bad"}"#)))
        let nested = plain.judgeStatus(by: 401, json(social), type: Item.self).failure
        XCTAssertEqual(nested?.appCode, "INVALID_TOKEN")
        XCTAssertEqual(nested?.message, "bad token")
    }

    func testMetadataOfUnexpectedTypesNeverFailsADecodablePayload() {
        let data = #"{"id":1,"title":"a"}"#
        let statusBodies = [
            #"{"status":"200","success":true,"message":"ok","data":\#(data)}"#,
            #"{"status":200.0,"success":1,"message":5,"data":\#(data)}"#,
            #"{"status":{"http":200},"success":"true","message":["ok"],"data":\#(data)}"#,
            #"{"status":null,"success":null,"message":null,"data":\#(data)}"#,
            #"{"data":\#(data)}"#
        ]
        for body in statusBodies {
            XCTAssertEqual(StatusService().judgeStatus(by: 200, json(body), type: Item.self), .success(item), body)
        }
        let resultBodies = [
            #"{"isSuccess":"TRUE","code":1.5,"message":{"ko":"성공"},"result":\#(data)}"#,
            #"{"isSuccess":true,"code":[1],"message":true,"result":\#(data)}"#
        ]
        for body in resultBodies {
            XCTAssertEqual(ResultService().judgeStatus(by: 200, json(body), type: Item.self), .success(item), body)
        }
        let socialBodies = [
            #"{"success":"yes","data":\#(data),"error":42}"#,
            #"{"success":true,"data":\#(data),"error":{"code":{"nested":1},"message":7}}"#
        ]
        for body in socialBodies {
            XCTAssertEqual(
                SuccessErrorService().judgeStatus(by: 200, json(body), type: Item.self), .success(item), body)
        }
    }

    func testLenientFlagsAreStillRead() {
        for flag in ["false", #""false""#, "0", #""0""#] {
            let body = #"{"status":200,"success":\#(flag),"message":"locked","data":null}"#
            XCTAssertEqual(StatusService().judgeStatus(by: 200, json(body), type: Item.self).kind, .requestErr, flag)
        }
        let readable = #"{"status":"201","success":"1","message":404,"data":null}"#
        let whole = StatusService().judgeStatus(
            by: 200, json(readable), type: StatusEnvelope.Body<Empty>.self,
            decodingMode: .envelope)
        XCTAssertEqual(whole, .success(StatusEnvelope.Body(status: 201, success: true, message: "404", data: nil)))
    }

    func testThePayloadItselfIsStillDecodedStrictly() {
        let body = #"{"isSuccess":true,"code":"COMMON200","message":"success","result":{"id":"1","title":"a"}}"#
        let failure = ResultService().judgeStatus(by: 200, json(body), type: Item.self).failure
        XCTAssertSameError(failure?.error, .decodingFailed(path: "result.id", reason: "expected Int, found a string"))
        XCTAssertEqual(failure?.appCode, "COMMON200")
    }
}
