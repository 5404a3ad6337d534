import Foundation

/// Walks `paths` into ``Operation``s, sorted by tag, path and method.
struct OperationCollector {
    let resolver: SchemaResolver
    let security: SecurityMapper
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    func collect() throws(GeneratorError) -> [Operation] {
        guard let paths = resolver.document["paths"] else { return [] }
        guard paths.isObject else { throw GeneratorError("#/paths", "paths must be an object") }
        var operations: [Operation] = []
        var usedCases: [String: Set<String>] = [:]
        for (path, rawItem) in paths.members {
            let itemPointer = JSONPointer.appending("#/paths", path)
            let item = try resolver.followed(rawItem, at: itemPointer)
            for method in Self.methods {
                guard let operation = item[method] else { continue }
                let pointer = JSONPointer.appending(itemPointer, method)
                guard operation.isObject else { throw GeneratorError(pointer, "an operation must be an object") }
                let tag = Naming.typeName(operation["tags"]?.elements.first?.stringValue ?? "Default")
                let base =
                    operation["operationId"]?.stringValue.map { Naming.memberName($0) }
                    ?? Naming.memberName(method + " " + path.replacingOccurrences(of: "{", with: "by "))
                let caseName = Naming.unique(base, in: &usedCases[tag, default: Naming.reservedOperations])
                operations.append(
                    try build(
                        operation, item: item, tag: tag, caseName: caseName, method: method, path: path,
                        pointer: pointer))
            }
        }
        return operations.sorted { ($0.tag, $0.caseName) < ($1.tag, $1.caseName) }
    }

    private func build(
        _ operation: DocumentValue, item: DocumentValue, tag: String, caseName: String, method: String, path: String,
        pointer: String
    ) throws(GeneratorError) -> Operation {
        let typeStem = Naming.typeName(caseName)
        var used: Set<String> = ["queue", "completion"]
        var parameters: [OperationParameter] = []
        for (position, parameter) in try mergedParameters(operation, item: item, pointer: pointer).enumerated() {
            var made = try self.parameter(parameter.value, pointer: parameter.pointer, stem: typeStem, used: &used)
            made.position = position
            parameters.append(made)
        }
        let template: PathTemplate
        switch PathTemplate.parse(path) {
        case .success(let parsed): template = parsed
        case .failure(let problem): throw GeneratorError(pointer, "the path \(path) \(problem.text)")
        }
        for match in template.parameterNames
        where !parameters.contains(where: { $0.location == .path && $0.name == match }) {
            throw GeneratorError(pointer, "path parameter {\(match)} is not declared")
        }
        parameters = parameters.filter { $0.location != .path || template.parameterNames.contains($0.name) }
        // Required before optional, each group in document (sorted) order, keeps call sites short.
        parameters = parameters.filter { !$0.optional } + parameters.filter(\.optional)
        let bodyName = Naming.unique("body", in: &used)
        let body = try requestBody(
            operation, pointer: pointer, stem: typeStem, hasQuery: parameters.contains { $0.location == .query })
        let success = try successResponse(operation, pointer: pointer, stem: typeStem)
        return Operation(
            tag: tag, caseName: caseName, method: method, path: path, template: template, pointer: pointer,
            summary: (operation["summary"]?.stringValue ?? operation["description"]?.stringValue).map(Naming.sentence),
            parameters: parameters, body: body, bodyName: bodyName, response: success.type,
            responseIsBody: success.isBody, sample: success.sample, sampleStatus: success.status,
            authorization: try security.authorization(for: operation, pointer: pointer),
            deprecated: operation["deprecated"]?.boolValue == true)
    }

    /// Path-item parameters overridden by the operation's (same name and location).
    private func mergedParameters(
        _ operation: DocumentValue, item: DocumentValue, pointer: String
    )
        throws(GeneratorError) -> [(value: DocumentValue, pointer: String)]
    {
        var merged: [(value: DocumentValue, pointer: String)] = []
        let sources = [
            (item["parameters"], pointer.components(separatedBy: "/").dropLast().joined(separator: "/")),
            (operation["parameters"], pointer)
        ]
        for (list, base) in sources {
            for (index, raw) in (list?.elements ?? []).enumerated() {
                let at = JSONPointer.appending(JSONPointer.appending(base, "parameters"), String(index))
                let value = try resolver.followed(raw, at: at)
                merged.removeAll { $0.value["name"] == value["name"] && $0.value["in"] == value["in"] }
                merged.append((value, at))
            }
        }
        return merged
    }

    private func parameter(
        _ value: DocumentValue, pointer: String, stem: String, used: inout Set<String>
    )
        throws(GeneratorError) -> OperationParameter
    {
        guard let name = value["name"]?.stringValue else { throw GeneratorError(pointer, "a parameter has no name") }
        guard let location = value["in"]?.stringValue.flatMap(OperationParameter.Location.init(rawValue:)) else {
            throw GeneratorError(pointer, "parameter \(name) has no supported \"in\" (path, query, header, cookie)")
        }
        let schema = value["schema"] ?? value["content"]?.members.first?.value["schema"] ?? .object([])
        var (type, nullable) = try resolver.resolve(
            schema, pointer: JSONPointer.appending(pointer, "schema"), name: stem + Naming.typeName(name))
        var isEnum = false
        var elementIsEnum = false
        // A null inside a parameter's array has no spelling on the wire: its elements are plain.
        if case .array(.optional(let element)) = type { type = .array(element) }
        switch type {
        case .primitive(let primitive) where primitive == "Data": type = .primitive("String")
        case .primitive: break
        case .named(let named): isEnum = resolver.isRawEnum(named)
        case .array(.named(let named)) where resolver.isRawEnum(named): elementIsEnum = true
        case .array(.primitive(let primitive)) where primitive != "Data": break
        default:
            // Objects go out as deepObject-style keys (`filter[name]=x`); anything else as text.
            type = location == .query ? .dictionary(.primitive("String")) : .primitive("String")
        }
        if case .named = type, !isEnum {
            type = location == .query ? .dictionary(.primitive("String")) : .primitive("String")
        }
        // Arrays left here (of primitives or raw-value enums) go out in the path and in headers
        // comma-separated, OpenAPI's `simple` style; objects there are text the caller writes.
        if location != .query, case .dictionary = type { type = .primitive("String") }
        let optional = location != .path && (value["required"]?.boolValue != true || nullable)
        return OperationParameter(
            name: name, swiftName: Naming.unique(Naming.memberName(name), in: &used), location: location, type: type,
            optional: optional, isEnum: isEnum, elementIsEnum: elementIsEnum,
            separator: Self.separator(of: value, type: type, location: location),
            doc: value["description"]?.stringValue.map(Naming.docLine))
    }

    private func requestBody(
        _ operation: DocumentValue, pointer: String, stem: String, hasQuery: Bool
    )
        throws(GeneratorError) -> OperationBody?
    {
        guard let raw = operation["requestBody"] else { return nil }
        let at = JSONPointer.appending(pointer, "requestBody")
        let body = try resolver.followed(raw, at: at)
        let content = body["content"]?.members ?? []
        guard !content.isEmpty else { return nil }
        func schema(of mediaType: String) -> (DocumentValue, String) {
            let media = content.first { $0.key == mediaType }!.value
            let mediaPointer = JSONPointer.appending(JSONPointer.appending(at, "content"), mediaType)
            return (media["schema"] ?? .object([]), JSONPointer.appending(mediaPointer, "schema"))
        }
        if let json = content.map(\.key).first(where: Self.isJSON) {
            let (value, schemaPointer) = schema(of: json)
            let (type, _) = try resolver.resolve(value, pointer: schemaPointer, name: stem + "Request")
            let base = json.split(separator: ";").first.map(String.init) ?? json
            return .json(type, contentType: base.contains("*") ? "application/json" : base)
        }
        if let form = content.map(\.key).first(where: { $0.hasPrefix("application/x-www-form-urlencoded") }) {
            guard !hasQuery else {
                throw GeneratorError(at, "a form body together with query parameters is not supported")
            }
            let (value, schemaPointer) = schema(of: form)
            let (type, _) = try resolver.resolve(value, pointer: schemaPointer, name: stem + "Form")
            return .form(type)
        }
        if let multipart = content.map(\.key).first(where: { $0.hasPrefix("multipart/") }) {
            guard !hasQuery else {
                throw GeneratorError(at, "a multipart body together with query parameters is not supported")
            }
            let (value, schemaPointer) = schema(of: multipart)
            guard value["properties"] != nil || value["$ref"] != nil || value["allOf"] != nil else {
                return .multipart(nil, partTypes: [:])
            }
            let (type, _) = try resolver.resolve(value, pointer: schemaPointer, name: stem + "Multipart")
            guard case .named(let name) = type, case .object? = resolver.declarations[name] else {
                return .multipart(nil, partTypes: [:])
            }
            let encoding = content.first { $0.key == multipart }?.value["encoding"]?.members ?? []
            return .multipart(type, partTypes: Self.partTypes(encoding))
        }
        let contentType = content[0].key.contains("*") ? "application/octet-stream" : content[0].key
        return .raw(contentType: contentType)
    }

    /// The first 2xx response (then `default`): its type (JSON first, else the first media
    /// type's body as `String` or `Data`), whether that is the body itself, its sample and status.
    private func successResponse(
        _ operation: DocumentValue, pointer: String, stem: String
    )
        throws(GeneratorError) -> (type: String, isBody: Bool, sample: String?, status: Int)
    {
        let responses = operation["responses"]?.members ?? []
        let ordered = responses.filter { $0.key.hasPrefix("2") } + responses.filter { $0.key == "default" }
        guard let chosen = ordered.first else { return ("Empty", false, nil, 200) }
        let at = JSONPointer.appending(JSONPointer.appending(pointer, "responses"), chosen.key)
        let status = Int(chosen.key) ?? 200
        let response = try resolver.followed(chosen.value, at: at)
        let content = response["content"]?.members ?? []
        guard let json = content.first(where: { Self.isJSON($0.key) }) else {
            guard let media = content.first else { return ("Empty", false, nil, status) }
            // Not JSON: the body itself, as text for `text/…`, as bytes otherwise; a text example
            // is the stub's sample.
            let isText = media.key.lowercased().hasPrefix("text/")
            return (isText ? "String" : "Data", true, media.value["example"]?.stringValue, status)
        }
        let mediaPointer = JSONPointer.appending(JSONPointer.appending(at, "content"), json.key)
        let schema = json.value["schema"] ?? .object([])
        let (type, nullable) = try resolver.resolve(
            schema, pointer: JSONPointer.appending(mediaPointer, "schema"), name: stem + "Response")
        let sample = try SampleBuilder(resolver: resolver).sample(media: json.value, pointer: mediaPointer)
        return (nullable ? "\(type.code)?" : type.code, false, sample, status)
    }

    /// What joins an array parameter's elements into one value, if it is sent as one (see
    /// ``OperationParameter/separator``): OpenAPI's `style` and `explode`, with their defaults.
    static func separator(
        of parameter: DocumentValue, type: SwiftType, location: OperationParameter.Location
    ) -> String? {
        guard case .array = type else { return nil }
        guard location == .query else { return "," }
        let style = parameter["style"]?.stringValue ?? "form"
        // OpenAPI: `explode` defaults to true for `form` only.
        guard !(parameter["explode"]?.boolValue ?? (style == "form")) else { return nil }
        switch style {
        case "spaceDelimited": return " "
        case "pipeDelimited": return "|"
        default: return ","
        }
    }

    /// The media type `encoding` gives each part: the first of a list, none for a wildcard
    /// (`image/*` names no type a part can have).
    static func partTypes(_ encoding: [(key: String, value: DocumentValue)]) -> [String: String] {
        var types: [String: String] = [:]
        for (property, value) in encoding {
            guard let first = value["contentType"]?.stringValue?.split(separator: ",").first else { continue }
            let type = first.trimmingCharacters(in: .whitespaces)
            guard !type.isEmpty, !type.contains("*") else { continue }
            types[property] = type
        }
        return types
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let base = mediaType.split(separator: ";").first.map(String.init) ?? mediaType
        return base == "application/json" || base.hasSuffix("+json") || base == "*/*" || base == "application/*"
            || base == "text/json"
    }
}
