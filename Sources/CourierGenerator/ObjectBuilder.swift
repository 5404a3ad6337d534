/// Builds the struct of an object schema: its own properties merged with those of its `allOf`
/// parts (followed through `$ref`s), required lists combined, extra properties kept.
struct ObjectBuilder {
    let resolver: SchemaResolver

    private struct Collected {
        var properties: [(key: String, schema: DocumentValue, pointer: String)] = []
        var required: Set<String> = []
        var additional: (DocumentValue, String)?
        var visited: Set<String> = []
    }

    /// Declares the struct `name` for `schema` and returns its type.
    func merged(_ schema: DocumentValue, pointer: String, name: String) throws(GeneratorError) -> SwiftType {
        var collected = Collected()
        try collect(schema, pointer: pointer, into: &collected)
        // The extra members' property takes its name first; a declared one by that name gets a suffix.
        var used: Set<String> = collected.additional == nil ? [] : ["additionalProperties"]
        var properties: [ModelProperty] = []
        var seen: Set<String> = []
        for (key, propertySchema, propertyPointer) in collected.properties where seen.insert(key).inserted {
            let swiftName = Naming.unique(Naming.memberName(key), in: &used)
            let (type, nullable) = try resolver.resolve(
                propertySchema, pointer: propertyPointer, name: name + Naming.typeName(key))
            // A write-only member is required in requests only (OpenAPI 3): responses leave it out,
            // so it is optional, or decoding every response would fail.
            let writeOnly = propertySchema["writeOnly"]?.boolValue == true
            let required = collected.required.contains(key) && !writeOnly
            var doc = SchemaResolver.doc(propertySchema)
            if writeOnly {
                doc = (doc.map { $0 + " " } ?? "") + "Write-only: sent in requests, absent from responses."
            }
            let base64 = try resolver.isBase64Text(propertySchema, pointer: propertyPointer)
            properties.append(
                ModelProperty(
                    jsonName: key, swiftName: swiftName, type: type, optional: nullable || !required,
                    encodesNull: nullable && required, doc: doc, isBase64Text: base64))
        }
        var additional: SwiftType?
        if let (extra, extraPointer) = collected.additional {
            if extra.boolValue == true || (extra.isObject && extra.members.isEmpty) {
                additional = .json
            } else if extra.isObject {
                let (type, nullable) = try resolver.resolve(extra, pointer: extraPointer, name: name + "Value")
                additional = nullable ? .json : type
            }
        }
        resolver.declare(
            .object(name: name, doc: SchemaResolver.doc(schema), properties: properties, additional: additional))
        return .named(name)
    }

    /// Adds `schema`'s properties (and its `allOf` parts', recursively). `referrer` is where the
    /// `$ref` that led here is, for errors: the place to fix is there.
    private func collect(
        _ schema: DocumentValue, pointer: String, referrer: String? = nil, into collected: inout Collected
    )
        throws(GeneratorError)
    {
        if let reference = schema["$ref"]?.stringValue {
            guard collected.visited.insert(reference).inserted else { return }
            try collect(
                try resolver.dereference(reference, at: pointer), pointer: reference, referrer: referrer ?? pointer,
                into: &collected)
            return
        }
        for (index, part) in (schema["allOf"]?.elements ?? []).enumerated() {
            try collect(
                part, pointer: JSONPointer.appending(JSONPointer.appending(pointer, "allOf"), String(index)),
                referrer: referrer, into: &collected)
        }
        for variantKeyword in ["oneOf", "anyOf"] where schema[variantKeyword] != nil && schema["properties"] == nil {
            let union = JSONPointer.appending(pointer, variantKeyword)
            throw GeneratorError(
                referrer ?? union,
                (referrer == nil ? "" : "the allOf part \(union) is a union: ")
                    + "oneOf/anyOf inside allOf is not supported, as an object cannot be merged with a union "
                    + "(use the union alone, or list the properties in the object)")
        }
        let propertiesPointer = JSONPointer.appending(pointer, "properties")
        for (key, property) in schema["properties"]?.members ?? [] {
            collected.properties.append((key, property, JSONPointer.appending(propertiesPointer, key)))
        }
        for required in schema["required"]?.elements ?? [] {
            if let key = required.stringValue { collected.required.insert(key) }
        }
        if let extra = schema["additionalProperties"], extra != .bool(false) {
            collected.additional = (extra, JSONPointer.appending(pointer, "additionalProperties"))
        }
    }
}
