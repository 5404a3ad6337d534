import Courier
import XCTest

/// Asserts that `actual` is `expected` in kind and in every detail: `==` on `CourierError` compares
/// kinds only, so tests that pin a message, a path or a limit compare the description too.
func XCTAssertSameError(
    _ actual: CourierError?, _ expected: CourierError?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual, expected, message(), file: file, line: line)
    XCTAssertEqual(actual?.description, expected?.description, message(), file: file, line: line)
}
