import Foundation

/// One value of a ``Parameters`` tree, classified without ever handing unknown objects
/// to Foundation serializers.
///
/// Classification looks at the value's own type only: Swift types are matched first and
/// Foundation classes (`NSNumber`, `NSNull`) by their metatype, so no value is bridged to an
/// Objective-C-style object (on Linux that bridging copies the whole sub-tree, every level).
enum ParameterValue {
    case null
    case bool(Bool)
    case string(String)
    /// A number already written as JSON-compatible text (`42`, `1.5`, `1e+20`).
    case number(String)
    case array([Any])
    case object([String: Any])

    /// The deepest key path any parameter encoder accepts, in components (`a.b[0]` has 3):
    /// deeper trees throw ``tooDeep(keyPath:)`` instead of recursing further.
    static let maximumDepth = 100

    /// Classifies `value` found at `keyPath` (such as `user.tags[2]`), which has `depth`
    /// components; errors read `"<Type> is not <valueKind>"`.
    static func classify(_ value: Any, keyPath: String, depth: Int, valueKind: String) throws -> ParameterValue {
        guard depth <= maximumDepth else { throw tooDeep(keyPath: keyPath) }
        // NSNumber first, by dynamic type: a Swift Int or Bool is never an NSNumber here.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return try classify(number: number, keyPath: keyPath)
        }
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let integer as Int: return .number(String(integer))
        case let double as Double: return .number(try format(double, keyPath: keyPath))
        case let dictionary as [String: Any]: return .object(dictionary)
        case let array as [Any]: return .array(array)
        case let optional as any OptionalParameter:
            guard let wrapped = optional.wrappedParameter else { return .null }
            return try classify(wrapped, keyPath: keyPath, depth: depth, valueKind: valueKind)
        case let substring as Substring: return .string(String(substring))
        case let character as Character: return .string(String(character))
        case let float as Float: return .number(try format(float, keyPath: keyPath))
        case let decimal as Decimal:
            guard !decimal.isNaN else { throw nonFinite(keyPath: keyPath) }
            return .number(decimal.description)
        case let integer as any BinaryInteger: return .number("\(integer)")
        case let floating as any BinaryFloatingPoint: return .number(try format(floating, keyPath: keyPath))
        default:
            if type(of: value) is NSNull.Type { return .null }
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
    /// (`1.0` → `1`, as `NSNumber` and `JSONSerialization` write them), others in Swift's
    /// shortest round-tripping form (`0.1`, `1e+20`).
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

    static func tooDeep(keyPath: String) -> CourierError {
        .parameterEncodingFailed(
            keyPath: keyPath, reason: "nesting deeper than \(maximumDepth) levels is not supported")
    }
}

/// Lets ``ParameterValue/classify(_:keyPath:depth:valueKind:)`` unwrap an optional held in
/// an `Any` without reflection.
protocol OptionalParameter {
    /// The wrapped value, or `nil`.
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    var wrappedParameter: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}
