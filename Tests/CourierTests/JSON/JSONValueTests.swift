import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `JSONValue`: any JSON decoded, kept and encoded again, with both decoders.
final class JSONValueTests: XCTestCase {
    private let document = Data(
        #"{"id":9007199254740993,"ratio":1.5,"name":"Rex","tags":["a",null,true],"owner":{"age":3},"gone":null}"#
            .utf8)

    private let expected: JSONValue = .object([
        "id": .integer(9_007_199_254_740_993),
        "ratio": .number(1.5),
        "name": .string("Rex"),
        "tags": .array([.string("a"), .null, .bool(true)]),
        "owner": .object(["age": .integer(3)]),
        "gone": .null
    ])

    func testEveryKindDecodesWithEitherDecoder() throws {
        XCTAssertEqual(try CourierJSONDecoder().decode(JSONValue.self, from: document), expected)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: document), expected)
    }

    func testWholeNumbersPastTwoToTheFiftyThirdStayExact() throws {
        let value = try CourierJSONDecoder().decode(JSONValue.self, from: Data("[9007199254740993, 2.0e0, -7]".utf8))
        XCTAssertEqual(value, [.integer(9_007_199_254_740_993), .integer(2), .integer(-7)])
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        XCTAssertEqual(encoded, "[9007199254740993,2,-7]")
    }

    func testEncodingGivesBackTheSameJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(expected), as: UTF8.self)
        XCTAssertEqual(
            text,
            #"{"gone":null,"id":9007199254740993,"name":"Rex","owner":{"age":3},"ratio":1.5,"tags":["a",null,true]}"#)
        XCTAssertEqual(try CourierJSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), expected)
    }

    func testLiteralsBuildTheMatchingCases() {
        let value: JSONValue = ["name": "Rex", "age": 3, "weight": 4.5, "good": true, "toys": ["ball"]]
        XCTAssertEqual(
            value,
            .object([
                "name": .string("Rex"), "age": .integer(3), "weight": .number(4.5), "good": .bool(true),
                "toys": .array([.string("ball")])
            ]))
        let repeated: JSONValue = ["a": 1, "a": 2]
        XCTAssertEqual(repeated, .object(["a": .integer(2)]))
        XCTAssertEqual(Set<JSONValue>([1, 1, "1"]).count, 2)
    }

    func testValuesCompareAsJSONAndHashAsTheyCompare() {
        XCTAssertEqual(JSONValue.integer(1), .number(1.0))
        XCTAssertEqual(JSONValue.number(-0.0), .integer(0))
        XCTAssertNotEqual(JSONValue.integer(1), .number(1.5))
        XCTAssertNotEqual(JSONValue.integer(1), .string("1"))
        XCTAssertNotEqual(JSONValue.bool(true), .integer(1))
        // Exact, not through a Double: 2^53 + 1 is not the Double 2^53 it would round to.
        XCTAssertNotEqual(JSONValue.integer(9_007_199_254_740_993), .number(9_007_199_254_740_992))
        XCTAssertEqual(Set<JSONValue>([1, 1.0, -0.0, 0, "1", [1], [1.0], ["a": 2], ["a": 2.0]]).count, 5)
        XCTAssertEqual(["b": 1, "a": [nil, true]] as JSONValue, .object(["a": .array([.null, .bool(true)]), "b": 1.0]))
    }

    func testSubscriptsAndDescription() {
        let value: JSONValue = ["tags": ["new", "sale"], "owner": ["name": "Ada"], "url": "https://x.y/z"]
        XCTAssertEqual(value["tags"]?[1], "sale")
        XCTAssertEqual(value["owner"]?["name"], "Ada")
        XCTAssertNil(value["tags"]?[2])
        XCTAssertNil(value["missing"])
        XCTAssertNil(value[0])
        XCTAssertEqual(value.description, #"{"owner":{"name":"Ada"},"tags":["new","sale"],"url":"https://x.y/z"}"#)
    }

    /// Courier's decoder reads a `JSONValue` straight from its tape; `JSONDecoder` goes through
    /// `init(from:)`, trying each kind in turn. Both must give the same value under every strategy.
    func testTheDirectReadMatchesTheGenericPathUnderEveryStrategy() throws {
        let documents = [
            #"{"a_b":1,"a_b":2,"c":[1.5,-0,2e3,9007199254740993,"x",null,false],"d":{"e_f":"Infinity"}}"#,
            #"["NaN-free","Infinity",1e-3,[],{},[[[]]],{"k":{"k":{"k":null}}}]"#,
            #""just a string""#, "42", "4.25", "true", "null"
        ]
        let strategies: [(JSONDecoder.KeyDecodingStrategy, JSONDecoder.NonConformingFloatDecodingStrategy)] = [
            (.useDefaultKeys, .throw), (.convertFromSnakeCase, .throw),
            (
                .useDefaultKeys,
                .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            )
        ]
        for (keys, floats) in strategies {
            var courier = CourierJSONDecoder()
            courier.keyDecodingStrategy = keys
            courier.nonConformingFloatDecodingStrategy = floats
            let foundation = JSONDecoder()
            foundation.keyDecodingStrategy = keys
            foundation.nonConformingFloatDecodingStrategy = floats
            for document in documents {
                let data = Data(document.utf8)
                let direct = try courier.decode(JSONValue.self, from: data)
                XCTAssertEqual(direct, try foundation.decode(JSONValue.self, from: data), "\(document) \(keys)")
                // The generic path through Courier's own decoder, as a custom `init(from:)` takes it.
                XCTAssertEqual(direct, try courier.decode(Wrapped.self, from: data).value, document)
                // And a member of a model.
                let member = try courier.decode(Holder.self, from: Data(#"{"payload":\#(document)}"#.utf8))
                XCTAssertEqual(member.payload, direct, document)
            }
        }
        let infinity = try CourierJSONDecoder(
            nonConformingFloatDecodingStrategy: .convertFromString(
                positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        ).decode(JSONValue.self, from: Data(#"["Infinity","inf"]"#.utf8))
        XCTAssertEqual(infinity, [.number(.infinity), "inf"])
    }

    func testAnUnrepresentableNumberIsATypedError() {
        for decoder in [CourierJSONDecoder() as any DataDecoder, JSONDecoder()] {
            XCTAssertThrowsError(try decoder.decode(JSONValue.self, from: Data("[1e400]".utf8))) { error in
                XCTAssertTrue(error is DecodingError, "\(decoder): \(error)")
            }
        }
    }

    func testMalformedJSONIsADecodingErrorNotACrash() {
        for text in ["{", "[1,", #"{"a" 1}"#, ""] {
            XCTAssertThrowsError(try CourierJSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), text) {
                error in
                XCTAssertTrue(error is DecodingError, "\(text): \(error)")
            }
        }
    }

    func testAFreeFormBodyIsSentAsItsJSON() throws {
        let filter: JSONValue = ["tags": ["new", "sale"], "limit": 20]
        let request = try RequestParams.jsonEncodable(filter).apply(
            to: URLRequest(url: URL(string: "https://example.com/search")!))
        let body = try XCTUnwrap(request.httpBody)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: body), filter)
    }
}

/// A `JSONValue` read through `init(from:)` directly, not through `decode(JSONValue.self)`.
private struct Wrapped: Decodable {
    let value: JSONValue
    init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
}

private struct Holder: Decodable {
    let payload: JSONValue
}
