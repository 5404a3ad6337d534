import Courier
import GeneratedKinds
import GeneratedMarketplace
import XCTest

/// Two generated modules in one file: their free-form members are both Courier's `JSONValue`, so
/// the name is not ambiguous (each module used to declare its own) and values pass between them.
final class SharedJSONValueTests: XCTestCase {
    func testFreeFormValuesOfTwoGeneratedModulesAreOneType() {
        let value: JSONValue = ["limit": 20, "tags": ["a", "b"]]
        let edge = Edge(nothing: value)
        let setting = Setting(key: "search", overrides: [:], value: edge.nothing)
        XCTAssertEqual(setting.value, value)
    }
}
