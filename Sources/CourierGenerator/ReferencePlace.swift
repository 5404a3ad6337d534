/// What a place in an OpenAPI (or Swagger 2.0) document is, as far as `$ref`s are concerned: which `components`
/// section a reference standing there points into, and the places of the members below it.
/// ``ReferenceBundler`` walks a document with it.
enum ReferencePlace {
    case root, components, pathItem, operation, parameter, header, requestBody, response, mediaType
    case encoding, schema, example, link, callback, securityScheme
    /// Data (examples, defaults, extensions): its `$ref` members are not references.
    case data
    /// Anything else: references are followed and their targets put in place.
    case other

    /// The `components` section a reference standing at this place goes into (nil: in place).
    var section: String? {
        switch self {
        case .schema: return "schemas"
        case .parameter: return "parameters"
        case .header: return "headers"
        case .requestBody: return "requestBodies"
        case .response: return "responses"
        case .example: return "examples"
        case .link: return "links"
        case .callback: return "callbacks"
        case .securityScheme: return "securitySchemes"
        default: return nil
        }
    }

    /// The place of the member `key` of an object at this place; for a map of names (see
    /// ``isMapOfNames(_:)``), the place of each of its entries.
    func member(_ key: String) -> ReferencePlace {
        if key.hasPrefix("x-") { return .data }
        switch (self, key) {
        case (.root, "paths"), (.root, "webhooks"), (.callback, _), (.components, "pathItems"): return .pathItem
        case (.root, "components"): return .components
        // Swagger 2.0's sections, at the top, and a response's schema.
        case (.root, "definitions"), (.response, "schema"): return .schema
        case (.root, "parameters"): return .parameter
        case (.root, "responses"): return .response
        case (.response, "examples"): return .data
        case (.pathItem, "parameters"), (.operation, "parameters"): return .parameter
        case (.pathItem, _) where OperationCollector.methods.contains(key): return .operation
        case (.operation, "requestBody"): return .requestBody
        case (.operation, "responses"), (.components, "responses"): return .response
        case (.operation, "callbacks"), (.components, "callbacks"): return .callback
        case (.parameter, "schema"), (.header, "schema"), (.mediaType, "schema"): return .schema
        case (.parameter, "content"), (.header, "content"), (.requestBody, "content"), (.response, "content"):
            return .mediaType
        case (.parameter, "examples"), (.header, "examples"), (.mediaType, "examples"), (.components, "examples"):
            return .example
        case (.response, "headers"), (.encoding, "headers"), (.components, "headers"): return .header
        case (.response, "links"), (.components, "links"): return .link
        case (.mediaType, "encoding"): return .encoding
        case (.schema, "properties"), (.schema, "patternProperties"), (.schema, "$defs"), (.schema, "definitions"),
            (.schema, "items"), (.schema, "additionalProperties"), (.schema, "not"), (.schema, "allOf"),
            (.schema, "anyOf"), (.schema, "oneOf"), (.schema, "prefixItems"), (.schema, "contains"),
            (.schema, "if"), (.schema, "then"), (.schema, "else"), (.schema, "propertyNames"),
            (.components, "schemas"):
            return .schema
        case (.components, "parameters"): return .parameter
        case (.components, "requestBodies"): return .requestBody
        case (.components, "securitySchemes"): return .securityScheme
        case (.schema, _), (.parameter, _), (.header, _), (.mediaType, _), (.example, _), (.link, _),
            (.encoding, _), (.securityScheme, _):
            return .data
        default: return .other
        }
    }

    /// Whether the member `key` of an object here is a map of names (the properties of a
    /// schema, the responses of an operation) whose entries are each a ``member(_:)`` place.
    func isMapOfNames(_ key: String) -> Bool {
        switch (self, key) {
        case (.root, "paths"), (.root, "webhooks"), (.components, _), (.operation, "responses"),
            (.operation, "callbacks"), (.schema, "properties"), (.schema, "patternProperties"),
            (.schema, "$defs"), (.schema, "definitions"), (.parameter, "content"), (.header, "content"),
            (.requestBody, "content"), (.response, "content"), (.parameter, "examples"), (.header, "examples"),
            (.mediaType, "examples"), (.response, "headers"), (.encoding, "headers"), (.response, "links"),
            (.mediaType, "encoding"), (.root, "definitions"), (.root, "parameters"), (.root, "responses"):
            return true
        default: return false
        }
    }
}
