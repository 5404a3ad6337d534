import Courier
import XCTest

/// The documented custom envelope (DocumentedEnvelope.swift, shown verbatim in docs/services.md):
/// every field it names reaches the result.
final class CustomEnvelopeTests: XCTestCase {
    private let service = WrappedService()

    func testPayloadMessageFlagAndStringCodeAllArrive() {
        let ok = json(#"{"ok":true,"info":"fine","errorCode":null,"body":{"id":1,"title":"a"}}"#)
        XCTAssertEqual(service.judgeStatus(by: 200, ok, type: Item.self), .success(Item(id: 1, title: "a")))
        XCTAssertEqual(service.judgeStatus(by: 200, ok, type: String.self, decodingMode: .message), .success("fine"))

        let refused = json(#"{"ok":false,"info":"card declined","errorCode":"E42","body":null}"#)
        XCTAssertEqual(
            service.judgeStatus(by: 200, refused, type: Item.self),
            .requestErr(ServiceFailure(statusCode: 200, message: "card declined", appCode: "E42", body: refused)))
        XCTAssertEqual(
            service.judgeStatus(by: 402, refused, type: Item.self),
            .requestErr(ServiceFailure(statusCode: 402, message: "card declined", appCode: "E42", body: refused)))
    }

    func testEnvelopeModeHonoursTheDeclaredFlag() {
        let refused = json(#"{"ok":false,"info":"card declined","errorCode":"E42","body":null}"#)
        let result = service.judgeStatus(by: 200, refused, type: Wrapped<Item>.self, decodingMode: .envelope)
        XCTAssertEqual(
            result.failure, ServiceFailure(statusCode: 200, message: "card declined", appCode: "E42", body: refused))
    }

    func testMismatchesAreErrorsNamingTheField() {
        let missing = json(#"{"ok":true,"body":{"id":1,"title":"a"}}"#)
        XCTAssertSameError(
            service.judgeStatus(by: 200, missing, type: Item.self).failure?.error,
            .decodingFailed(path: "info", reason: "missing key 'info'"))
        let nested = json(#"{"ok":true,"info":"x","body":{"id":1}}"#)
        XCTAssertEqual(
            service.judgeStatus(by: 200, nested, type: Item.self).failure?.description,
            #"HTTP 200: Decoding failed at body.title: missing key 'title' (server message: "x")"#)
        let flag = json(#"{"ok":"yes","info":"x","body":{"id":1,"title":"a"}}"#)
        XCTAssertSameError(
            service.judgeStatus(by: 200, flag, type: Item.self).failure?.error,
            .decodingFailed(path: "ok", reason: "expected Bool, found a string"))
        let null = json(#"{"ok":true,"info":"x","body":null}"#)
        XCTAssertSameError(
            service.judgeStatus(by: 200, null, type: Item.self).failure?.error,
            .decodingFailed(path: "body", reason: "missing or null payload 'body'"))
    }
}
