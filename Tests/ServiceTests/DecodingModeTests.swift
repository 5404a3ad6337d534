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

    func testBodyModeHandsOverTheBytesOrTheTextWithoutDecoding() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        // Whatever the service's envelope, the body is not opened.
        XCTAssertEqual(StatusService().judgeStatus(by: 200, png, type: Data.self, decodingMode: .body), .success(png))
        XCTAssertEqual(StatusService().judgeStatus(by: 200, body, type: Data.self, decodingMode: .body), .success(body))
        XCTAssertEqual(
            PlainService().judgeStatus(by: 200, Data("plain text, é".utf8), type: String.self, decodingMode: .body),
            .success("plain text, é"))
        XCTAssertEqual(
            PlainService().judgeStatus(by: 204, Data(), type: Data.self, decodingMode: .body), .success(Data()))
        XCTAssertEqual(
            PlainService().judgeStatus(by: 200, Data(), type: String.self, decodingMode: .body), .success(""))

        let notText = PlainService().judgeStatus(by: 200, png, type: String.self, decodingMode: .body)
        XCTAssertSameError(
            notText.failure?.error, .decodingFailed(path: "", reason: "the response body is not UTF-8 text"))
        XCTAssertEqual(notText.kind, .pathErr)
        let notBytes = PlainService().judgeStatus(by: 200, body, type: Item.self, decodingMode: .body)
        XCTAssertSameError(
            notBytes.failure?.error,
            .decodingFailed(path: "", reason: "decoding mode .body yields Data or String, not Item"))
        // Statuses are judged as in every mode: a 404's JSON message still reaches the caller.
        let missing = StatusService().judgeStatus(
            by: 404, json(#"{"status":404,"success":false,"message":"no such file"}"#), type: Data.self,
            decodingMode: .body)
        XCTAssertEqual(missing.kind, .requestErr)
        XCTAssertEqual(missing.failure?.message, "no such file")
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
