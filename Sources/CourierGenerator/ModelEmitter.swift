/// Writes the Swift source of the models: structs (final classes when they contain themselves),
/// raw-value enums, unions and type aliases, each `Codable`, `Sendable` and `Equatable`.
struct ModelEmitter {
    let declarations: [String: ModelDecl]
    /// Structs that contain themselves without an array or dictionary between: emitted as classes.
    let recursive: Set<String>
    /// Aliases that name themselves through aliases, arrays and dictionaries (`Nested = [Nested]`,
    /// `Tree = [String: Tree]`). Swift refuses such a `typealias`, so each is emitted as a struct
    /// holding its `value` and coded as that value alone. (An alias that is nothing but a chain of
    /// names back to itself never gets here: ``SchemaResolver/declareComponents()`` refuses it.)
    let wrapped: Set<String>
    /// The module's coding enum, which holds the flag a union sets while it tries its variants.
    let coding: String
    /// The protocol every enum adopts (see ``SupportEmitter``).
    let openEnum: String

    init(declarations: [String: ModelDecl], names: ModuleNames) {
        self.declarations = declarations
        coding = names.coding
        openEnum = names.openEnum
        var recursive: Set<String> = []
        var wrapped: Set<String> = []
        for name in declarations.keys.sorted() {
            if Self.containsItself(name, in: declarations) { recursive.insert(name) }
            if Self.aliasNamesItself(name, in: declarations) { wrapped.insert(name) }
        }
        self.recursive = recursive
        self.wrapped = wrapped
    }

    /// Whether `alias` is an alias whose type leads back to it through other aliases' types.
    private static func aliasNamesItself(_ alias: String, in declarations: [String: ModelDecl]) -> Bool {
        guard case .alias(_, _, let type)? = declarations[alias] else { return false }
        return ModelGraph.reaches(alias, from: type.names) { name in
            if case .alias(_, _, let aliased)? = declarations[name] { return aliased.names }
            return []
        }
    }

    /// Whether `name` is reachable from itself through properties held directly (by value).
    private static func containsItself(_ name: String, in declarations: [String: ModelDecl]) -> Bool {
        ModelGraph.reaches(name, from: directNames(of: name, in: declarations)) {
            directNames(of: $0, in: declarations)
        }
    }

    private static func directNames(of name: String, in declarations: [String: ModelDecl]) -> [String] {
        switch declarations[name] {
        case .object(_, _, let properties, _)?:
            return properties.compactMap { if case .named(let target) = $0.type { return target } else { return nil } }
        case .alias(_, _, .named(let target))?: return [target]
        default: return []  // unions are indirect enums; arrays and dictionaries hold their elements indirectly
        }
    }

    func emit(_ decl: ModelDecl) -> [String] {
        switch decl {
        case .object(let name, let doc, let properties, let additional):
            return object(name, doc: doc, properties: properties, additional: additional)
        case .enumeration(let name, let doc, let rawType, let cases):
            return Self.openEnumeration(name, doc: doc, rawType: rawType, cases: cases, adopting: openEnum)
        case .union(let name, let doc, let variants, let discriminator):
            return UnionEmitter(
                name: name, doc: doc, variants: variants, discriminator: discriminator, coding: coding
            ).emit()
        case .alias(let name, let doc, let type) where wrapped.contains(name):
            return Self.wrapper(name, doc: doc, type: type)
        case .alias(let name, let doc, let type):
            return Self.docLines(doc ?? "\(name) in the document.", indent: "")
                + ["public typealias \(name) = \(type.code)"]
        }
    }

    /// An enum of the document's values plus `undocumented(_:)` for any other: a server that adds
    /// a value later must not make every response carrying it fail to decode. The protocol it
    /// adopts (``ModuleNames/openEnum``) codes it as its raw value and compares it by that value.
    private static func openEnumeration(
        _ name: String, doc: String?, rawType: String, cases: [(name: String, raw: String)], adopting openEnum: String
    ) -> [String] {
        var out = docLines(
            (doc ?? "The values of \(name).")
                + " A value the document does not list is `undocumented` (see ``\(openEnum)``).",
            indent: "")
        out.append("public enum \(name): \(openEnum) {")
        for entry in cases {
            out.append("    /// \(entry.raw)")
            out.append("    case \(Naming.escaped(entry.name))")
        }
        out.append("    /// A value the document does not list, as it was sent.")
        out.append("    case undocumented(\(rawType))")
        out.append("")
        out.append("    /// The values the document lists.")
        out.append("    public static let allCases: [\(name)] = [")
        out += cases.map { "        .\(Naming.escaped($0.name))," }
        out.append("    ]")
        out.append("")
        out.append("    /// The case for `rawValue`: a listed value, else `undocumented(rawValue)`.")
        out.append("    public init(rawValue: \(rawType)) {")
        out.append("        switch rawValue {")
        out += cases.map { "        case \($0.raw): self = .\(Naming.escaped($0.name))" }
        out.append("        default: self = .undocumented(rawValue)")
        out.append("        }")
        out.append("    }")
        out.append("")
        out.append("    /// The value as sent.")
        out.append("    public var rawValue: \(rawType) {")
        out.append("        switch self {")
        out += cases.map { "        case .\(Naming.escaped($0.name)): return \($0.raw)" }
        out.append("        case .undocumented(let value): return value")
        out.append("        }")
        out.append("    }")
        out.append("}")
        return out
    }

    /// A struct holding a value of `type`, coded as the value alone (see ``wrapped``).
    private static func wrapper(_ name: String, doc: String?, type: SwiftType) -> [String] {
        docLines(doc ?? "\(name) in the document.", indent: "") + [
            "public struct \(name): Codable, Sendable, Equatable {",
            "    /// The value. (A type alias cannot name itself, so \(name) wraps it; the JSON has no wrapper.)",
            "    public var value: \(type.code)",
            "",
            "    /// Wraps `value`.",
            "    public init(_ value: \(type.code)) {",
            "        self.value = value",
            "    }",
            "",
            "    /// Decodes the value itself.",
            "    public init(from decoder: any Decoder) throws {",
            "        value = try decoder.singleValueContainer().decode(\(type.code).self)",
            "    }",
            "",
            "    /// Encodes the value itself.",
            "    public func encode(to encoder: any Encoder) throws {",
            "        var container = encoder.singleValueContainer()",
            "        try container.encode(value)",
            "    }",
            "}"
        ]
    }

    private func object(_ name: String, doc: String?, properties: [ModelProperty], additional: SwiftType?) -> [String] {
        let isClass = recursive.contains(name)
        var out = Self.docLines(doc ?? "\(name) in the document.", indent: "")
        out.append("public \(isClass ? "final class" : "struct") \(name): Codable, Sendable, Equatable {")
        let binding = isClass ? "let" : "var"
        for property in properties {
            out += Self.docLines(property.doc ?? "`\(property.jsonName)`.", indent: "    ")
            out.append("    public \(binding) \(Naming.escaped(property.swiftName)): \(typeCode(property))")
        }
        if let additional {
            out.append("    /// The members not declared above (`additionalProperties`).")
            out.append("    public \(binding) additionalProperties: [String: \(additional.code)]")
        }
        out.append("")
        out.append("    /// Creates a value from its properties.")
        var arguments = properties.map {
            "\(Naming.escaped($0.swiftName)): \(typeCode($0))\($0.optional ? " = nil" : "")"
        }
        if let additional { arguments.append("additionalProperties: [String: \(additional.code)] = [:]") }
        out.append("    public init(\(arguments.joined(separator: ", "))) {")
        for property in properties {
            out.append("        self.\(Naming.escaped(property.swiftName)) = \(Naming.escaped(property.swiftName))")
        }
        if additional != nil { out.append("        self.additionalProperties = additionalProperties") }
        out.append("    }")
        let needsKeys =
            additional != nil
            || properties.contains {
                $0.swiftName != $0.jsonName || Naming.reserved.contains($0.swiftName)
            }
        if needsKeys, !properties.isEmpty {
            out.append("")
            out.append("    enum CodingKeys: String, CodingKey {")
            for property in properties {
                let raw = property.swiftName == property.jsonName ? "" : " = \(Naming.literal(property.jsonName))"
                out.append("        case \(Naming.escaped(property.swiftName))\(raw)")
            }
            out.append("    }")
        }
        if let additional {
            out += ExtraPropertiesEmitter(properties: properties, additional: additional, isClass: isClass).emit()
        } else if properties.contains(where: \.encodesNull) {
            // The synthesized encoder leaves a `nil` out; a required member must be there, as `null`.
            out.append("")
            out.append("    /// Encodes every member; a required one that is `nil` as `null`.")
            out.append("    public func encode(to encoder: any Encoder) throws {")
            out.append("        var container = encoder.container(keyedBy: CodingKeys.self)")
            out += properties.map { "        " + Self.encodeLine($0) }
            out.append("    }")
        }
        if isClass {
            out.append("")
            out.append("    /// Equal when every property is.")
            out.append("    public static func == (lhs: \(name), rhs: \(name)) -> Bool {")
            var comparisons = properties.map {
                "lhs.\(Naming.escaped($0.swiftName)) == rhs.\(Naming.escaped($0.swiftName))"
            }
            if additional != nil { comparisons.append("lhs.additionalProperties == rhs.additionalProperties") }
            out.append(
                "        lhs === rhs || (\(comparisons.isEmpty ? "true" : comparisons.joined(separator: " && ")))")
            out.append("    }")
        }
        out.append("}")
        return out
    }

    /// The statement that encodes `property`: left out when it is `nil`, unless it is required.
    static func encodeLine(_ property: ModelProperty) -> String {
        let method = property.optional && !property.encodesNull ? "encodeIfPresent" : "encode"
        let member = Naming.escaped(property.swiftName)
        return "try container.\(method)(\(member), forKey: .\(member))"
    }

    private func typeCode(_ property: ModelProperty) -> String {
        property.type.code + (property.optional ? "?" : "")
    }

    static func docLines(_ text: String, indent: String) -> [String] {
        ["\(indent)/// \(Naming.docLine(text))"]
    }
}

/// The coding of a struct that keeps undeclared members (`additionalProperties`).
private struct ExtraPropertiesEmitter {
    let properties: [ModelProperty]
    let additional: SwiftType
    let isClass: Bool

    func emit() -> [String] {
        let known = properties.map { Naming.literal($0.jsonName) }.joined(separator: ", ")
        var out = ["", "    private static let declaredKeys: Set<String> = [\(known)]", ""]
        out.append("    /// Decodes the declared members, then keeps every other one.")
        out.append("    public\(isClass ? " required" : "") init(from decoder: any Decoder) throws {")
        if !properties.isEmpty { out.append("        let container = try decoder.container(keyedBy: CodingKeys.self)") }
        for property in properties {
            let method = property.optional ? "decodeIfPresent" : "decode"
            let member = Naming.escaped(property.swiftName)
            out.append(
                "        self.\(member) = try container.\(method)(\(property.type.code).self, forKey: .\(member))")
        }
        out.append("        let extra = try decoder.container(keyedBy: GeneratedCodingKey.self)")
        out.append("        var additional: [String: \(additional.code)] = [:]")
        out.append("        for key in extra.allKeys where !Self.declaredKeys.contains(key.stringValue) {")
        out.append("            additional[key.stringValue] = try extra.decode(\(additional.code).self, forKey: key)")
        out.append("        }")
        out.append("        self.additionalProperties = additional")
        out.append("    }")
        out.append("")
        out.append("    /// Encodes the declared members, then the others in key order.")
        out.append("    public func encode(to encoder: any Encoder) throws {")
        if !properties.isEmpty { out.append("        var container = encoder.container(keyedBy: CodingKeys.self)") }
        out += properties.map { "        " + ModelEmitter.encodeLine($0) }
        out.append("        var extra = encoder.container(keyedBy: GeneratedCodingKey.self)")
        out.append(
            "        for (key, value) in additionalProperties.sorted(by: { $0.key < $1.key })"
                + " where !Self.declaredKeys.contains(key) {")
        out.append("            try extra.encode(value, forKey: GeneratedCodingKey(key))")
        out.append("        }")
        out.append("    }")
        return out
    }
}

/// A oneOf/anyOf as an indirect enum: chosen by the discriminator when there is one, else the
/// first variant that decodes.
private struct UnionEmitter {
    let name: String
    let doc: String?
    let variants: [UnionVariant]
    let discriminator: String?
    let coding: String

    func emit() -> [String] {
        var out = ModelEmitter.docLines(doc ?? "One of several shapes.", indent: "")
        out.append("public indirect enum \(name): Codable, Sendable, Equatable {")
        for variant in variants {
            out.append("    /// A `\(variant.type.code)`.")
            out.append("    case \(Naming.escaped(variant.caseName))(\(variant.type.code))")
        }
        out.append("")
        out.append(
            "    /// Decodes the variant the \(discriminator == nil ? "body matches first" : "discriminator names").")
        out.append("    public init(from decoder: any Decoder) throws {")
        let keyed = variants.filter { !$0.discriminatorValues.isEmpty }
        if let discriminator, !keyed.isEmpty {
            out.append("        let container = try decoder.container(keyedBy: GeneratedCodingKey.self)")
            out.append(
                "        let kind = try container.decodeIfPresent(String.self, forKey: GeneratedCodingKey("
                    + "\(Naming.literal(discriminator))))")
            out.append("        switch kind {")
            for variant in keyed {
                let values = variant.discriminatorValues.map(Naming.literal).joined(separator: ", ")
                out.append("        case \(values):")
                out.append(
                    "            self = .\(Naming.escaped(variant.caseName))(try \(variant.type.code)(from: decoder))")
                out.append("            return")
            }
            out.append("        default: break")
            out.append("        }")
        }
        let tried = variants.filter { $0.discriminatorValues.isEmpty || discriminator == nil }
        if !tried.isEmpty {
            // First with the document's enum values only, so that a variant is chosen by a value
            // it lists; then, if none matches, as the values come (an enclosing union's first
            // round stays strict).
            out.append("        for listedOnly in \(coding).listedValuesOnly ? [true] : [true, false] {")
            for variant in tried {
                out.append(
                    "            if let value = try? \(coding).$listedValuesOnly.withValue(listedOnly, operation: {")
                out.append("                try \(variant.type.code)(from: decoder)")
                out.append("            }) {")
                out.append("                self = .\(Naming.escaped(variant.caseName))(value)")
                out.append("                return")
                out.append("            }")
            }
            out.append("        }")
        }
        out.append("        throw DecodingError.dataCorrupted(")
        out.append(
            "            DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "
                + "\(Naming.literal("no variant of \(name) matches"))))")
        out.append("    }")
        out.append("")
        out.append("    /// Encodes the variant's value.")
        out.append("    public func encode(to encoder: any Encoder) throws {")
        out.append("        switch self {")
        for variant in variants {
            out.append("        case .\(Naming.escaped(variant.caseName))(let value): try value.encode(to: encoder)")
        }
        out.append("        }")
        out.append("    }")
        out.append("}")
        return out
    }
}
