import Courier
import Foundation
import XCTest

/// The container API: every way a type can read its value, and the errors (kinds and coding
/// paths) for missing keys, nulls, wrong kinds, running past the end, nested and super decoders.
final class JSONContainerEquivalenceTests: XCTestCase {
    typealias Key = TestKey

    /// Records what each container call returns or throws, continuing after failures.
    struct Probe: Decodable {
        var log: [String] = []

        init(from decoder: any Decoder) throws {
            func record(_ label: String, _ body: () throws -> Any) {
                do {
                    log.append("\(label) = \(JSONEquivalence.describe(try body()))")
                } catch {
                    log.append("\(label) ! \(JSONEquivalence.describe(error: error))")
                }
            }
            log.append("path \(JSONEquivalence.path(decoder.codingPath))")
            if let keyed = try? decoder.container(keyedBy: Key.self) {
                log.append("keys \(keyed.allKeys.map(\.stringValue).sorted())")
                log.append("path \(JSONEquivalence.path(keyed.codingPath))")
                for name in ["a", "b", "n", "s", "arr", "obj", "missing", "super"] {
                    let key = Key(stringValue: name)
                    log.append("contains \(name) \(keyed.contains(key))")
                    record("nil \(name)") { try keyed.decodeNil(forKey: key) }
                    record("bool \(name)") { try keyed.decode(Bool.self, forKey: key) }
                    record("int \(name)") { try keyed.decode(Int.self, forKey: key) }
                    record("int8? \(name)") { try keyed.decodeIfPresent(Int8.self, forKey: key) as Any }
                    record("uint \(name)") { try keyed.decode(UInt32.self, forKey: key) }
                    record("double \(name)") { try keyed.decode(Double.self, forKey: key) }
                    record("float? \(name)") { try keyed.decodeIfPresent(Float.self, forKey: key) as Any }
                    record("string \(name)") { try keyed.decode(String.self, forKey: key) }
                    record("string? \(name)") { try keyed.decodeIfPresent(String.self, forKey: key) as Any }
                    record("bool? \(name)") { try keyed.decodeIfPresent(Bool.self, forKey: key) as Any }
                    record("[int] \(name)") { try keyed.decode([Int].self, forKey: key) }
                    record("[int]? \(name)") { try keyed.decodeIfPresent([Int].self, forKey: key) as Any }
                    record("[s:int] \(name)") { try keyed.decode([String: Int].self, forKey: key) }
                    record("nested keyed \(name)") {
                        let nested = try keyed.nestedContainer(keyedBy: Key.self, forKey: key)
                        return [JSONEquivalence.path(nested.codingPath)] + nested.allKeys.map(\.stringValue).sorted()
                    }
                    record("nested unkeyed \(name)") {
                        let nested = try keyed.nestedUnkeyedContainer(forKey: key)
                        return [JSONEquivalence.path(nested.codingPath), "\(nested.count ?? -1)"]
                    }
                    record("super \(name)") {
                        let inner = try keyed.superDecoder(forKey: key)
                        return [
                            JSONEquivalence.path(inner.codingPath),
                            JSONEquivalence.describe(try DecodedTree(from: inner))
                        ]
                    }
                    record("tree \(name)") { try keyed.decode(DecodedTree.self, forKey: key) }
                }
                record("super()") {
                    let inner = try keyed.superDecoder()
                    return [JSONEquivalence.path(inner.codingPath), "\(try inner.singleValueContainer().decodeNil())"]
                }
            } else if var unkeyed = try? decoder.unkeyedContainer() {
                log.append("count \(unkeyed.count ?? -1) path \(JSONEquivalence.path(unkeyed.codingPath))")
                var step = 0
                while step < 12 {
                    let index = unkeyed.currentIndex
                    switch step % 6 {
                    case 0: record("nil@\(index)") { try unkeyed.decodeNil() }
                    case 1: record("int@\(index)") { try unkeyed.decode(Int.self) }
                    case 2: record("string?@\(index)") { try unkeyed.decodeIfPresent(String.self) as Any }
                    case 3: record("tree@\(index)") { try unkeyed.decode(DecodedTree.self) }
                    case 4:
                        record("nested@\(index)") {
                            var nested = try unkeyed.nestedUnkeyedContainer()
                            return [JSONEquivalence.path(nested.codingPath), "\(try nested.decode(Int.self))"]
                        }
                    default:
                        record("keyed@\(index)") {
                            let nested = try unkeyed.nestedContainer(keyedBy: Key.self)
                            return [JSONEquivalence.path(nested.codingPath)]
                                + nested.allKeys.map(\.stringValue).sorted()
                        }
                    }
                    log.append("index \(unkeyed.currentIndex) atEnd \(unkeyed.isAtEnd)")
                    step += 1
                }
                record("super@end") { try unkeyed.superDecoder().codingPath.count }
                record("int?@end") { try unkeyed.decodeIfPresent(Int.self) as Any }
                log.append("index \(unkeyed.currentIndex) atEnd \(unkeyed.isAtEnd)")
            } else {
                let single = try decoder.singleValueContainer()
                log.append("nil \(single.decodeNil())")
                record("bool") { try single.decode(Bool.self) }
                record("int16") { try single.decode(Int16.self) }
                record("string") { try single.decode(String.self) }
                record("double") { try single.decode(Double.self) }
                record("[int]") { try single.decode([Int].self) }
                record("url") { try single.decode(URL.self) }
            }
        }
    }

    static let documents: [String] = [
        #"{"a":1,"b":true,"n":null,"s":"text","arr":[1,2,3],"obj":{"x":1,"y":[null]},"super":5}"#,
        #"{"a":-7,"b":"no","n":null,"s":12,"arr":[1,"two",null],"obj":[],"extra":{}}"#,
        #"{"a":1.5,"b":null,"s":null,"arr":{},"obj":{"a":{"b":1}}}"#,
        #"{"a":300,"arr":[],"obj":null,"super":{"a":1}}"#,
        #"{}"#, #"[]"#, #"[1]"#, #"[null,1,"s",{"a":[1]},[2],{"k":1},null,null,[],{},3,"x"]"#,
        #"[1,2,3,4,5,6,7,8,9,10,11,12,13]"#, #"[null,null,null]"#, #"[[1],[2],[3],[4],[5],[6]]"#, #"[{"a":1}]"#,
        #"1"#, #""text""#, #"null"#, #"true"#, #"1.5"#, #""http://example.com/a b""#, #""https://example.com/p?q=1""#,
        #"{"a":{"a":{"a":{"a":[{"a":1}]}}}}"#
    ]

    func testContainerCallsAndErrors() {
        for json in Self.documents {
            assertSameValue(Probe.self, json)
            assertSameValue([Probe].self, "[\(json),\(json)]")
            assertSameValue([String: Probe].self, "{\"k\":\(json)}")
        }
    }

    /// A type that keeps its decoder past `init(from:)`, then uses it.
    struct Escaping: Decodable {
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
    }

    struct Holder: Decodable {
        let items: [Escaping]
        let other: [String: Int]
    }

    /// Foundation's decoder is one shared object, so a kept decoder later reads whatever that
    /// object points at (the top-level value, with an empty path). Courier's keeps its own
    /// value and path: here it must match what a fresh decode of the same element reports.
    func testDecodersKeptPastTheirCall() throws {
        let json = Data(#"{"items":[{"x":1},{"x":"bad"}],"other":{"a":1,"b":2}}"#.utf8)
        let kept = try CourierJSONDecoder().decode(Holder.self, from: json).items
        XCTAssertEqual(
            kept.map { JSONEquivalence.path($0.decoder.codingPath) }, ["[items|-, Index 0|0]", "[items|-, Index 1|1]"])
        XCTAssertEqual(
            try kept[0].decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key(stringValue: "x")), 1)
        XCTAssertThrowsError(
            try kept[1].decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key(stringValue: "x"))
        ) { error in
            XCTAssertEqual(JSONEquivalence.describe(error: error), "typeMismatch(Int) at [items|-, Index 1|1, x|-]")
        }
    }

    /// Decodes reuse their buffers once the previous decode is over; a kept decoder holds its
    /// own, so decodes made after it (of other documents, larger and smaller) leave it intact.
    func testAKeptDecoderKeepsItsDocumentAcrossLaterDecodes() throws {
        let json = Data(#"{"items":[{"x":41},{"x":42}],"other":{}}"#.utf8)
        let kept = try CourierJSONDecoder().decode(Holder.self, from: json).items
        let larger =
            "["
            + (0..<500).map { #"{"x":\#($0),"y":"\#(String(repeating: "z", count: $0 % 40))"}"# }
            .joined(separator: ",") + "]"
        for text in [larger, #"{"x":7}"#, larger] {
            _ = try CourierJSONDecoder().decode(DecodedTree.self, from: Data(text.utf8))
        }
        XCTAssertEqual(
            try kept.map {
                try $0.decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key(stringValue: "x"))
            },
            [41, 42])
        XCTAssertEqual(
            kept.map { JSONEquivalence.path($0.decoder.codingPath) }, ["[items|-, Index 0|0]", "[items|-, Index 1|1]"])
    }

    enum Shape: Decodable, Equatable {
        case circle(radius: Double)
        case square(side: Double)
        case unknown
    }

    class Base: Decodable {
        let id: Int
        enum CodingKeys: String, CodingKey { case id }
    }

    final class Derived: Base, @unchecked Sendable {
        let name: String
        enum CodingKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            try super.init(from: container.superDecoder())
        }
    }

    func testSynthesizedEnumsAndSubclasses() {
        assertSameValue([Shape].self, #"[{"circle":{"radius":1}},{"square":{"side":2.5}},{"unknown":{}}]"#)
        assertSameError([Shape].self, #"[{"circle":{"radius":"x"}}]"#)
        assertSameError([Shape].self, #"[{"circle":{},"square":{}}]"#)
        assertSameError([Shape].self, #"[{"triangle":{}}]"#)
        assertSameValue(Derived.self, #"{"name":"n","super":{"id":3}}"#)
        assertSameError(Derived.self, #"{"name":"n","super":{"id":"3"}}"#)
        assertSameError(Derived.self, #"{"name":"n"}"#)
    }

    enum Level: Int, Decodable { case low = 1, high = 2 }
    enum Mood: String, Decodable { case happy, sad }
    enum IntKeys: Int, CodingKey { case zero = 0, one = 1 }
    struct ByIntKeys: Decodable {
        let values: [Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: IntKeys.self)
            values = [try container.decode(Int.self, forKey: .zero), try container.decode(Int.self, forKey: .one)]
        }
    }

    func testRawRepresentablesAndKeyedDictionaries() {
        assertSameValue([Level].self, "[1,2]")
        assertSameError([Level].self, "[1,3]")
        // Keys that are neither String nor Int (nor CodingKeyRepresentable) mean an array of pairs.
        assertSameError([Mood: Int].self, #"{"happy":1,"sad":2}"#)
        assertSameValue([Mood: Int].self, #"["happy",1,"sad",2]"#)
        assertSameError([Mood: Int].self, #"["happy",1,"angry",2]"#)
        assertSameValue([Int: String].self, #"{"1":"a","-2":"b"}"#)
        assertSameError([Int: String].self, #"{"1":"a","x":"b"}"#)
        assertSameValue(ByIntKeys.self, #"{"zero":4,"one":5}"#)
        assertSameError(ByIntKeys.self, #"{"zero":4,"one":null}"#)
        assertSameError(ByIntKeys.self, #"{"zero":4}"#)
        assertSameValue(Set<String>.self, #"["a","b","a"]"#)
        assertSameValue([[String: [Int?]]].self, #"[{"a":[1,null]},{}]"#)
        assertSameError([[String: [Int]]].self, #"[{"a":[1,null]},{}]"#)
    }
}
