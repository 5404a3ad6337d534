/// Turns schemas into Swift types, declaring a model for every component schema and for every
/// inline object, enum or union it meets (named after where it was met).
final class SchemaResolver {
    let document: DocumentValue
    /// The declarations made so far, by name.
    private(set) var declarations: [String: ModelDecl] = [:]
    /// The Swift name of each component schema, by its pointer (`#/components/schemas/Pet`).
    private(set) var componentNames: [String: String] = [:]
    private var usedTypeNames: Set<String>
    /// Components being declared (their names are valid before their declarations exist).
    private var pending: Set<String> = []
    private var depth = 0
    /// Whether any model uses `Date` (the coders then carry an ISO 8601 strategy).
    private(set) var usesDates = false

    init(document: DocumentValue, reservedNames: Set<String>) throws(GeneratorError) {
        self.document = document
        usedTypeNames = reservedNames
        for (key, _) in document["components"]?["schemas"]?.members ?? [] {
            let pointer = JSONPointer.appending("#/components/schemas", key)
            componentNames[pointer] = Naming.unique(Naming.typeName(key), in: &usedTypeNames)
        }
    }

    /// Declares every component schema, then refuses the cycles no Swift type can express
    /// (SchemaCycles.swift).
    func declareComponents() throws(GeneratorError) {
        let components = document["components"]?["schemas"]?.members ?? []
        for (key, schema) in components {
            let pointer = JSONPointer.appending("#/components/schemas", key)
            try declareComponent(pointer, schema: schema)
        }
        try refuseCycles(components)
    }

    private func declareComponent(_ pointer: String, schema: DocumentValue) throws(GeneratorError) {
        guard let name = componentNames[pointer], declarations[name] == nil, !pending.contains(name) else { return }
        pending.insert(name)
        defer { pending.remove(name) }
        let (type, _) = try resolve(schema, pointer: pointer, name: name, declareAs: name)
        if declarations[name] == nil {
            declarations[name] = .alias(name: name, doc: Self.doc(schema), type: type)
        }
    }

    /// A name for an inline type, unique in the module.
    func freshName(_ base: String) -> String {
        Naming.unique(Naming.typeName(base), in: &usedTypeNames)
    }

    /// The value a `$ref` points at, with its pointer; external references are refused.
    func dereference(_ reference: String, at pointer: String) throws(GeneratorError) -> DocumentValue {
        guard let tokens = JSONPointer.tokens(reference) else {
            throw GeneratorError(pointer, "external reference \(reference) is not supported (only #/... references)")
        }
        guard let value = document.value(at: tokens) else {
            throw GeneratorError(pointer, "reference \(reference) points at nothing")
        }
        return value
    }

    /// Follows `$ref`s (of parameters, bodies, responses) to the value itself.
    func followed(_ value: DocumentValue, at pointer: String) throws(GeneratorError) -> DocumentValue {
        var current = value
        var hops = 0
        while let reference = current["$ref"]?.stringValue {
            hops += 1
            guard hops < 32 else { throw GeneratorError(pointer, "a cycle of references") }
            current = try dereference(reference, at: pointer)
        }
        return current
    }

    /// Whether `schema` (after its `$ref`s) is base64 text (``isBase64(_:)``), or an array of it
    /// (one level: a multipart part is a value or a list of values).
    func isBase64Text(_ schema: DocumentValue, pointer: String) throws(GeneratorError) -> Bool {
        var schema = try followed(schema, at: pointer)
        if typeList(schema).contains("array"), let items = schema["items"] {
            schema = try followed(items, at: JSONPointer.appending(pointer, "items"))
        }
        return Self.isBase64(schema)
    }

    /// Base64 text: `format: byte` (OpenAPI 3.0) or `contentEncoding: base64` (3.1).
    static func isBase64(_ schema: DocumentValue) -> Bool {
        schema["format"]?.stringValue == "byte" || schema["contentEncoding"]?.stringValue == "base64"
    }

    /// The Swift type of `schema` and whether it admits `null`. `name` names an inline model;
    /// `declareAs` is set when the schema is a component being declared under that name.
    func resolve(
        _ schema: DocumentValue, pointer: String, name: String, declareAs: String? = nil
    )
        throws(GeneratorError) -> (SwiftType, nullable: Bool)
    {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw GeneratorError(pointer, "schemas nested deeper than 64 levels") }
        if case .bool = schema { return (.json, true) }
        guard schema.isObject else { throw GeneratorError(pointer, "a schema must be an object") }
        let nullable = schema["nullable"]?.boolValue == true || typeList(schema).contains("null")
        if let reference = schema["$ref"]?.stringValue {
            let (type, target) = try referenced(reference, at: pointer)
            return (type, nullable || target)
        }
        var typeName: String { declareAs ?? freshName(name) }
        if let values = schema["enum"]?.elements, !values.isEmpty {
            return (
                try enumeration(values, schema: schema, pointer: pointer, name: typeName),
                nullable || values.contains(.null)
            )
        }
        if let const = schema["const"] {
            return (try enumeration([const], schema: schema, pointer: pointer, name: typeName), nullable)
        }
        for keyword in ["oneOf", "anyOf"] {
            if let variants = schema[keyword]?.elements, !variants.isEmpty {
                let (type, variantNullable) = try union(
                    variants, schema: schema, pointer: JSONPointer.appending(pointer, keyword), name: typeName,
                    named: declareAs != nil)
                return (type, nullable || variantNullable)
            }
        }
        if let parts = schema["allOf"]?.elements, !parts.isEmpty {
            let meaningful = parts.filter { !Self.isAnnotationOnly($0) }
            if meaningful.count == 1, schema["properties"] == nil {
                let (type, inner) = try resolve(
                    meaningful[0], pointer: JSONPointer.appending(pointer, "allOf"), name: name, declareAs: declareAs)
                return (type, nullable || inner)
            }
            return (try ObjectBuilder(resolver: self).merged(schema, pointer: pointer, name: typeName), nullable)
        }
        let types = typeList(schema).filter { $0 != "null" }
        if types.count > 1 { return (.json, nullable) }
        switch types.first {
        case "string":
            if Self.isBase64(schema) { return (.primitive("Data"), nullable) }
            switch schema["format"]?.stringValue {
            case "date-time":
                usesDates = true
                return (.primitive("Date"), nullable)
            // Raw bytes are `Data` too; in JSON they go as base64, the coders' default for `Data`.
            case "binary": return (.primitive("Data"), nullable)
            default: return (.primitive("String"), nullable)
            }
        case "integer": return (.primitive("Int"), nullable)
        case "number": return (.primitive("Double"), nullable)
        case "boolean": return (.primitive("Bool"), nullable)
        case "array":
            guard let items = schema["items"] else { return (.array(.json), nullable) }
            let (element, elementNullable) = try resolve(
                items, pointer: JSONPointer.appending(pointer, "items"), name: (declareAs ?? name) + "Item")
            return (.array(Self.admittingNull(element, elementNullable)), nullable)
        case "object", nil:
            if schema["properties"] != nil {
                return (try ObjectBuilder(resolver: self).merged(schema, pointer: pointer, name: typeName), nullable)
            }
            if let additional = schema["additionalProperties"], additional.isObject {
                let (value, valueNullable) = try resolve(
                    additional, pointer: JSONPointer.appending(pointer, "additionalProperties"),
                    name: (declareAs ?? name) + "Value")
                return (.dictionary(Self.admittingNull(value, valueNullable)), nullable)
            }
            return (.json, nullable || types.isEmpty)
        case let other?:
            throw GeneratorError(JSONPointer.appending(pointer, "type"), "unknown schema type \"\(other)\"")
        }
    }

    /// An element or value type that admits `null` when `nullable` (`JSONValue` has `.null` already).
    private static func admittingNull(_ type: SwiftType, _ nullable: Bool) -> SwiftType {
        nullable && type != .json ? .optional(type) : type
    }

    /// A `$ref` to a schema: the component's name, or an inline resolution of another place; and
    /// whether the schema there admits `null` (a nullable component makes what refers to it optional).
    func referenced(_ reference: String, at pointer: String) throws(GeneratorError) -> (SwiftType, nullable: Bool) {
        let target = try dereference(reference, at: pointer)
        if let name = componentNames[reference] {
            try declareComponent(reference, schema: target)
            return (.named(name), admitsNull(target))
        }
        let last = JSONPointer.tokens(reference)?.last ?? "Value"
        return try resolve(target, pointer: reference, name: last)
    }

    /// Whether a schema says that `null` is a value: `nullable`, a `null` type, or `null` among its
    /// `enum` values, itself or through the `$ref`s it is an alias of.
    func admitsNull(_ schema: DocumentValue, hops: Int = 0) -> Bool {
        if schema["nullable"]?.boolValue == true || typeList(schema).contains("null")
            || schema["enum"]?.elements.contains(.null) == true
        {
            return true
        }
        guard hops < 32, let reference = schema["$ref"]?.stringValue,
            let target = try? dereference(reference, at: reference)
        else { return false }
        return admitsNull(target, hops: hops + 1)
    }

    func declare(_ decl: ModelDecl) { declarations[decl.name] = decl }

    /// `type` as a list (3.1 allows `["string", "null"]`).
    func typeList(_ schema: DocumentValue) -> [String] {
        if let single = schema["type"]?.stringValue { return [single] }
        return schema["type"]?.elements.compactMap(\.stringValue) ?? []
    }

    /// A schema with nothing but annotations (`nullable`, `description`...): no type of its own.
    static func isAnnotationOnly(_ schema: DocumentValue) -> Bool {
        let annotations: Set<String> = [
            "nullable", "description", "title", "readOnly", "writeOnly", "example", "deprecated"
        ]
        return schema.members.allSatisfy { annotations.contains($0.key) }
    }

    static func doc(_ schema: DocumentValue) -> String? {
        (schema["description"]?.stringValue ?? schema["title"]?.stringValue).map(Naming.docLine)
    }

    private func enumeration(
        _ values: [DocumentValue], schema: DocumentValue, pointer: String, name: String
    )
        throws(GeneratorError) -> SwiftType
    {
        let present = values.filter { $0 != .null }
        guard !present.isEmpty else { return .json }
        // `rawValue` and `allCases` are members of every raw-value, case-iterable enum, and
        // `undocumented` is the generated enum's case for values the document does not list.
        var used: Set<String> = ["rawValue", "allCases", "init", "undocumented"]
        if present.allSatisfy({ $0.stringValue != nil }) {
            var seen = Set<String>()
            let cases = present.compactMap(\.stringValue).filter { seen.insert($0).inserted }.map {
                (name: Naming.unique(Naming.memberName($0, fallback: "empty"), in: &used), raw: Naming.literal($0))
            }
            declare(.enumeration(name: name, doc: Self.doc(schema), rawType: "String", cases: cases))
            return .named(name)
        }
        if present.allSatisfy({ if case .integer = $0 { return true } else { return false } }) {
            var seen = Set<Int>()
            let cases = present.compactMap { value -> Int? in
                if case .integer(let number) = value { return number } else { return nil }
            }.filter { seen.insert($0).inserted }.map {
                (name: Naming.unique($0 < 0 ? "minus\($0.magnitude)" : "value\($0)", in: &used), raw: String($0))
            }
            declare(.enumeration(name: name, doc: Self.doc(schema), rawType: "Int", cases: cases))
            return .named(name)
        }
        if present.allSatisfy({ $0.boolValue != nil }) { return .primitive("Bool") }
        return .json
    }

    private func union(
        _ variants: [DocumentValue], schema: DocumentValue, pointer: String, name: String, named: Bool
    ) throws(GeneratorError) -> (SwiftType, Bool) {
        var nullable = false
        var resolved: [(SwiftType, DocumentValue)] = []
        for (index, variant) in variants.enumerated() {
            if typeList(variant) == ["null"] {
                nullable = true
                continue
            }
            let (type, variantNullable) = try resolve(
                variant, pointer: JSONPointer.appending(pointer, String(index)), name: name + "Option\(index + 1)")
            nullable = nullable || variantNullable
            if !resolved.contains(where: { $0.0 == type }) { resolved.append((type, variant)) }
        }
        if resolved.count == 1, !named, schema["discriminator"] == nil { return (resolved[0].0, nullable) }
        let discriminator = schema["discriminator"]?["propertyName"]?.stringValue
        var mapping: [String: [String]] = [:]
        for (value, target) in schema["discriminator"]?["mapping"]?.members ?? [] {
            guard let target = target.stringValue else { continue }
            let reference = target.hasPrefix("#") ? target : "#/components/schemas/" + target
            mapping[reference, default: []].append(value)
        }
        var used: Set<String> = []
        let cases = resolved.map { type, variant -> UnionVariant in
            var values: [String] = []
            if discriminator != nil, let reference = variant["$ref"]?.stringValue {
                values = mapping[reference] ?? [JSONPointer.tokens(reference)?.last ?? ""]
            }
            return UnionVariant(
                caseName: Naming.unique(type.caseStem, in: &used), type: type, discriminatorValues: values.sorted())
        }
        declare(.union(name: name, doc: Self.doc(schema), variants: cases, discriminator: discriminator))
        return (.named(name), nullable)
    }
}

extension SchemaResolver {
    /// Whether `name` is a generated `String`- or `Int`-backed enum (sent as its raw value).
    func isRawEnum(_ name: String) -> Bool {
        if case .enumeration = declarations[name] { return true }
        if case .alias(_, _, .named(let target)) = declarations[name] { return isRawEnum(target) }
        return false
    }
}
