import Foundation
import XCTest
@testable import Courier

/// Dictionary → `key=value` encoding rules and every ``URLEncodingOptions`` option.
final class QueryEncodingTests: XCTestCase {
    private func encode(_ parameters: Parameters, _ options: URLEncodingOptions = .default) throws -> String {
        try ParameterFormConverter.encode(parameters, options: options)
    }

    func testTopLevelKeysAreSorted() throws {
        XCTAssertEqual(try encode(["b": 2, "a": 1, "c": "3"]), "a=1&b=2&c=3")
    }

    func testEmptyParametersGiveEmptyString() throws {
        XCTAssertEqual(try encode([:]), "")
    }

    func testNestedDictionariesUseEscapedBracketsWithSortedKeys() throws {
        let parameters: Parameters = ["filters": ["z": 1, "a": ["deep": "x"]] as Parameters]
        XCTAssertEqual(try encode(parameters), "filters%5Ba%5D%5Bdeep%5D=x&filters%5Bz%5D=1")
    }

    func testArraysDefaultToEmptyBrackets() throws {
        XCTAssertEqual(try encode(["ids": [1, 2]]), "ids%5B%5D=1&ids%5B%5D=2")
    }

    func testArraysWithoutBrackets() throws {
        let options = URLEncodingOptions(arrayEncoding: .noBrackets)
        XCTAssertEqual(try encode(["ids": [1, 2]], options), "ids=1&ids=2")
    }

    func testArraysWithIndexInBrackets() throws {
        let options = URLEncodingOptions(arrayEncoding: .indexInBrackets)
        XCTAssertEqual(try encode(["ids": [1, 2]], options), "ids%5B0%5D=1&ids%5B1%5D=2")
    }

    func testArrayOfDictionaries() throws {
        XCTAssertEqual(try encode(["items": [["id": 1], ["id": 2]]]), "items%5B%5D%5Bid%5D=1&items%5B%5D%5Bid%5D=2")
    }

    func testEmptyArraysAndDictionariesWriteNothing() throws {
        XCTAssertEqual(try encode(["a": [Int](), "b": [String: Int](), "c": 1]), "c=1")
    }

    func testBoolsAreNumericByDefault() throws {
        XCTAssertEqual(try encode(["no": false, "yes": true]), "no=0&yes=1")
    }

    func testBoolsAsLiterals() throws {
        let options = URLEncodingOptions(boolEncoding: .literal)
        XCTAssertEqual(try encode(["no": false, "yes": true], options), "no=false&yes=true")
    }

    func testNSNumberBoolIsABoolAndNSNumberIntIsANumber() throws {
        XCTAssertEqual(
            try encode(["b": NSNumber(value: true), "n": NSNumber(value: 1), "d": NSNumber(value: 2.5)]),
            "b=1&d=2.5&n=1")
    }

    func testSpacesArePercentEscapedByDefault() throws {
        XCTAssertEqual(try encode(["q": "a b+c"]), "q=a%20b%2Bc")
    }

    func testSpacesAsPlus() throws {
        let options = URLEncodingOptions(spaceEncoding: .plusReplaced)
        XCTAssertEqual(try encode(["q": "a b+c"], options), "q=a+b%2Bc")
    }

    func testReservedCharactersAreEscapedExceptSlashAndQuestionMark() throws {
        XCTAssertEqual(
            try encode(["k": ":#[]@!$&'()*+,;="]),
            "k=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        XCTAssertEqual(try encode(["k": "AZaz09-._~/?"]), "k=AZaz09-._~/?")
        XCTAssertEqual(try encode(["k": "%\"<>\\^`{|}"]), "k=%25%22%3C%3E%5C%5E%60%7B%7C%7D")
    }

    func testKeysAreEscapedToo() throws {
        XCTAssertEqual(try encode(["a b&c": 1]), "a%20b%26c=1")
    }

    func testNonASCIIIsUTF8WithUppercaseHex() throws {
        XCTAssertEqual(try encode(["city": "Zürich", "emoji": "😀"]), "city=Z%C3%BCrich&emoji=%F0%9F%98%80")
    }

    func testNumbers() throws {
        let parameters: Parameters = [
            "i": -3, "u8": UInt8(255), "i64": Int64.min, "u64": UInt64.max,
            "d": 1.5, "whole": 2.0, "f": Float(0.1), "small": 1e-7, "dec": Decimal(string: "12.50") ?? 0
        ]
        XCTAssertEqual(
            try encode(parameters),
            "d=1.5&dec=12.5&f=0.1&i=-3&i64=-9223372036854775808&small=1e-07&u64=18446744073709551615&u8=255&whole=2")
    }

    func testNilIsDroppedByDefault() throws {
        let missing: String? = nil
        let present: String? = "x"
        XCTAssertEqual(try encode(["a": missing, "b": present, "c": NSNull()]), "b=x")
    }

    func testNilAsEmptyValue() throws {
        let missing: Int? = nil
        let options = URLEncodingOptions(nilEncoding: .dropValue)
        XCTAssertEqual(try encode(["a": missing, "b": NSNull(), "c": 1], options), "a=&b=&c=1")
    }

    func testNilAsNull() throws {
        let missing: Int? = nil
        let options = URLEncodingOptions(nilEncoding: .null)
        XCTAssertEqual(
            try encode(["a": missing, "b": NSNull(), "c": [NSNull()]], options),
            "a=null&b=null&c%5B%5D=null")
    }

    func testNestedKeysWithDots() throws {
        let parameters: Parameters = ["user": ["name": "Ada", "tags": ["a"], "home": ["city": "Oslo"]] as Parameters]
        let options = URLEncodingOptions(keyPathEncoding: .dots)
        XCTAssertEqual(try encode(parameters, options), "user.home.city=Oslo&user.name=Ada&user.tags%5B%5D=a")
    }

    func testNestedKeysWithACustomEncoding() throws {
        let parameters: Parameters = ["user": ["name": "Ada"] as Parameters]
        let options = URLEncodingOptions(keyPathEncoding: .custom { "__\($0)" })
        XCTAssertEqual(try encode(parameters, options), "user__name=Ada")
    }

    func testIndexesCountEveryElementAsURLEncodingDoes() throws {
        let options = URLEncodingOptions(arrayEncoding: .indexInBrackets)
        XCTAssertEqual(try encode(["a": [1, NSNull(), [Int](), 2] as [any Sendable]], options), "a%5B0%5D=1&a%5B3%5D=2")
    }

    func testUnsupportedValueNamesKeyPath() {
        XCTAssertThrowsError(try encode(["user": ["when": Date(timeIntervalSince1970: 0)]])) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "user.when", reason: "Date is not a URL-encodable value"))
        }
    }

    func testNonFiniteNumberThrows() {
        XCTAssertThrowsError(try encode(["items": [1.0, 2.0, Double.nan]])) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "items[2]", reason: "NaN and infinite numbers cannot be encoded"))
        }
    }

    func testSeedStyleDictionary() throws {
        let parameters: Parameters = ["email": "a@b.c", "pw": "p w", "filters": ["a": 1], "ids": [1, 2]]
        XCTAssertEqual(
            try encode(parameters),
            "email=a%40b.c&filters%5Ba%5D=1&ids%5B%5D=1&ids%5B%5D=2&pw=p%20w")
    }
}
