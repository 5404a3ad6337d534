import Foundation

/// One value of a ``Parameters`` tree, classified without ever handing unknown objects
/// to Foundation serializers.
enum ParameterValue {
    case null
    case bool(Bool)
    case string(String)
    /// A number already written as JSON-compatible text (`42`, `1.5`, `1e+20`).
    case number(String)
    case array([Any])
    case object([String: Any])

    /// Classifies `value`; `keyPath` (such as `user.tags[2]`) is used in errors, whose reason
    /// reads `"<Type> is not <valueKind>"`.
    static func classify(_ value: Any, keyPath: String, valueKind: String) throws -> ParameterValue {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first else { return .null }
            return try classify(wrapped.value, keyPath: keyPath, valueKind: valueKind)
        }
        // NSNumber first, by dynamic type: a Swift Int or Bool is never an NSNumber here.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return try classify(number: number, keyPath: keyPath)
        }
        switch value {
        case is NSNull: return .null
        case let bool as Bool: return .bool(bool)
        case let string as String: return .string(string)
        case let substring as Substring: return .string(String(substring))
        case let character as Character: return .string(String(character))
        case let double as Double: return .number(try format(double, keyPath: keyPath))
        case let float as Float: return .number(try format(float, keyPath: keyPath))
        case let decimal as Decimal:
            guard !decimal.isNaN else { throw nonFinite(keyPath: keyPath) }
            return .number(decimal.description)
        case let integer as any BinaryInteger: return .number("\(integer)")
        case let floating as any BinaryFloatingPoint: return .number(try format(floating, keyPath: keyPath))
        case let dictionary as [String: Any]: return .object(dictionary)
        case let array as [Any]: return .array(array)
        default:
            throw CourierError.parameterEncodingFailed(
                keyPath: keyPath, reason: "\(type(of: value)) is not \(valueKind)")
        }
    }

    /// The key path of `key` inside the object at `parent`: `user.birthday`.
    static func path(_ parent: String, key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }

    /// The key path of element `index` inside the array at `parent`: `items[2]`.
    static func path(_ parent: String, index: Int) -> String {
        "\(parent)[\(index)]"
    }

    private static func classify(number: NSNumber, keyPath: String) throws -> ParameterValue {
        switch String(cString: number.objCType) {
        case "c", "B":
            return .bool(number.boolValue)
        case "f", "d":
            return .number(try format(number.doubleValue, keyPath: keyPath))
        case "Q", "L", "I", "S", "C":
            return .number("\(number.uint64Value)")
        default:
            return .number("\(number.int64Value)")
        }
    }

    /// Writes a finite floating-point value: integral values below 2^53 without a fraction
    /// (`1.0` → `1`), others in Swift's shortest round-tripping form (`0.1`, `1e+20`).
    static func format<F: BinaryFloatingPoint>(_ value: F, keyPath: String) throws -> String {
        guard value.isFinite else { throw nonFinite(keyPath: keyPath) }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return "\(Int64(value))"
        }
        return "\(value)"
    }

    static func nonFinite(keyPath: String) -> CourierError {
        .parameterEncodingFailed(keyPath: keyPath, reason: "NaN and infinite numbers cannot be encoded")
    }
}
