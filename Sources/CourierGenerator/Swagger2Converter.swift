/// Reads a Swagger 2.0 document as the OpenAPI 3.0 document it stands for, so that the rest of the
/// generator knows one format:
/// - `host`, `basePath` and `schemes` become one server (`https`, or `http` when the document lists
///   `http` but not `https`);
/// - `definitions`, `parameters`, `responses` and `securityDefinitions` move under `components`,
///   and every `$ref` follows them;
/// - a `body` parameter becomes the `requestBody`, with a content entry per media type the
///   operation consumes (`application/json` when none is declared); `formData` parameters become
///   one object schema, sent as `multipart/form-data` when the operation consumes it or a field is
///   a `file`, else as a form;
/// - the other parameters keep their place, with their type under `schema`, and an array's
///   `collectionFormat` becomes its `style` and `explode` (`csv`, the default, is one
///   comma-separated value, unlike OpenAPI 3's default for the query);
/// - a response's `schema` becomes its content for each media type the operation produces, with
///   the matching entry of `examples` as its example;
/// - in schemas, `type: file` is a binary string, `x-nullable` is `nullable` and a discriminator
///   names its property.
///
/// ``convert(_:)`` also gives what moves an error's pointer (and the references its message
/// quotes) back into the Swagger document, so that the error names the place to fix.
struct Swagger2Converter {
    let root: DocumentValue
    /// The operation parameters of the converted document, each with its pointer there and in the
    /// Swagger document (a path item's parameters are repeated in its operations, and bodies and
    /// form fields leave the list, so the places differ).
    private var movedParameters: [(converted: String, original: String)] = []

    private init(root: DocumentValue) {
        self.root = root
    }

    /// The OpenAPI 3.0 form of `root`, a Swagger document (`swagger: "2.0"`), and what turns an
    /// error about it into one about `root`.
    static func convert(
        _ root: DocumentValue
    ) throws(GeneratorError) -> (document: DocumentValue, original: @Sendable (GeneratorError) -> GeneratorError) {
        let version = root["swagger"].map { $0.stringValue ?? $0.jsonText() } ?? ""
        guard version == "2.0" else {
            throw GeneratorError(
                "#/swagger",
                "unsupported version: Swagger \(version); courier-generate reads Swagger 2.0, OpenAPI 3.0 and 3.1")
        }
        var converter = Swagger2Converter(root: root)
        let document = try converter.document()
        let moved = converter.movedParameters
        return (document, { error in original(error, movedParameters: moved) })
    }

    /// Where each section of `components` was in the Swagger document.
    private static let sections = [
        (converted: "#/components/schemas", original: "#/definitions"),
        (converted: "#/components/parameters", original: "#/parameters"),
        (converted: "#/components/responses", original: "#/responses"),
        (converted: "#/components/securitySchemes", original: "#/securityDefinitions")
    ]

    /// `error` with its pointer, and the references its message quotes, moved back into the
    /// Swagger document.
    private static func original(
        _ error: GeneratorError, movedParameters: [(converted: String, original: String)]
    ) -> GeneratorError {
        var message = error.message
        for (converted, original) in sections {
            message = message.replacingOccurrences(of: converted + "/", with: original + "/")
        }
        return GeneratorError(originalPointer(error.pointer, movedParameters: movedParameters), message)
    }

    /// Where a pointer into the converted document points in the Swagger document: a parameter
    /// to where it was declared (its `schema` to the parameter itself), components back to their
    /// sections, a body back to its operation, a media type's schema back to the response's.
    private static func originalPointer(
        _ pointer: String, movedParameters: [(converted: String, original: String)]
    ) -> String {
        for (converted, original) in movedParameters where pointer == converted || pointer.hasPrefix(converted + "/") {
            var rest = pointer.dropFirst(converted.count)
            if rest == "/schema" || rest.hasPrefix("/schema/") { rest = rest.dropFirst("/schema".count) }
            return original + rest
        }
        var tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (converted, original) in sections where pointer == converted || pointer.hasPrefix(converted + "/") {
            return original + pointer.dropFirst(converted.count)
        }
        if let body = tokens.firstIndex(of: "requestBody") { return tokens[..<body].joined(separator: "/") }
        if let content = tokens.firstIndex(of: "content"), content + 1 < tokens.count {
            tokens.removeSubrange(content...(content + 1))
        }
        return tokens.joined(separator: "/")
    }

    // MARK: The document

    private mutating func document() throws(GeneratorError) -> DocumentValue {
        var members: [(key: String, value: DocumentValue)] = [("openapi", .string("3.0.3"))]
        if let info = root["info"] { members.append(("info", info)) }
        members.append(("servers", .array([.object([("url", .string(serverURL))])])))
        for key in ["security", "tags", "externalDocs"] {
            if let value = root[key] { members.append((key, value)) }
        }
        var paths: [(key: String, value: DocumentValue)] = []
        for (path, item) in root["paths"]?.members ?? [] {
            paths.append((path, try pathItem(item, pointer: JSONPointer.appending("#/paths", path))))
        }
        members.append(("paths", .object(paths)))
        var components: [(key: String, value: DocumentValue)] = []
        if let definitions = root["definitions"] {
            components.append(("schemas", .object(definitions.members.map { ($0.key, schema($0.value)) })))
        }
        var parameters: [(key: String, value: DocumentValue)] = []
        for (name, parameter) in root["parameters"]?.members ?? [] where !Self.isBodyOrForm(parameter) {
            parameters.append(
                (name, try self.parameter(parameter, pointer: JSONPointer.appending("#/parameters", name))))
        }
        if !parameters.isEmpty { components.append(("parameters", .object(parameters))) }
        if let responses = root["responses"] {
            components.append(
                ("responses", .object(responses.members.map { ($0.key, response($0.value, produces: produces(nil))) })))
        }
        if let schemes = root["securityDefinitions"] {
            components.append(("securitySchemes", .object(schemes.members.map { ($0.key, securityScheme($0.value)) })))
        }
        members.append(("components", .object(components)))
        return .object(members)
    }

    /// `https://host/basePath`, or `http` when the document lists `http` but not `https` (other
    /// schemes, `ws` and `wss`, are not Courier's); without a host, the base path alone, which the
    /// generator puts on `http://localhost`.
    private var serverURL: String {
        let basePath = root["basePath"]?.stringValue ?? ""
        guard let host = root["host"]?.stringValue else { return basePath.isEmpty ? "/" : basePath }
        let schemes = root["schemes"]?.elements.compactMap(\.stringValue) ?? []
        let scheme = schemes.contains("http") && !schemes.contains("https") ? "http" : "https"
        return "\(scheme)://\(host)\(basePath)"
    }

    private func consumes(_ operation: DocumentValue?) -> [String] {
        mediaTypes(operation?["consumes"] ?? root["consumes"])
    }

    private func produces(_ operation: DocumentValue?) -> [String] {
        mediaTypes(operation?["produces"] ?? root["produces"])
    }

    private func mediaTypes(_ list: DocumentValue?) -> [String] {
        let types = list?.elements.compactMap(\.stringValue) ?? []
        return types.isEmpty ? ["application/json"] : types
    }

    // MARK: Paths and operations

    private mutating func pathItem(_ item: DocumentValue, pointer: String) throws(GeneratorError) -> DocumentValue {
        var members: [(key: String, value: DocumentValue)] = []
        let shared = item["parameters"]?.elements ?? []
        for (key, value) in item.members where key != "parameters" {
            if OperationCollector.methods.contains(key) {
                let at = JSONPointer.appending(pointer, key)
                members.append((key, try operation(value, shared: shared, pathPointer: pointer, pointer: at)))
            } else {
                members.append((key, value))
            }
        }
        return .object(members)
    }

    /// The operation with its parameters split into parameters and a request body, and its
    /// responses given content. The path item's parameters come first, unless the operation
    /// declares one of the same name and location.
    private mutating func operation(
        _ operation: DocumentValue, shared: [DocumentValue], pathPointer: String, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        var listed: [(value: DocumentValue, resolved: DocumentValue, pointer: String)] = []
        for (index, parameter) in (operation["parameters"]?.elements ?? []).enumerated() {
            let at = JSONPointer.appending(JSONPointer.appending(pointer, "parameters"), String(index))
            listed.append((parameter, try resolved(parameter, pointer: at), at))
        }
        let own = Set(listed.map { Self.identity($0.resolved) })
        var inherited: [(value: DocumentValue, resolved: DocumentValue, pointer: String)] = []
        for (index, parameter) in shared.enumerated() {
            let at = JSONPointer.appending(JSONPointer.appending(pathPointer, "parameters"), String(index))
            let resolved = try resolved(parameter, pointer: at)
            if !own.contains(Self.identity(resolved)) { inherited.append((parameter, resolved, at)) }
        }
        var parameters: [DocumentValue] = []
        var body: DocumentValue?
        var fields: [DocumentValue] = []
        for entry in inherited + listed {
            switch entry.resolved["in"]?.stringValue {
            case "body": body = requestBody(entry.resolved, consumes: consumes(operation))
            case "formData": fields.append(entry.resolved)
            default:
                let converted = JSONPointer.appending(
                    JSONPointer.appending(pointer, "parameters"), String(parameters.count))
                movedParameters.append((converted, entry.pointer))
                if let reference = entry.value["$ref"]?.stringValue {
                    parameters.append(.object([("$ref", .string(Self.reference(reference)))]))
                } else {
                    parameters.append(try parameter(entry.resolved, pointer: entry.pointer))
                }
            }
        }
        if !fields.isEmpty { body = formBody(fields, consumes: consumes(operation)) }
        var members: [(key: String, value: DocumentValue)] = []
        for (key, value) in operation.members {
            switch key {
            case "parameters", "consumes", "produces", "schemes": continue
            case "responses":
                members.append(
                    (key, .object(value.members.map { ($0.key, response($0.value, produces: produces(operation))) })))
            default: members.append((key, value))
            }
        }
        if !parameters.isEmpty { members.append(("parameters", .array(parameters))) }
        if let body { members.append(("requestBody", body)) }
        return .object(members)
    }

    /// A parameter, or the document-wide parameter its `$ref` names.
    private func resolved(_ parameter: DocumentValue, pointer: String) throws(GeneratorError) -> DocumentValue {
        guard let reference = parameter["$ref"]?.stringValue else { return parameter }
        let prefix = "#/parameters/"
        guard reference.hasPrefix(prefix),
            let tokens = JSONPointer.tokens(reference), tokens.count == 2,
            let target = root["parameters"]?[tokens[1]]
        else {
            throw GeneratorError(pointer, "reference \(reference) points at no parameter")
        }
        return target
    }

    private static func identity(_ parameter: DocumentValue) -> String {
        (parameter["in"]?.stringValue ?? "") + " " + (parameter["name"]?.stringValue ?? "")
    }

    private static func isBodyOrForm(_ parameter: DocumentValue) -> Bool {
        ["body", "formData"].contains(parameter["in"]?.stringValue ?? "")
    }

    // MARK: Parameters and bodies

    /// A query, path, header or cookie parameter: its type moved under `schema`, an array's
    /// `collectionFormat` made `style` and `explode`.
    private func parameter(_ parameter: DocumentValue, pointer: String) throws(GeneratorError) -> DocumentValue {
        var members: [(key: String, value: DocumentValue)] = []
        for key in ["name", "in", "description", "required", "deprecated", "allowEmptyValue"] {
            if let value = parameter[key] { members.append((key, value)) }
        }
        if parameter["type"]?.stringValue == "array" {
            let location = parameter["in"]?.stringValue ?? ""
            switch parameter["collectionFormat"]?.stringValue ?? "csv" {
            case "csv":
                if location == "query" { members += [("style", .string("form")), ("explode", .bool(false))] }
            case "multi":
                members += [("style", .string("form")), ("explode", .bool(true))]
            case "ssv": members += [("style", .string("spaceDelimited")), ("explode", .bool(false))]
            case "pipes": members += [("style", .string("pipeDelimited")), ("explode", .bool(false))]
            case let other:
                throw GeneratorError(
                    JSONPointer.appending(pointer, "collectionFormat"),
                    "collectionFormat \(other) is not supported (csv, multi, ssv and pipes are)")
            }
        }
        members.append(("schema", schema(Self.valueSchema(parameter))))
        return .object(members)
    }

    /// The schema keywords of a parameter, a form field or an `items` object.
    private static func valueSchema(_ value: DocumentValue) -> DocumentValue {
        let notSchema: Set<String> = [
            "name", "in", "description", "required", "allowEmptyValue", "collectionFormat", "deprecated"
        ]
        return .object(
            value.members.compactMap { key, member in
                if notSchema.contains(key) || key.hasPrefix("x-") { return nil }
                return (key, key == "items" ? valueSchema(member) : member)
            })
    }

    private func requestBody(_ parameter: DocumentValue, consumes: [String]) -> DocumentValue {
        let schema = schema(parameter["schema"] ?? .object([]))
        var members: [(key: String, value: DocumentValue)] = []
        if let description = parameter["description"] { members.append(("description", description)) }
        members.append(("required", parameter["required"] ?? .bool(false)))
        members.append(("content", .object(consumes.map { ($0, .object([("schema", schema)])) })))
        return .object(members)
    }

    /// The `formData` fields as one object: multipart when the operation consumes it or a field
    /// is a file, else a form.
    private func formBody(_ fields: [DocumentValue], consumes: [String]) -> DocumentValue {
        let multipart =
            consumes.contains("multipart/form-data") || fields.contains { $0["type"]?.stringValue == "file" }
        var properties: [(key: String, value: DocumentValue)] = []
        var required: [DocumentValue] = []
        for field in fields {
            guard let name = field["name"]?.stringValue else { continue }
            var property = schema(Self.valueSchema(field)).members
            if let description = field["description"] { property.append(("description", description)) }
            properties.append((name, .object(property)))
            if field["required"]?.boolValue == true { required.append(.string(name)) }
        }
        var schema: [(key: String, value: DocumentValue)] = [
            ("type", .string("object")), ("properties", .object(properties))
        ]
        if !required.isEmpty { schema.append(("required", .array(required))) }
        let media = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded"
        return .object([
            ("required", .bool(!required.isEmpty)),
            ("content", .object([(media, .object([("schema", .object(schema))]))]))
        ])
    }

    // MARK: Responses, schemas, security

    private func response(_ response: DocumentValue, produces: [String]) -> DocumentValue {
        if let reference = response["$ref"]?.stringValue {
            return .object([("$ref", .string(Self.reference(reference)))])
        }
        var members: [(key: String, value: DocumentValue)] = [
            ("description", response["description"] ?? .string(""))
        ]
        if let bodySchema = response["schema"] {
            let converted = schema(bodySchema)
            members.append(
                (
                    "content",
                    .object(
                        produces.map { media in
                            var entry: [(key: String, value: DocumentValue)] = [("schema", converted)]
                            if let example = response["examples"]?[media] { entry.append(("example", example)) }
                            return (media, .object(entry))
                        })
                ))
        }
        return .object(members)
    }

    /// A Swagger schema as OpenAPI 3.0 reads it.
    private func schema(_ value: DocumentValue) -> DocumentValue {
        guard case .object(let members) = value else { return value }
        let isFile = value["type"]?.stringValue == "file"
        var out: [(key: String, value: DocumentValue)] = []
        for (key, member) in members {
            switch key {
            case "$ref": out.append((key, .string(Self.reference(member.stringValue ?? ""))))
            case "type" where isFile: out += [("type", .string("string")), ("format", .string("binary"))]
            case "format" where isFile: continue
            case "x-nullable": if member.boolValue == true { out.append(("nullable", .bool(true))) }
            case "discriminator":
                out.append((key, member.stringValue.map { .object([("propertyName", .string($0))]) } ?? member))
            case "properties": out.append((key, .object(member.members.map { ($0.key, schema($0.value)) })))
            case "items", "additionalProperties", "not": out.append((key, schema(member)))
            case "allOf", "anyOf", "oneOf": out.append((key, .array(member.elements.map(schema))))
            default: out.append((key, member))
            }
        }
        return .object(out)
    }

    private func securityScheme(_ scheme: DocumentValue) -> DocumentValue {
        var members: [(key: String, value: DocumentValue)] = []
        switch scheme["type"]?.stringValue {
        case "basic":
            members = [("type", .string("http")), ("scheme", .string("basic"))]
        case "oauth2":
            let flows = [
                "implicit": "implicit", "password": "password", "application": "clientCredentials",
                "accessCode": "authorizationCode"
            ]
            var flow: [(key: String, value: DocumentValue)] = []
            for key in ["authorizationUrl", "tokenUrl"] {
                if let value = scheme[key] { flow.append((key, value)) }
            }
            flow.append(("scopes", scheme["scopes"] ?? .object([])))
            let name = flows[scheme["flow"]?.stringValue ?? ""] ?? "implicit"
            members = [("type", .string("oauth2")), ("flows", .object([(name, .object(flow))]))]
        default:  // apiKey, and anything else as it is
            members = scheme.members.filter { $0.key != "description" }
        }
        if let description = scheme["description"] { members.append(("description", description)) }
        return .object(members)
    }

    /// A local reference moved to where its target is in the converted document.
    private static func reference(_ reference: String) -> String {
        for section in sections where reference.hasPrefix(section.original + "/") {
            return section.converted + reference.dropFirst(section.original.count)
        }
        return reference
    }
}
