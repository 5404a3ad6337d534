import Courier
import Foundation
import XCTest

/// Decoding the same bytes with Foundation's `JSONDecoder` and with `CourierJSONDecoder`, and
/// describing each outcome so that the two can be compared: the value, or the error's kind,
/// type and coding path (string and int values of every key).
enum JSONEquivalence {
    /// The strategies to configure both decoders with.
    struct Options {
        var keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        var dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
        var data: JSONDecoder.DataDecodingStrategy = .base64
        var floats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]

        var foundation: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = keys
            decoder.dateDecodingStrategy = dates
            decoder.dataDecodingStrategy = data
            decoder.nonConformingFloatDecodingStrategy = floats
            decoder.userInfo = userInfo
            return decoder
        }

        var courier: CourierJSONDecoder {
            CourierJSONDecoder(
                keyDecodingStrategy: keys, dateDecodingStrategy: dates, dataDecodingStrategy: data,
                nonConformingFloatDecodingStrategy: floats, userInfo: userInfo)
        }
    }

    /// A comparable description of how a decode ended.
    static func outcome<T: Decodable>(_ type: T.Type, _ body: () throws -> T) -> String {
        do {
            return "value " + describe(try body())
        } catch {
            return "error " + describe(error: error)
        }
    }

    /// A description that is equal for equal values: dictionaries and sets are sorted, dates,
    /// data and floating point values are spelled exactly.
    static func describe(_ value: Any) -> String {
        switch value {
        case let date as Date: return "Date(\(date.timeIntervalSinceReferenceDate.bitPattern))"
        case let data as Data: return "Data(\(data.map { String($0, radix: 16) }.joined(separator: " ")))"
        case let url as URL: return "URL(\(url.absoluteString))"
        case let decimal as Decimal: return "Decimal(\(decimal))"
        case let double as Double: return "Double(\(double.bitPattern))"
        case let float as Float: return "Float(\(float.bitPattern))"
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?:
            let entries = mirror.children.map { pair in
                Mirror(reflecting: pair.value).children.map { describe($0.value) }.joined(separator: ": ")
            }
            return "[" + entries.sorted().joined(separator: ", ") + "]"
        case .set?:
            return "Set[" + mirror.children.map { describe($0.value) }.sorted().joined(separator: ", ") + "]"
        case .collection?, .tuple?:
            return "[" + mirror.children.map { describe($0.value) }.joined(separator: ", ") + "]"
        case .optional?:
            return mirror.children.first.map { "some(" + describe($0.value) + ")" } ?? "nil"
        case .struct?, .class?, .enum?:
            if mirror.children.isEmpty { return "\(type(of: value)).\(value)" }
            let fields = mirror.children.map { "\($0.label ?? "_"): \(describe($0.value))" }
            return "\(type(of: value))(" + fields.joined(separator: ", ") + ")"
        default:
            return String(reflecting: value)
        }
    }

    static func describe(error: any Error) -> String {
        guard let error = error as? DecodingError else {
            // Inside decoding, each decoder throws its own internal error for malformed values
            // (reported as the same dataCorrupted at the top level); a test's own error is kept.
            return error is JSONTestError ? "thrown \(error)" : "internal error"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "typeMismatch(\(type)) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "valueNotFound(\(type)) at \(path(context.codingPath))"
        case .keyNotFound(let key, let context):
            return
                "keyNotFound(\(key.stringValue)|\(key.intValue.map(String.init) ?? "-")) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return "dataCorrupted at \(path(context.codingPath))"
        @unknown default:
            return "unknown \(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        "[" + keys.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }.joined(separator: ", ") + "]"
    }

    /// Both outcomes for `data`.
    static func outcomes<T: Decodable>(
        _ type: T.Type, _ data: Data, _ options: Options = Options()
    ) -> (foundation: String, courier: String) {
        let foundation = outcome(T.self) { try options.foundation.decode(T.self, from: data) }
        let courier = outcome(T.self) { try options.courier.decode(T.self, from: data) }
        return (foundation, courier)
    }
}

extension XCTestCase {
    /// Asserts that both decoders end the same way on `json`.
    func assertEquivalent<T: Decodable>(
        _ type: T.Type, _ json: String, _ options: JSONEquivalence.Options = .init(),
        label: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        assertEquivalent(
            type, Data(json.utf8), options, label: (label.map { $0 + ": " } ?? "") + json, file: file, line: line)
    }

    /// Asserts that both decoders end the same way on `data`.
    func assertEquivalent<T: Decodable>(
        _ type: T.Type, _ data: Data, _ options: JSONEquivalence.Options = .init(),
        label: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        let (foundation, courier) = JSONEquivalence.outcomes(type, data, options)
        XCTAssertEqual(
            courier, foundation, "\(T.self) from \((label ?? "\(data.count) bytes").prefix(200))",
            file: file, line: line)
    }

    /// Asserts equivalence and that the outcome is a value (the case is not vacuous).
    func assertSameValue<T: Decodable>(
        _ type: T.Type, _ json: String, _ options: JSONEquivalence.Options = .init(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let (foundation, courier) = JSONEquivalence.outcomes(type, Data(json.utf8), options)
        XCTAssertTrue(
            foundation.hasPrefix("value"), "Foundation failed on \(json.prefix(200)): \(foundation)", file: file,
            line: line)
        XCTAssertEqual(courier, foundation, "\(T.self) from \(json.prefix(200))", file: file, line: line)
    }

    /// Asserts equivalence and that the outcome is an error.
    func assertSameError<T: Decodable>(
        _ type: T.Type, _ json: String, _ options: JSONEquivalence.Options = .init(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let (foundation, courier) = JSONEquivalence.outcomes(type, Data(json.utf8), options)
        XCTAssertTrue(
            foundation.hasPrefix("error"), "Foundation decoded \(json.prefix(200)): \(foundation)", file: file,
            line: line)
        XCTAssertEqual(courier, foundation, "\(T.self) from \(json.prefix(200))", file: file, line: line)
    }
}

/// An error thrown by test code (custom strategies, hand-written `init(from:)`).
struct JSONTestError: Error, Equatable {
    let message: String
}
