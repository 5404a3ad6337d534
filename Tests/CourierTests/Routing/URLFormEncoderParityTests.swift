import Foundation
import XCTest
@testable import Courier

/// `URLFormEncoder` writes what Alamofire's `URLEncodedFormEncoder` writes for the same value and
/// options (docs/migration.md lists the few documented differences). Expected strings follow
/// Alamofire's rules: numbers in Swift's `String(_:)` form, `nil` through the nil encoding, the
/// written `key=value` pairs sorted as text, the key encoding applied to the whole key path.
final class URLFormEncoderParityTests: XCTestCase {
    private struct Address: Encodable {
        var streetName = "Main St"
        var zip = "0150"
    }

    func testWholeNumberDoublesKeepTheirFraction() throws {
        struct Numbers: Encodable {
            var a = 1.0
            var b = 2.5
            var f: Float = 3
            var big = 1e20
            var negativeZero = -0.0
            var tiny = 1e-7
        }
        XCTAssertEqual(
            try URLFormEncoder().encode(Numbers()),
            "a=1.0&b=2.5&big=1e%2B20&f=3.0&negativeZero=-0.0&tiny=1e-07")
        XCTAssertEqual(try URLFormEncoder().encode(["values": [1.0, 2.0]]), "values%5B%5D=1.0&values%5B%5D=2.0")
    }

    func testDatesAreWrittenUnrounded() throws {
        struct Stamped: Encodable { var at: Date }
        let whole = Stamped(at: Date(timeIntervalSince1970: 1_700_000_000))
        let fraction = Stamped(at: Date(timeIntervalSince1970: 1_234.5678))
        let milliseconds = URLFormEncoder(dateEncoding: .millisecondsSince1970)
        XCTAssertEqual(try milliseconds.encode(whole), "at=1700000000000.0")
        XCTAssertEqual(try milliseconds.encode(fraction), "at=1234567.8000450134")
        let seconds = URLFormEncoder(dateEncoding: .secondsSince1970)
        XCTAssertEqual(try seconds.encode(whole), "at=1700000000.0")
        XCTAssertEqual(try seconds.encode(fraction), "at=1234.5678000450134")
        XCTAssertEqual(try URLFormEncoder().encode(whole), "at=721692800.0")
    }

    private struct Optionals: Encodable {
        var one: String? = "1"
        var two: String?
        var count: Int?
        var flag: Bool?
        var ratio: Double?
        var address: Address?
    }

    func testNilPropertiesAreDroppedByDefault() throws {
        XCTAssertEqual(try URLFormEncoder().encode(Optionals()), "one=1")
    }

    func testNilPropertiesCanKeepTheirKey() throws {
        let encoder = URLFormEncoder(options: URLEncodingOptions(nilEncoding: .dropValue))
        XCTAssertEqual(try encoder.encode(Optionals()), "address=&count=&flag=&one=1&ratio=&two=")
    }

    func testNilPropertiesCanBeWrittenAsNull() throws {
        let encoder = URLFormEncoder(options: URLEncodingOptions(nilEncoding: .null))
        XCTAssertEqual(try encoder.encode(Optionals()), "address=null&count=null&flag=null&one=1&ratio=null&two=null")
    }

    func testNilArrayElementsAndIndexes() throws {
        struct Sparse: Encodable { var a: [Int?] = [1, nil, 2] }
        let dropKey = URLFormEncoder(options: URLEncodingOptions(arrayEncoding: .indexInBrackets))
        XCTAssertEqual(try dropKey.encode(Sparse()), "a%5B0%5D=1&a%5B1%5D=2")
        let dropValue = URLFormEncoder(
            options: URLEncodingOptions(arrayEncoding: .indexInBrackets, nilEncoding: .dropValue))
        XCTAssertEqual(try dropValue.encode(Sparse()), "a%5B0%5D=1&a%5B1%5D=&a%5B2%5D=2")
        XCTAssertEqual(try URLFormEncoder().encode(Sparse()), "a%5B%5D=1&a%5B%5D=2")
    }

    func testPairsAreSortedAsWrittenText() throws {
        // `a1=2` sorts before `a=1` because '1' < '='; Alamofire sorts the escaped pairs.
        struct Keys: Encodable {
            var a = 1
            var a1 = 2
            var aB = 3
            var a_b = 4
        }
        XCTAssertEqual(try URLFormEncoder().encode(Keys()), "a1=2&a=1&aB=3&a_b=4")
        XCTAssertEqual(try URLFormEncoder().encode(["a": 1, "a-b": 2, "a b": 3]), "a%20b=3&a-b=2&a=1")
        // Dictionary parameters follow Alamofire's URLEncoding instead: raw keys sorted.
        XCTAssertEqual(try ParameterFormConverter.encode(["a": 1, "a1": 2], options: .default), "a=1&a1=2")
    }

    func testArraysKeepTheirOrder() throws {
        XCTAssertEqual(
            try URLFormEncoder().encode(["tags": ["b", "a", "c"]]),
            "tags%5B%5D=b&tags%5B%5D=a&tags%5B%5D=c")
    }

    func testKeyEncodingSeesTheWholeKeyPath() throws {
        struct Outer: Encodable {
            var inner = Address()
            var tags = ["t"]
        }
        let encoder = URLFormEncoder(keyEncoding: .custom { "x_" + $0 })
        XCTAssertEqual(
            try encoder.encode(Outer()),
            "x_inner%5BstreetName%5D=Main%20St&x_inner%5Bzip%5D=0150&x_tags%5B%5D=t")
        let snake = URLFormEncoder(keyEncoding: .convertToSnakeCase)
        XCTAssertEqual(try snake.encode(["a": ["BTest": 1]]), "a%5B_b_test%5D=1")
    }

    /// Alamofire's `convertToSnakeCase` is the algorithm of Foundation's `JSONEncoder`, so
    /// Foundation is the reference for any key.
    func testSnakeCaseMatchesFoundation() throws {
        var keys = [
            "URL", "ABTest", "already_Snake", "myURLKey", "userID", "aB", "_private", "address2Line",
            "homeAddress[streetName]", "_oneTwoThree_", "x1Y", "a.bC", "tags[]", "iOS", "_Foo", "a__B",
            "aB1c", "A", "AB", "ABc", "", "_", "ÉtéÀ", "Σx", "simple", "already_snake"
        ]
        // Every key of up to three characters from an alphabet mixing the cases that matter.
        let alphabet = ["a", "B", "1", "_", "[", "É", "é", " "]
        var shorter = [""]
        for _ in 1...3 {
            shorter = shorter.flatMap { prefix in alphabet.map { prefix + $0 } }
            keys += shorter
        }
        for key in keys {
            XCTAssertEqual(URLFormEncoder.snakeCased(key), try Self.foundationSnakeCase(key), key)
        }
    }

    func testSuperEncoderWritesIntoTheSameObject() throws {
        class Base: Encodable {
            var id = 1
        }
        final class Child: Base {
            var name = "n"
            enum CodingKeys: String, CodingKey { case name }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try super.encode(to: container.superEncoder())
            }
        }
        XCTAssertEqual(try URLFormEncoder().encode(Child()), "id=1&name=n")
    }

    func testEmptyContainersWriteNothing() throws {
        struct Empty: Encodable {}
        struct Holder: Encodable {
            var a: [Int] = []
            var b = Empty()
            var c = 1
            var d: [[Int]] = [[1], [], [2]]
        }
        let indexed = URLFormEncoder(options: URLEncodingOptions(arrayEncoding: .indexInBrackets))
        XCTAssertEqual(try indexed.encode(Holder()), "c=1&d%5B0%5D%5B0%5D=1&d%5B1%5D%5B0%5D=2")
    }

    /// `key` converted by `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`.
    private static func foundationSnakeCase(_ key: String) throws -> String {
        struct OneKey: Encodable {
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            var key: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(0, forKey: Key(stringValue: key))
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(OneKey(key: key))) as? [String: Any]
        return try XCTUnwrap(object?.keys.first)
    }
}
