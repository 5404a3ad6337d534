import Courier
import XCTest

final class DecodingModeTests: XCTestCase {
    private let body = json(#"{"status":200,"success":true,"message":"saved","data":{"id":1,"title":"a"}}"#)

    func testPayloadModeDecodesTheDataField() {
        XCTAssertEqual(
            StatusService().judgeStatus(by: 200, body, type: Item.self, decodingMode: .payload),
            .success(Item(id: 1, title: "a")))
    }

    func testMessageModeReturnsTheServersMessage() {
        XCTAssertEqual(
            StatusService().judgeStatus(by: 200, body, type: String.self, decodingMode: .message),
            .success("saved"))
        let noMessage = json(#"{"status":200,"data":null,"success":true}"#)
        let result = StatusService().judgeStatus(by: 200, noMessage, type: String.self, decodingMode: .message)
        XCTAssertSameError(result.failure?.error, .decodingFailed(path: "message", reason: "missing or null message"))
        XCTAssertEqual(
            StatusService().judgeStatus(by: 200, body, type: Int.self, decodingMode: .message).kind, .pathErr)
    }

    func testEnvelopeModeDecodesTheWholeBody() {
        let result = StatusService().judgeStatus(
            by: 200, body, type: StatusEnvelope.Body<Item>.self, decodingMode: .envelope)
        guard case .success(let envelope) = result else { return XCTFail("expected success, got \(result)") }
        XCTAssertEqual(envelope.status, 200)
        XCTAssertEqual(envelope.message, "saved")
        XCTAssertEqual(envelope.data, Item(id: 1, title: "a"))
    }

    func testEnvelopeModeStillHonoursTheSuccessFlag() {
        let refused = json(#"{"status":200,"success":false,"message":"locked","data":null}"#)
        let result = StatusService().judgeStatus(
            by: 200, refused, type: StatusEnvelope.Body<Item>.self, decodingMode: .envelope)
        XCTAssertEqual(result.kind, .requestErr)
        XCTAssertEqual(result.failure?.message, "locked")
    }

    func testModesWithoutAnEnvelope() {
        let plain = json(#"{"message":"hello"}"#)
        struct Greeting: Decodable, Sendable, Equatable { let message: String }
        XCTAssertEqual(
            PlainService().judgeStatus(by: 200, plain, type: Greeting.self, decodingMode: .payload),
            .success(Greeting(message: "hello")))
        XCTAssertEqual(
            PlainService().judgeStatus(by: 200, plain, type: Greeting.self, decodingMode: .envelope),
            .success(Greeting(message: "hello")))
        // NoEnvelope has no message field of its own.
        XCTAssertEqual(
            PlainService().judgeStatus(by: 200, plain, type: String.self, decodingMode: .message).kind, .pathErr)
    }
}
