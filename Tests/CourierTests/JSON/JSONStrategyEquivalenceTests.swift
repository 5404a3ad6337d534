import Courier
import Foundation
import XCTest

/// Every strategy: key (default, snake case, custom), date (all six), data (all three), and
/// userInfo.
final class JSONStrategyEquivalenceTests: XCTestCase {
    struct Profile: Decodable {
        let userId: Int
        let firstName: String
        let lastName: String?
        let isAdmin: Bool
        let homePageURL: URL?
        let tags: [String: Int]
        let _private: Int?
        let nested: Nested?

        struct Nested: Decodable {
            let innerValue: Int
            let deepList: [Deep]
        }

        struct Deep: Decodable {
            let someKey: String
        }
    }

    func testSnakeCaseKeys() {
        var snake = JSONEquivalence.Options()
        snake.keys = .convertFromSnakeCase
        let documents = [
            #"{"user_id":1,"first_name":"Ada","last_name":null,"is_admin":true,"home_page_url":"https://a.b","tags":{"some_tag":1,"Other_Tag":2},"_private":3,"nested":{"inner_value":4,"deep_list":[{"some_key":"x"}]}}"#,
            #"{"user_id":1,"first_name":"Ada","is_admin":false,"tags":{}}"#,
            #"{"userId":1,"firstName":"Ada","isAdmin":false,"tags":{}}"#,
            #"{"USER_ID":1,"FIRST_NAME":"Ada","IS_ADMIN":false,"tags":{},"home_page_u_r_l":"x"}"#,
            #"{"user__id":1,"first_name_":"Ada","is_admin":false,"tags":{"a_b":1,"a_b":2}}"#,
            #"{"user_id":1,"userId":2,"first_name":"Ada","is_admin":false,"tags":{}}"#,
            #"{"user_id":"1","first_name":"Ada","is_admin":false,"tags":{}}"#,
            #"{"user_id":1,"first_name":"Ada","is_admin":false,"tags":{"x":"y"}}"#,
            #"{"user_id":1,"first_name":"Ada","is_admin":false,"tags":{},"nested":{"inner_value":1,"deep_list":[{"some_kEY":"x"}]}}"#,
            #"{"user_id":1,"first_name":"Ada","is_admin":false,"tags":{},"nested":{"inner_value":1,"deep_list":[{"some\u005fkey":"x"}]}}"#
        ]
        for json in documents {
            assertEquivalent(Profile.self, json, snake)
            assertEquivalent(Profile.self, json)
            assertEquivalent(ContainerTree.self, json, snake)
            assertEquivalent([String: DecodedTree].self, json, snake)
        }
    }

    /// The conversion itself, for many shapes of key, compared through `allKeys`.
    func testSnakeCaseConversionOfManyKeys() throws {
        var snake = JSONEquivalence.Options()
        snake.keys = .convertFromSnakeCase
        var keys = [
            "a_1b", "a_b.c", "a_b-c", "a_b c", "a_b'c", "a_x1y2", "A_B", "HELLO_world", "hello_WORLD", "a__b", "_a_b_",
            "__", "_", "a", "AbC", "a_ß", "a_ǆx", "a_éb", "É_a", "a_ŉ", "a_ﬁx", "x_İy", "a_bC_d", "a_1", "a_.b",
            "ab_CD_eF", "a_Σσ", "Σ_x", "a_iJ", "a_b_", "a_b2c", "a_2b3", "a_b12cD", "snake_case_key", "__x__y__",
            "k_\u{301}x", "a_b\u{301}c", "", "9_9", "a9_b9"
        ]
        var generator = TestRandom(seed: 7)
        let pieces = ["a", "B", "c1", "_", "__", "Xy", "9", "zZ", "q_"]
        for _ in 0..<300 {
            keys.append(
                (0..<Int(1 + generator.next() % 5)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                    .joined())
        }
        for key in keys {
            let json = try String(decoding: JSONEncoder().encode([key: 1]), as: UTF8.self)
            assertSameValue(ContainerTree.self, json, snake)
            assertSameValue(ContainerTree.self, "{\"x\":\(json)}", snake)
        }
    }

    func testCustomKeys() {
        var custom = JSONEquivalence.Options()
        custom.keys = .custom { path in
            let last = path.last!.stringValue
            let depth = path.count
            return TestKey(stringValue: depth > 2 ? last.uppercased() : last.replacingOccurrences(of: "-", with: ""))
        }
        struct Item: Decodable {
            let itemName: String
            let sub: [Sub]
            struct Sub: Decodable { let A: Int }
        }
        for json in [
            #"{"item-name":"x","sub":[{"a":1}]}"#, #"{"item-name":"x","itemName":"y","sub":[{"a":1},{"A":2}]}"#,
            #"{"item-name":"x","sub":[{"b":1}]}"#, #"{"sub":[]}"#
        ] {
            assertEquivalent(Item.self, json, custom)
            assertEquivalent(ContainerTree.self, json, custom)
            assertEquivalent([String: DecodedTree].self, json, custom)
        }
    }

    struct Event: Decodable {
        let at: Date
        let maybe: Date?
        let list: [Date]
    }

    func testDateStrategies() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let strategies: [(String, JSONDecoder.DateDecodingStrategy)] = [
            ("deferred", .deferredToDate), ("seconds", .secondsSince1970), ("milliseconds", .millisecondsSince1970),
            ("iso8601", .iso8601), ("formatted", .formatted(formatter)),
            (
                "custom",
                .custom { decoder in
                    let container = try decoder.singleValueContainer()
                    if let number = try? container.decode(Double.self) {
                        return Date(timeIntervalSince1970: number * 60)
                    }
                    let text = try container.decode(String.self)
                    guard text != "throw" else {
                        throw JSONTestError(message: "custom date refused \(decoder.codingPath.count)")
                    }
                    return Date(timeIntervalSince1970: Double(text.count))
                }
            )
        ]
        let values = [
            "0", "1700000000", "1700000000123", "-1.5", "1e300", "\"2024-05-01T12:00:00Z\"",
            "\"2024-05-01T12:00:00.123Z\"",
            "\"2024-05-01T12:00:00+02:00\"", "\"2024-05-01\"", "\"2024-13-01\"", "\"throw\"", "\"\"", "null", "true",
            "[1]", "{}", "\"1700000000\"", "01", "\"\\u0032024-05-01\""
        ]
        for (name, strategy) in strategies {
            var options = JSONEquivalence.Options()
            options.dates = strategy
            for value in values {
                let json = #"{"at":\#(value),"maybe":\#(value),"list":[\#(value),\#(value)]}"#
                assertEquivalent(Event.self, json, options, label: name)
                assertEquivalent(Date.self, value, options, label: name)
                assertEquivalent([Date?].self, "[null,\(value)]", options, label: name)
                assertEquivalent([String: Date].self, "{\"d\":\(value)}", options, label: name)
            }
        }
    }

    struct Blob: Decodable {
        let data: Data
        let optional: Data?
    }

    func testDataStrategies() {
        let strategies: [(String, JSONDecoder.DataDecodingStrategy)] = [
            ("base64", .base64), ("deferred", .deferredToData),
            (
                "custom",
                .custom { decoder in
                    var container = try decoder.unkeyedContainer()
                    var bytes: [UInt8] = []
                    while !container.isAtEnd { bytes.append(try container.decode(UInt8.self) ^ 0xFF) }
                    return Data(bytes)
                }
            )
        ]
        let values = [
            #""aGVsbG8=""#, #""aGVsbG8""#, #""a GVsbG8=""#, #""""#, #""/+/+""#, #""\u0061GVsbG8=""#, "[104,105]",
            "[256]", "[-1]", "[]", "null", "1", "{}", #""!!!!""#, #""YQ==""#, #""YQ=""#
        ]
        for (name, strategy) in strategies {
            var options = JSONEquivalence.Options()
            options.data = strategy
            for value in values {
                assertEquivalent(Blob.self, #"{"data":\#(value),"optional":\#(value)}"#, options, label: name)
                assertEquivalent(Data.self, value, options, label: name)
                assertEquivalent([Data].self, "[\(value)]", options, label: name)
            }
        }
    }

    struct UsesUserInfo: Decodable {
        let seen: String
        init(from decoder: any Decoder) throws {
            let key = CodingUserInfoKey(rawValue: "tenant")!
            seen = "\(decoder.userInfo[key] ?? "none") \(decoder.userInfo.count)"
        }
    }

    func testUserInfo() {
        var options = JSONEquivalence.Options()
        options.userInfo = [CodingUserInfoKey(rawValue: "tenant")!: "acme", CodingUserInfoKey(rawValue: "n")!: 2]
        assertSameValue([UsesUserInfo].self, "[1,{}]", options)
        assertSameValue(UsesUserInfo.self, "1")
    }

    func testURLsAndDecimals() {
        struct Links: Decodable {
            let home: URL
            let price: Decimal
        }
        for json in [
            #"{"home":"https://example.com/a?b=c#d","price":19.99}"#, #"{"home":"not a url with spaces","price":1}"#,
            #"{"home":"","price":1}"#, #"{"home":"/relative/path","price":-0.000000001}"#, #"{"home":1,"price":1}"#,
            #"{"home":"x","price":"19.99"}"#, #"{"home":"x","price":null}"#, #"{"home":null,"price":1}"#,
            #"{"home":"x","price":1e500}"#
        ] {
            assertEquivalent(Links.self, json)
        }
    }
}
