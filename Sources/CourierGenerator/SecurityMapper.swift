/// Maps the document's security schemes to the router's `authorization` (Courier's
/// ``AuthorizationType`` spelled as Swift source).
struct SecurityMapper {
    let resolver: SchemaResolver

    /// The `authorization` expression for `operation`: its own `security`, else the document's.
    func authorization(for operation: DocumentValue, pointer: String) throws(GeneratorError) -> String {
        let requirements: [DocumentValue]
        let at: String
        if let own = operation["security"] {
            (requirements, at) = (own.elements, JSONPointer.appending(pointer, "security"))
        } else {
            (requirements, at) = (resolver.document["security"]?.elements ?? [], "#/security")
        }
        // An empty requirement ({}) first means the credential is optional: none is sent.
        guard let first = requirements.first, let name = first.members.first?.key else { return ".none" }
        let schemePointer = JSONPointer.appending("#/components/securitySchemes", name)
        guard let raw = resolver.document["components"]?["securitySchemes"]?[name] else {
            throw GeneratorError(at, "security scheme \(name) is not declared in #/components/securitySchemes")
        }
        let scheme = try resolver.followed(raw, at: schemePointer)
        switch scheme["type"]?.stringValue {
        case "http":
            switch scheme["scheme"]?.stringValue?.lowercased() {
            case "bearer": return ".bearer"
            case "basic": return ".basic"
            case let other?:
                let schemeName = other.prefix(1).uppercased() + other.dropFirst()
                return ".custom(header: \"Authorization\", scheme: \(Naming.literal(schemeName)))"
            case nil: throw GeneratorError(schemePointer, "an http security scheme needs a \"scheme\"")
            }
        case "apiKey":
            guard let name = scheme["name"]?.stringValue else {
                throw GeneratorError(schemePointer, "an apiKey security scheme needs a \"name\"")
            }
            switch scheme["in"]?.stringValue {
            case "header": return ".custom(header: \(Naming.literal(name)))"
            case "query": return ".query(name: \(Naming.literal(name)))"
            case "cookie": return ".cookie(name: \(Naming.literal(name)))"
            default:
                throw GeneratorError(
                    JSONPointer.appending(schemePointer, "in"),
                    "an apiKey security scheme is in header, query or cookie")
            }
        case "oauth2", "openIdConnect": return ".bearer"
        case "mutualTLS": return ".none"
        default: throw GeneratorError(schemePointer, "unknown security scheme type")
        }
    }
}
