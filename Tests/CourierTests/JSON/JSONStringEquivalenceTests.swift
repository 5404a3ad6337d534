import Courier
import Foundation
import XCTest

/// Strings and keys: escapes, surrogate pairs, control characters, UTF-8, canonically
/// equivalent keys, duplicate keys.
final class JSONStringEquivalenceTests: XCTestCase {
    func testEscapes() {
        let strings = [
            #""""#, #""plain""#, #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00e9\u20ac\ud83d\ude00""#, #""\u0000a\u0000""#,
            #""\uD834\uDD1E""#, #""\ud834\udd1e tail""#, #""\uDBFF\uDFFF""#, #""\uD800\uDC00""#, #""\uFFFF\uFFFE""#,
            #""a\u0301""#, #""mixed é \u00e9 😀 \ud83d\ude00""#, #""\ud800""#, #""\udfff""#, #""\ud800\ud800""#,
            #""\ud800\\u0041""#, #""\ud800\n""#, #""\u00G0""#, #""\u 123""#, #""\x41""#, #""\a""#, #""\0""#,
            "\"tab\there\"", "\"line\nbreak\"", "\"\u{7F}\"", #""a very long string with an escape at the end \n""#,
            "\"" + String(repeating: "abcdefgh", count: 50) + "\\n" + String(repeating: "ä", count: 40) + "\"",
            "\"" + String(repeating: "\\u00e9", count: 100) + "\"", "\"" + String(repeating: "\\\\", count: 33) + "\""
        ]
        for json in strings {
            assertEquivalent(String.self, json)
            assertEquivalent([String].self, "[\(json),\(json)]")
            assertEquivalent([String: String].self, "{\"k\":\(json)}")
            assertEquivalent([String: Int].self, "{\(json):1}")
            assertEquivalent(ContainerTree.self, "{\(json):[\(json)]}")
            assertEquivalent(Nothing.self, "{\(json):[\(json)]}")
        }
    }

    struct Picked: Decodable {
        let b: String
        let d: [String]
    }

    /// The scanner unescapes strings with valid escapes into one buffer as it reads the document
    /// and leaves the others as written: both kinds, read and unread, interleaved.
    func testValidAndInvalidEscapedStringsInterleaved() {
        let invalid = [#""\x41""#, #""\ud800""#, "\"tab\there\"", #""\u00G0""#, #""\udfff tail""#, #""\ud800\u0041""#]
        let valid = [#""\"q\" \u00e9""#, #""\ud83d\ude00\n""#, #""plain""#, #""é\\ ü""#, #""\u0000""#]
        var objects: [String] = []
        for i in 0..<60 {
            let a = invalid[i % invalid.count]
            let b = valid[i % valid.count]
            let c = invalid[(i + 1) % invalid.count]
            let d = valid[(i + 2) % valid.count]
            objects.append(#"{"a":\#(a),"b":\#(b),"c":\#(c),"d":[\#(d),\#(b)]}"#)
        }
        assertEquivalent([Picked].self, "[" + objects.joined(separator: ",") + "]")
        assertEquivalent([String].self, "[" + valid.joined(separator: ",") + "]")
        for bad in invalid {
            assertEquivalent([String].self, "[" + (valid + [bad] + valid).joined(separator: ",") + "]")
        }
    }

    func testRandomStringsRoundTrip() throws {
        var generator = TestRandom(seed: 42)
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}",
            "é", "ß", "€", "\u{FFFF}", "😀", "𝄞", "\u{0301}", "\u{212A}", "ǅ"
        ]
        var values: [String] = []
        for _ in 0..<400 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 40) {
                text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            values.append(String(text))
        }
        let encoded = try JSONEncoder().encode(values)
        assertEquivalent([String].self, encoded)
        let encodedKeys = try JSONEncoder().encode(
            Dictionary(values.map { ($0, $0.count) }, uniquingKeysWith: { a, _ in a }))
        assertEquivalent([String: Int].self, encodedKeys)
        assertEquivalent(ContainerTree.self, encodedKeys)
    }

    struct Named: Decodable {
        let name: String
        let kelvin: Int?
        enum CodingKeys: String, CodingKey {
            case name
            case kelvin = "K"
        }
    }

    struct Accented: Decodable {
        let café: Int
    }

    func testKeysCompareAsStrings() {
        // Escaped keys, and canonically equivalent spellings (Kelvin sign, combining accent).
        for json in [
            #"{"name":"a"}"#, #"{"n\u0061me":"a"}"#, #"{"\u006e\u0061\u006d\u0065":"a","K":1}"#,
            "{\"name\":\"a\",\"\u{212A}\":2}", #"{"name":"a","\u212a":3}"#, #"{"nam":"a"}"#, #"{"name ":"a"}"#
        ] {
            assertEquivalent(Named.self, json)
        }
        for json in ["{\"café\":1}", "{\"cafe\u{301}\":2}", #"{"caf\u00e9":3}"#, #"{"cafe\u0301":4}"#, #"{"cafe":5}"#] {
            assertEquivalent(Accented.self, json)
        }
    }

    struct Pair: Decodable {
        let a: Int
        let b: String
    }

    func testDuplicateKeysFirstWins() {
        for json in [
            #"{"a":1,"b":"x","a":2}"#, #"{"a":1,"a":"not a number","b":"x"}"#, #"{"b":"x","a":1,"b":"y","a":2}"#,
            #"{"a":1,"\u0061":2,"b":"x"}"#, #"{"a":"bad","a":1,"b":"x"}"#
        ] {
            assertEquivalent(Pair.self, json)
            assertEquivalent([String: DecodedTree].self, json)
            assertEquivalent(ContainerTree.self, json)
        }
    }

    func testEmptyAndLongKeys() {
        let long = String(repeating: "k", count: 300)
        assertSameValue([String: Int].self, "{\"\":1,\"\(long)\":2,\"\(long)x\":3}")
        struct Keys: Decodable {
            let eight: Int
            let sixteen: Int
            enum CodingKeys: String, CodingKey {
                case eight = "12345678"
                case sixteen = "1234567812345678"
            }
        }
        assertSameValue(Keys.self, #"{"1234567812345678":2,"12345678":1,"1234567":0,"123456789":9}"#)
        assertSameError(Keys.self, #"{"1234567812345679":2,"12345678":1}"#)
    }
}
