import Courier
import Foundation
import XCTest

final class DecodingFailureTests: XCTestCase {
    struct Song: Decodable { var title: String }
    struct Page: Decodable { var items: [Song] }
    struct Envelope: Decodable { var result: Page }

    private func failure<T: Decodable>(_ type: T.Type, _ json: String) -> CourierError? {
        do {
            _ = try JSONDecoder().decode(type, from: Data(json.utf8))
            return nil
        } catch {
            return CourierError.decoding(error)
        }
    }

    func testPathsAndReasonsAreReadable() {
        XCTAssertSameError(
            failure(Envelope.self, #"{"result":{"items":[{"title":"a"},{"title":null}]}}"#),
            .decodingFailed(path: "result.items[1].title", reason: "expected String, found null"))
        XCTAssertSameError(
            failure(Envelope.self, #"{"result":{"items":[{"name":"a"}]}}"#),
            .decodingFailed(path: "result.items[0].title", reason: "missing key 'title'"))
        guard let mismatch = failure(Envelope.self, #"{"result":{"items":[{"title":5}]}}"#),
            mismatch == .decodingFailed, let path = mismatch.subject, let reason = mismatch.reason
        else {
            return XCTFail("expected a decoding failure")
        }
        XCTAssertEqual(path, "result.items[0].title")
        XCTAssertTrue(reason.hasPrefix("expected String, found"), reason)
        guard let failure_ = failure(Envelope.self, "not json"), failure_ == .decodingFailed,
            let rootPath = failure_.subject, let rootReason = failure_.reason
        else {
            return XCTFail("expected a decoding failure")
        }
        XCTAssertEqual(rootPath, "")
        XCTAssertTrue(rootReason.contains("not valid JSON"), rootReason)
    }

    func testDescriptionNamesThePath() {
        let error = CourierError.decodingFailed(path: "result.items[3].title", reason: "expected String, found null")
        XCTAssertEqual(error.description, "Decoding failed at result.items[3].title: expected String, found null")
    }
}
