import Courier
import Foundation
import XCTest

/// Numbers: every integer width with overflow, the integral-float and Decimal routes Foundation
/// takes for integers, correctly rounded Double and Float, underflow and overflow, Decimal.
/// Each token is read at the top level, in an array, in an object and through decodeIfPresent.
final class JSONNumberEquivalenceTests: XCTestCase {
    static let integerTokens: [String] = [
        "0", "-0", "1", "-1", "7", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769",
        "65535", "65536", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "99999999999999999999",
        "170141183460469231731687303715884105727", "170141183460469231731687303715884105728",
        "-170141183460469231731687303715884105728", "-170141183460469231731687303715884105729",
        "340282366920938463463374607431768211455", "340282366920938463463374607431768211456",
        "1.0", "1.5", "-1.5", "1e2", "1E2", "1e+2", "1e-2", "100e-2", "-0.0", "0.0", "0e5", "0.1e1", "10e-1",
        "1.00000000000000000001", "0.99999999999999999999", "9007199254740992", "9007199254740993",
        "9007199254740993.0", "9007199254740993.9", "-9007199254740993.9", "90071992547409939e-1",
        "12345678901234567.5", "12345678901234567890e-1", "1234567890123456789.00", "1234567890123456789.0",
        "9007199254740993000e-3", "1e18", "-1e18", "1e19", "1e20", "9223372036854775807.0", "-9223372036854775808.0",
        "18446744073709551615.0", "18446744073709550000.0", "100000000000000000000.0",
        "12345678901234567890123456789012345678901234567890e-31", "1e400", "-1e400", "1e-400", "-1e-400",
        "01", "-01", "00", "1.", "-", "1-2", "1e", ".5", "1.e3", "1e5e5", "--1", "-a"
    ]

    static let floatingTokens: [String] = [
        "0", "-0", "0.0", "-0.0", "0.1", "1e-1", "3.14159", "-2.5e-3", "0.30000000000000004", "1E5", "1e+5",
        "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324", "2.4703282292062328e-324",
        "2.4703282292062327e-324", "2e-324", "1e-324", "1e-320", "1.7976931348623157e308", "1.7976931348623158e308",
        "1.7976931348623159e308", "1e308", "1e309", "-1e309", "1e400", "1e-400", "0e-400", "0.0000e999",
        "123456789012345678901234567890", "9007199254740993", "9007199254740992.5", "1e22", "1e23",
        "8.98846567431158e307",
        "4.35679587e-17", "1.00000005960464477539062500000000001", "1.000000059604644775390625",
        "1.0000000596046447753906249", "3.4028235e38", "3.4028235677973366e38", "3.40282357e38", "3.5e38",
        "1e-45", "1.4e-45", "7e-46", "7.1e-46", "1e-46", "1e-40", "0.000001", "123.456e-7", "16777217", "33554435",
        "3.14159265358979323846264338327950288419716939937510582097494459",
        "0.000000000000000000000000000000000000000000000000000000000000000000001",
        "1" + String(repeating: "0", count: 400), "0." + String(repeating: "0", count: 400) + "1",
        "0." + String(repeating: "0", count: 400), "1" + String(repeating: "0", count: 300) + "e-300",
        "01", "1.", ".1", "1e", "-", "+1", "1.5.5"
    ]

    struct Box<T: Decodable>: Decodable {
        let value: T
    }

    struct Maybe<T: Decodable>: Decodable {
        let value: T?
    }

    private func check<T: Decodable>(
        _ type: T.Type, _ token: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertEquivalent(T.self, token, file: file, line: line)
        assertEquivalent([T].self, "[1,\(token)]".replacingOccurrences(of: "[1,", with: "["), file: file, line: line)
        assertEquivalent([T].self, "[\(token),\(token)]", file: file, line: line)
        assertEquivalent(Box<T>.self, "{\"value\":\(token)}", file: file, line: line)
        assertEquivalent(Maybe<T>.self, "{\"value\":\(token)}", file: file, line: line)
        assertEquivalent([T?].self, "[null,\(token)]", file: file, line: line)
    }

    func testIntegers() {
        for token in Self.integerTokens {
            check(Int.self, token)
            check(Int8.self, token)
            check(Int16.self, token)
            check(Int32.self, token)
            check(Int64.self, token)
            check(UInt.self, token)
            check(UInt8.self, token)
            check(UInt16.self, token)
            check(UInt32.self, token)
            check(UInt64.self, token)
            check(Int128.self, token)
            check(UInt128.self, token)
        }
    }

    func testFloatingPoint() {
        for token in Self.floatingTokens + Self.integerTokens {
            check(Double.self, token)
            check(Float.self, token)
        }
    }

    func testDecimal() {
        let tokens =
            Self.floatingTokens + Self.integerTokens + [
                "123456789012345678901234567890.123", "-0.000000000000000000000000000000000000000000001234",
                "1e127", "1e128", "1e-128", "1e-129", "1e-200", "1.5e3", "\"1\"", "true", "null", "[1]"
            ]
        for token in tokens {
            check(Decimal.self, token)
        }
    }

    func testRandomDoublesAndFloatsRoundTrip() {
        var generator = TestRandom(seed: 0xC0FFEE)
        var tokens: [String] = []
        var floatTokens: [String] = []
        for _ in 0..<1500 {
            let bits = generator.next()
            let double = Double(bitPattern: bits)
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: bits >> 11))
            if double.isFinite {
                tokens.append("\(double)")
                tokens.append(String(format: "%.17g", double))
                tokens.append(String(format: "%.25e", double))
            }
            if float.isFinite {
                floatTokens.append("\(float)")
                floatTokens.append(String(format: "%.9g", Double(float)))
            }
            tokens.append(String(format: "%.3f", Double(Int64(bitPattern: bits) % 10_000_000) / 997))
        }
        assertSameValue([Double].self, "[" + (tokens + floatTokens).joined(separator: ",") + "]")
        assertSameValue([Float].self, "[" + floatTokens.joined(separator: ",") + "]")
        assertEquivalent([Float].self, "[" + tokens.joined(separator: ",") + "]")
        for token in tokens.prefix(300) + floatTokens.prefix(300) {
            assertEquivalent(Double.self, token)
            assertEquivalent(Float.self, token)
        }
    }

    func testNonConformingFloats() {
        var options = JSONEquivalence.Options()
        options.floats = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        for json in [
            "\"+Infinity\"", "\"-Infinity\"", "\"NaN\"", "\"nan\"", "\"Infinity\"", "\"\\u004eaN\"", "1.5", "null",
            "true"
        ] {
            assertEquivalent(Double.self, json, options)
            assertEquivalent(Float.self, json, options)
            assertEquivalent([Double].self, "[\(json)]", options)
            assertEquivalent(Box<Float>.self, "{\"value\":\(json)}", options)
            assertEquivalent(Double.self, json)
        }
        options.floats = .convertFromString(positiveInfinity: "∞", negativeInfinity: "-∞", nan: "")
        for json in ["\"∞\"", "\"-∞\"", "\"\"", "\"x\""] {
            assertEquivalent([Double].self, "[\(json)]", options)
        }
    }
}

/// A small deterministic generator for test inputs (a 64-bit linear congruential generator).
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
