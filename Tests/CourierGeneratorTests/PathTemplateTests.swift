import XCTest

@testable import CourierGenerator

/// Path templates are read once into literal text and parameters; a template whose braces do not
/// balance is refused with what is wrong.
final class PathTemplateTests: XCTestCase {
    func testTemplatesAndTheirPieces() throws {
        let rows: [(String, [PathTemplate.Piece])] = [
            ("/pets", [.literal("/pets")]),
            ("/pets/{id}", [.literal("/pets/"), .parameter("id")]),
            ("/{a}{b}.json", [.literal("/"), .parameter("a"), .parameter("b"), .literal(".json")]),
            ("{id}", [.parameter("id")]),
            ("/a/{}", [.literal("/a/"), .parameter("")]),
            ("", [])
        ]
        for (path, pieces) in rows {
            XCTAssertEqual(try PathTemplate.parse(path).get().pieces, pieces, path)
        }
        XCTAssertEqual(try PathTemplate.parse("/x/{a}/y/{b}").get().parameterNames, ["a", "b"])
    }

    func testUnbalancedBracesAreRefused() {
        let rows: [(String, String)] = [
            ("/a/{id", "has a { that is not closed"),
            ("/a/id}", "has a } that closes no parameter"),
            ("/a/{b{c}}", "opens a parameter inside another"),
            ("/a/{b}}", "has a } that closes no parameter")
        ]
        for (path, problem) in rows {
            guard case .failure(let refused) = PathTemplate.parse(path) else {
                XCTFail("\(path) was accepted")
                continue
            }
            XCTAssertEqual(refused.text, problem, path)
        }
    }
}
