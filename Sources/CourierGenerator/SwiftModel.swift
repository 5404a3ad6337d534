/// A Swift type the generated code names.
indirect enum SwiftType: Equatable, Sendable {
    /// A standard type: `String`, `Int`, `Double`, `Bool`, `Date`, `Data`.
    case primitive(String)
    /// A generated model.
    case named(String)
    /// The generated free-form JSON value.
    case json
    /// `[Element]`.
    case array(SwiftType)
    /// `[String: Value]`.
    case dictionary(SwiftType)
    /// `Wrapped?`: an array element or dictionary value that may be `null` (a property or a
    /// parameter that may be absent is optional through its own flag instead).
    case optional(SwiftType)

    /// The type as written in Swift.
    var code: String {
        switch self {
        case .primitive(let name), .named(let name): return name
        case .json: return "JSONValue"
        case .array(let element): return "[\(element.code)]"
        case .dictionary(let value): return "[String: \(value.code)]"
        case .optional(let wrapped): return wrapped.code + "?"
        }
    }

    /// The generated models the type names, as itself or as its elements or values.
    var names: [String] {
        switch self {
        case .named(let name): return [name]
        case .array(let element): return element.names
        case .dictionary(let value), .optional(let value): return value.names
        case .primitive, .json: return []
        }
    }

    /// A member-name-like spelling, for union case names.
    var caseStem: String {
        switch self {
        case .primitive(let name), .named(let name): return Naming.memberName(name)
        case .json: return "json"
        case .array(let element): return element.caseStem + "Array"
        case .dictionary(let value): return value.caseStem + "Map"
        case .optional(let wrapped): return wrapped.caseStem + "OrNull"
        }
    }
}

/// A property of a generated struct.
struct ModelProperty: Equatable, Sendable {
    /// The name in the JSON.
    var jsonName: String
    /// The Swift name, unescaped.
    var swiftName: String
    var type: SwiftType
    /// Optional in Swift: not required, or nullable.
    var optional: Bool
    /// Required and nullable: `nil` is written as `null`, not left out.
    var encodesNull: Bool
    var doc: String?
    /// `format: byte` (base64 text): in a multipart body its part is that text, not a file.
    var isBase64Text = false
}

/// One variant of a oneOf/anyOf union.
struct UnionVariant: Equatable, Sendable {
    var caseName: String
    var type: SwiftType
    /// The discriminator values selecting this variant (empty: tried in order).
    var discriminatorValues: [String]
}

/// A generated model declaration.
enum ModelDecl: Equatable, Sendable {
    /// A struct (or, when it contains itself, a final class) with optional extra properties.
    case object(name: String, doc: String?, properties: [ModelProperty], additional: SwiftType?)
    /// A `String`- or `Int`-backed enum: (case name, raw literal) pairs.
    case enumeration(name: String, doc: String?, rawType: String, cases: [(name: String, raw: String)])
    /// A oneOf/anyOf: an enum with one case per variant.
    case union(name: String, doc: String?, variants: [UnionVariant], discriminator: String?)
    /// A `typealias` for a component that is not an object (an array, a primitive); a struct
    /// wrapping the value when the alias would name itself (see ``ModelEmitter/wrapped``).
    case alias(name: String, doc: String?, type: SwiftType)

    var name: String {
        switch self {
        case .object(let name, _, _, _), .enumeration(let name, _, _, _), .union(let name, _, _, _),
            .alias(let name, _, _):
            return name
        }
    }

    static func == (lhs: ModelDecl, rhs: ModelDecl) -> Bool { lhs.name == rhs.name }
}

/// Reachability among the generated models, for the checks that find types containing
/// themselves: whether `target` is reached from `starts` by following `next` (each name once).
enum ModelGraph {
    static func reaches(_ target: String, from starts: [String], next: (String) -> [String]) -> Bool {
        var seen: Set<String> = []
        var queue = starts
        while let name = queue.popLast() {
            if name == target { return true }
            if seen.insert(name).inserted { queue += next(name) }
        }
        return false
    }
}
