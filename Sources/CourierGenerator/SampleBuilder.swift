/// A response's sample data: the document's example for the media type, else one built from the
/// schema (examples, defaults, first enum values, one element per array) that the generated model
/// decodes.
struct SampleBuilder {
    let resolver: SchemaResolver

    func sample(media: DocumentValue, pointer: String) throws(GeneratorError) -> String? {
        if let example = media["example"] { return example.jsonText() }
        if let first = media["examples"]?.members.first {
            let example = try resolver.followed(first.value, at: JSONPointer.appending(pointer, "examples"))
            if let value = example["value"] { return value.jsonText() }
        }
        guard let schema = media["schema"] else { return nil }
        var stack: Set<String> = []
        return try build(schema, pointer: pointer, stack: &stack, depth: 0).jsonText()
    }

    private func build(
        _ schema: DocumentValue, pointer: String, stack: inout Set<String>, depth: Int
    )
        throws(GeneratorError) -> DocumentValue
    {
        guard depth < 12, schema.isObject else { return .null }
        if let reference = schema["$ref"]?.stringValue {
            guard stack.insert(reference).inserted else { return .null }
            defer { stack.remove(reference) }
            return try build(
                try resolver.dereference(reference, at: pointer), pointer: reference, stack: &stack,
                depth: depth + 1)
        }
        if let example = schema["example"] { return example }
        if let first = schema["examples"]?.elements.first { return first }
        if let value = schema["default"], value != .null { return value }
        if let const = schema["const"] { return const }
        if let first = schema["enum"]?.elements.first(where: { $0 != .null }) { return first }
        for keyword in ["oneOf", "anyOf"] {
            guard let variants = schema[keyword]?.elements else { continue }
            guard let variant = variants.first(where: { resolver.typeList($0) != ["null"] }) else { return .null }
            var value = try build(variant, pointer: pointer, stack: &stack, depth: depth + 1)
            if let property = schema["discriminator"]?["propertyName"]?.stringValue,
                case .object(var members) = value
            {
                members.removeAll { $0.key == property }
                members.append((key: property, value: .string(discriminatorValue(of: variant, in: schema))))
                value = .object(members)
            }
            return value
        }
        if let parts = schema["allOf"]?.elements {
            var members: [(key: String, value: DocumentValue)] = []
            for part in parts {
                let value = try build(part, pointer: pointer, stack: &stack, depth: depth + 1)
                for member in value.members where !members.contains(where: { $0.key == member.key }) {
                    members.append(member)
                }
            }
            for member in try build(schema.removingAllOf, pointer: pointer, stack: &stack, depth: depth + 1).members
            where !members.contains(where: { $0.key == member.key }) {
                members.append(member)
            }
            return .object(members)
        }
        switch resolver.typeList(schema).first(where: { $0 != "null" }) {
        case "string":
            if SchemaResolver.isBase64(schema) { return .string("") }
            switch schema["format"]?.stringValue {
            case "date-time": return .string("2024-01-01T00:00:00Z")
            case "date": return .string("2024-01-01")
            case "binary": return .string("")
            default: return .string("string")
            }
        case "integer": return .integer(0)
        case "number": return .number(0)
        case "boolean": return .bool(false)
        case "array":
            guard let items = schema["items"] else { return .array([]) }
            let element = try build(items, pointer: pointer, stack: &stack, depth: depth + 1)
            return .array(element == .null ? [] : [element])
        default:
            let required = Set(schema["required"]?.elements.compactMap(\.stringValue) ?? [])
            var members: [(key: String, value: DocumentValue)] = []
            // A write-only member is never in a response.
            for (key, property) in schema["properties"]?.members ?? []
            where property["writeOnly"]?.boolValue != true && (required.contains(key) || depth < 3) {
                let value = try build(property, pointer: pointer, stack: &stack, depth: depth + 1)
                if value != .null || required.contains(key) { members.append((key: key, value: value)) }
            }
            return .object(members)
        }
    }

    private func discriminatorValue(of variant: DocumentValue, in schema: DocumentValue) -> String {
        guard let reference = variant["$ref"]?.stringValue else { return "" }
        for (value, target) in schema["discriminator"]?["mapping"]?.members ?? [] {
            if target.stringValue == reference || "#/components/schemas/" + (target.stringValue ?? "") == reference {
                return value
            }
        }
        return JSONPointer.tokens(reference)?.last ?? ""
    }
}

extension DocumentValue {
    fileprivate var removingAllOf: DocumentValue { .object(members.filter { $0.key != "allOf" }) }
}
