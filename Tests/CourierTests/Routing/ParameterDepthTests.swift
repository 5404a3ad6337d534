import Foundation
import XCTest
@testable import Courier

/// Parameters nest at most 100 levels (a key path of at most 100 components); deeper trees fail
/// with a typed error naming the first key path past the limit, whichever encoder writes them,
/// and never exhaust the stack.
final class ParameterDepthTests: XCTestCase {
    private static let tooDeep = "nesting deeper than 100 levels is not supported"

    /// `["a": ["a": ... ["leaf": 1]]]` whose leaf has a key path of `depth` components.
    private func nestedDictionary(depth: Int) -> Parameters {
        var value: Parameters = ["leaf": 1]
        for _ in 1..<depth { value = ["a": value] }
        return value
    }

    /// `["a": [[...[1]]]]` whose innermost element has a key path of `depth` components.
    private func nestedArray(depth: Int) -> Parameters {
        var value: any Sendable = [1]
        for _ in 2..<depth { value = [value] }
        return ["a": value]
    }

    /// `a.a.a…` with `count` components.
    private func dottedPath(_ count: Int) -> String {
        Array(repeating: "a", count: count).joined(separator: ".")
    }

    private func assertTooDeep<T>(
        _ body: @autoclosure () throws -> T, keyPath: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertSameError(
                error as? CourierError, .parameterEncodingFailed(keyPath: keyPath, reason: Self.tooDeep),
                file: file, line: line)
        }
    }

    func testDictionariesAtTheLimitEncode() throws {
        let parameters = nestedDictionary(depth: 100)
        let form = try ParameterFormConverter.encode(parameters, options: .default)
        XCTAssertTrue(form.hasSuffix("%5Bleaf%5D=1"), form)
        XCTAssertEqual(form.components(separatedBy: "%5B").count, 100)
        let json = String(decoding: try JSONParameterSerializer.serialize(parameters), as: UTF8.self)
        XCTAssertEqual(json.filter { $0 == "{" }.count, 100)
    }

    func testDictionariesPastTheLimitThrowNamingTheKeyPath() {
        assertTooDeep(
            try ParameterFormConverter.encode(nestedDictionary(depth: 101), options: .default),
            keyPath: dottedPath(100) + ".leaf")
        assertTooDeep(
            try JSONParameterSerializer.serialize(nestedDictionary(depth: 101)),
            keyPath: dottedPath(100) + ".leaf")
    }

    func testVeryDeepDictionariesThrowInsteadOfCrashing() {
        let parameters = nestedDictionary(depth: 5_000)
        assertTooDeep(try ParameterFormConverter.encode(parameters, options: .default), keyPath: dottedPath(101))
        assertTooDeep(try JSONParameterSerializer.serialize(parameters), keyPath: dottedPath(101))
        assertTooDeep(
            try AdHocRouter(method: .post, parameters: .form(parameters)).asURLRequest(), keyPath: dottedPath(101))
    }

    func testVeryDeepArraysThrowInsteadOfCrashing() {
        let keyPath = "a" + String(repeating: "[0]", count: 100)
        assertTooDeep(try ParameterFormConverter.encode(nestedArray(depth: 5_000), options: .default), keyPath: keyPath)
        assertTooDeep(try JSONParameterSerializer.serialize(nestedArray(depth: 5_000)), keyPath: keyPath)
        XCTAssertNoThrow(try JSONParameterSerializer.serialize(nestedArray(depth: 100)))
    }

    private final class Chain: Encodable {
        let value = 1
        let next: Chain?

        init(length: Int) {
            next = length > 1 ? Chain(length: length - 1) : nil
        }
    }

    func testEncodableValuesFollowTheSameLimit() throws {
        // `Chain(length: n)` writes `value` at key paths of 1...n components.
        let atLimit = try URLFormEncoder().encode(Chain(length: 100))
        XCTAssertEqual(atLimit.components(separatedBy: "&").count, 100)
        assertTooDeep(
            try URLFormEncoder().encode(Chain(length: 101)),
            keyPath: Array(repeating: "next", count: 100).joined(separator: ".") + ".value")
        assertTooDeep(
            try URLFormEncoder().encode(Chain(length: 5_000)),
            keyPath: Array(repeating: "next", count: 100).joined(separator: ".") + ".value")
    }
}
