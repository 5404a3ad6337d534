import Foundation
import XCTest
@testable import Courier

/// `Encodable` → form encoding with every ``URLFormEncoder`` strategy.
final class URLFormEncoderTests: XCTestCase {
    private struct Search: Encodable {
        var query: String
        var page: Int
        var tags: [String]
        var exact: Bool
    }

    private struct Profile: Encodable {
        var userID: Int
        var myURLKey: String
        var homeAddress: Address
    }

    private struct Address: Encodable {
        var streetName: String
        var zip: String
    }

    private struct Stamped: Encodable {
        var at: Date
    }

    private struct Blob: Encodable {
        var data: Data
    }

    private struct Nillable: Encodable {
        var a: Int?
        var b: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a, forKey: .a)
            try container.encode(b, forKey: .b)
        }

        enum CodingKeys: String, CodingKey { case a, b }
    }

    private let date = Date(timeIntervalSince1970: 1_700_000_000.5)

    func testDefaults() throws {
        let value = Search(query: "swift nio", page: 2, tags: ["a", "b"], exact: true)
        XCTAssertEqual(try URLFormEncoder().encode(value), "exact=1&page=2&query=swift%20nio&tags%5B%5D=a&tags%5B%5D=b")
    }

    func testSharedOptions() throws {
        let value = Search(query: "swift nio", page: 2, tags: ["a", "b"], exact: false)
        let options = URLEncodingOptions(
            arrayEncoding: .indexInBrackets, boolEncoding: .literal, spaceEncoding: .plusReplaced)
        XCTAssertEqual(
            try URLFormEncoder(options: options).encode(value),
            "exact=false&page=2&query=swift+nio&tags%5B0%5D=a&tags%5B1%5D=b")
        let noBrackets = URLFormEncoder(options: URLEncodingOptions(arrayEncoding: .noBrackets))
        XCTAssertEqual(try noBrackets.encode(value), "exact=0&page=2&query=swift%20nio&tags=a&tags=b")
    }

    func testNestedObjectsWithDefaultKeys() throws {
        let value = Profile(userID: 7, myURLKey: "k", homeAddress: Address(streetName: "Main St", zip: "0150"))
        XCTAssertEqual(
            try URLFormEncoder().encode(value),
            "homeAddress%5BstreetName%5D=Main%20St&homeAddress%5Bzip%5D=0150&myURLKey=k&userID=7")
    }

    func testSnakeCaseKeys() throws {
        let value = Profile(userID: 7, myURLKey: "k", homeAddress: Address(streetName: "Main St", zip: "0150"))
        XCTAssertEqual(
            try URLFormEncoder(keyEncoding: .convertToSnakeCase).encode(value),
            "home_address%5Bstreet_name%5D=Main%20St&home_address%5Bzip%5D=0150&my_url_key=k&user_id=7")
    }

    func testSnakeCaseConversionTable() {
        let table = [
            "userID": "user_id", "myURLKey": "my_url_key", "simple": "simple", "already_snake": "already_snake",
            "address2Line": "address2_line", "URL": "u_rl", "aB": "a_b", "_private": "_private", "": ""
        ]
        for (input, expected) in table {
            XCTAssertEqual(URLFormEncoder.snakeCased(input), expected, input)
        }
    }

    func testCustomKeys() throws {
        let encoder = URLFormEncoder(keyEncoding: .custom { $0.uppercased() })
        XCTAssertEqual(try encoder.encode(["a": 1]), "A=1")
    }

    func testKeyPathEncodings() throws {
        let value = Profile(userID: 7, myURLKey: "k", homeAddress: Address(streetName: "Main St", zip: "0150"))
        let dots = URLFormEncoder(options: URLEncodingOptions(keyPathEncoding: .dots))
        XCTAssertEqual(
            try dots.encode(value), "homeAddress.streetName=Main%20St&homeAddress.zip=0150&myURLKey=k&userID=7")
        let custom = URLFormEncoder(
            keyEncoding: .convertToSnakeCase,
            options: URLEncodingOptions(keyPathEncoding: .custom { "/\($0)" }))
        XCTAssertEqual(
            try custom.encode(value), "home_address/street_name=Main%20St&home_address/zip=0150&my_url_key=k&user_id=7")
    }

    func testOtherKeyEncodings() throws {
        let value = Profile(userID: 7, myURLKey: "k", homeAddress: Address(streetName: "Main St", zip: "0150"))
        XCTAssertEqual(
            try URLFormEncoder(keyEncoding: .convertToKebabCase).encode(value),
            "home-address%5Bstreet-name%5D=Main%20St&home-address%5Bzip%5D=0150&my-url-key=k&user-id=7")
        XCTAssertEqual(try URLFormEncoder(keyEncoding: .capitalized).encode(["userID": 1]), "UserID=1")
        XCTAssertEqual(try URLFormEncoder(keyEncoding: .uppercased).encode(["userID": 1]), "USERID=1")
        XCTAssertEqual(try URLFormEncoder(keyEncoding: .lowercased).encode(["userID": 1]), "userid=1")
    }

    func testDateStrategies() throws {
        let value = Stamped(at: date)
        XCTAssertEqual(try URLFormEncoder().encode(value), "at=721692800.5")
        XCTAssertEqual(try URLFormEncoder(dateEncoding: .secondsSince1970).encode(value), "at=1700000000.5")
        XCTAssertEqual(try URLFormEncoder(dateEncoding: .millisecondsSince1970).encode(value), "at=1700000000500.0")
        XCTAssertEqual(try URLFormEncoder(dateEncoding: .iso8601).encode(value), "at=2023-11-14T22%3A13%3A20Z")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd"
        XCTAssertEqual(try URLFormEncoder(dateEncoding: .formatted(formatter)).encode(value), "at=2023/11/14")
        XCTAssertEqual(try URLFormEncoder(dateEncoding: .custom { _ in "x y" }).encode(value), "at=x%20y")
    }

    func testDataStrategies() throws {
        let value = Blob(data: Data([0xFB, 0xFF, 0x01]))
        XCTAssertEqual(try URLFormEncoder().encode(value), "data=%2B/8B")
        XCTAssertEqual(
            try URLFormEncoder(dataEncoding: .deferredToData).encode(value),
            "data%5B%5D=251&data%5B%5D=255&data%5B%5D=1")
        XCTAssertEqual(try URLFormEncoder(dataEncoding: .custom { "\($0.count)" }).encode(value), "data=3")
    }

    func testNilStrategies() throws {
        let value = Nillable(a: nil, b: 1)
        XCTAssertEqual(try URLFormEncoder().encode(value), "b=1")
        let empty = URLFormEncoder(options: URLEncodingOptions(nilEncoding: .dropValue))
        XCTAssertEqual(try empty.encode(value), "a=&b=1")
    }

    func testSynthesizedOptionalsAreOmitted() throws {
        struct Optionals: Encodable { var a: String?; var b: String? }
        XCTAssertEqual(try URLFormEncoder().encode(Optionals(a: "x", b: nil)), "a=x")
    }

    func testUnsortedKeepsEncodingOrder() throws {
        let value = Search(query: "q", page: 1, tags: [], exact: true)
        XCTAssertEqual(try URLFormEncoder(sortsKeys: false).encode(value), "query=q&page=1&exact=1")
    }

    func testSpecialValues() throws {
        struct Special: Encodable { var url: URL; var price: Decimal; var ratio: Double; var f: Float; var u: UInt64 }
        let value = Special(
            url: URL(string: "https://x.test/a?b=c") ?? URL(fileURLWithPath: "/"),
            price: Decimal(string: "9.99") ?? 0, ratio: 2.0, f: 0.1, u: .max)
        XCTAssertEqual(
            try URLFormEncoder().encode(value),
            "f=0.1&price=9.99&ratio=2.0&u=18446744073709551615&url=https%3A//x.test/a?b%3Dc")
    }

    func testNonFiniteThrowsWithKeyPath() {
        struct Bad: Encodable { var values: [Double] }
        XCTAssertThrowsError(try URLFormEncoder().encode(Bad(values: [1, .infinity]))) { error in
            XCTAssertSameError(
                error as? CourierError,
                .parameterEncodingFailed(keyPath: "values[1]", reason: "NaN and infinite numbers cannot be encoded"))
        }
    }

    func testTopLevelScalarThrows() {
        XCTAssertThrowsError(try URLFormEncoder().encode(5)) { error in
            guard let failure_ = error as? CourierError, failure_ == .parameterEncodingFailed,
                let keyPath = failure_.subject
            else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(keyPath, "")
        }
    }

    func testRoutersGuideExample() throws {
        struct Search: Encodable { var q: String; var page: Int; var price: Double; var note: String? }
        let value = Search(q: "a b", page: 2, price: 10, note: nil)
        XCTAssertEqual(try URLFormEncoder().encode(value), "page=2&price=10.0&q=a%20b")
        let keep = URLFormEncoder(options: URLEncodingOptions(nilEncoding: .dropValue))
        XCTAssertEqual(try keep.encode(value), "note=&page=2&price=10.0&q=a%20b")
    }

    func testUnkeyedSuperEncoderAppendsAnElement() throws {
        struct Items: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: URLFormEncoderTests.Key.self)
                var items = container.nestedUnkeyedContainer(forKey: Key(stringValue: "items"))
                try items.encode(1)
                try 2.encode(to: items.superEncoder())
            }
        }
        XCTAssertEqual(try URLFormEncoder().encode(Items()), "items%5B%5D=1&items%5B%5D=2")
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func testEncodeAsData() throws {
        XCTAssertEqual(try URLFormEncoder().encodeAsData(["k": "v"]), Data("k=v".utf8))
    }
}
