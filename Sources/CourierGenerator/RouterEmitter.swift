/// Writes one tag's router: an enum with a case per operation, conforming to the module's base
/// router (which supplies `baseURL`).
struct RouterEmitter {
    let names: ModuleNames
    let tag: String
    let operations: [Operation]

    func emit() -> [String] {
        let router = names.router(tag)
        var out = ["/// The `\(tag)` endpoints: one case per operation, parameters as associated values."]
        out.append("public enum \(router): \(names.baseRouter) {")
        for operation in operations {
            let endpoint = "`\(operation.method.uppercased()) \(operation.path)`"
            if let summary = operation.summary {
                out.append("    /// \(summary)")
                out.append("    ///")
                out.append("    /// \(endpoint)")
            } else {
                out.append("    /// \(endpoint).")
            }
            let arguments = operation.arguments.map {
                "\(Naming.escaped($0.label)): \($0.type)\($0.optional ? "? = nil" : "")"
            }
            let suffix = arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"
            if operation.deprecated { out.append("    \(Operation.deprecation)") }
            out.append("    case \(Naming.escaped(operation.caseName))\(suffix)")
        }
        out += property("path", type: "String", doc: "The endpoint path; path parameters are escaped as segments.") {
            pathLiteral($0)
        } uses: {
            Set($0.pathParameters.map(\.swiftName))
        }
        out += property("method", type: "HTTPMethod", doc: "The operation's method.") { ".\($0.method)" }
        if operations.contains(where: { !$0.queryParameters.isEmpty || $0.body != nil }) {
            out += property("parameters", type: "RequestParams", doc: "Query parameters and body.") {
                parameters($0)
            } uses: { operation in
                Set(operation.queryParameters.map(\.swiftName) + (operation.body == nil ? [] : [operation.bodyName]))
            }
        }
        if operations.contains(where: {
            !$0.headerParameters.isEmpty || !$0.cookieParameters.isEmpty || $0.jsonContentType != nil
        }) {
            let cookies = operations.contains { !$0.cookieParameters.isEmpty }
            let doc = "The header \(cookies ? "and cookie " : "")parameters that have a value."
            out += property("headers", type: "HTTPHeaders", doc: doc) {
                headers($0)
            } uses: {
                Set(($0.headerParameters + $0.cookieParameters).map(\.swiftName))
            }
        }
        out += property("sampleData", type: "Data", doc: "The document's example response, for stubbing.") {
            guard let sample = $0.sample else { return "Data()" }
            // A raw literal holds a line; a text example of several is written escaped.
            let literal = sample.contains(where: \.isNewline) ? Naming.literal(sample) : Self.rawLiteral(sample)
            return "Data(\(literal).utf8)"
        }
        if operations.contains(where: { $0.sampleStatus != 200 }) {
            out += property("sampleStatusCode", type: "Int", doc: "The status of the sample response.") {
                String($0.sampleStatus)
            }
        }
        if operations.contains(where: { $0.authorization != ".none" }) {
            out += property(
                "authorization", type: "AuthorizationType", doc: "The credential the document's security asks for."
            ) { $0.authorization }
        }
        out.append("}")
        return out
    }

    /// A computed property switching over the cases; a single expression when every case agrees.
    private func property(
        _ name: String, type: String, doc: String, _ value: (Operation) -> String,
        uses: (Operation) -> Set<String> = { _ in [] }
    ) -> [String] {
        var out = ["", "    /// \(doc)"]
        let values = operations.map(value)
        if Set(values).count == 1, operations.allSatisfy({ uses($0).isEmpty }) {
            out.append("    public var \(name): \(type) { \(values[0]) }")
            return out
        }
        out.append("    public var \(name): \(type) {")
        out.append("        switch self {")
        for (operation, text) in zip(operations, values) {
            let lines = text.split(separator: "\n")
            if lines.count == 1 {
                out.append("        case \(pattern(operation, binding: uses(operation))): return \(text)")
            } else {
                // Statements ending with a `return`.
                out.append("        case \(pattern(operation, binding: uses(operation))):")
                out += lines.map { "            " + $0 }
            }
        }
        out.append("        }")
        out.append("    }")
        return out
    }

    /// `.name`, or `.name(let a, _, let c)` binding only what the expression uses.
    private func pattern(_ operation: Operation, binding used: Set<String>) -> String {
        let labels = operation.arguments.map(\.label)
        guard labels.contains(where: used.contains) else { return ".\(Naming.escaped(operation.caseName))" }
        let parts = labels.map { used.contains($0) ? "let \(Naming.escaped($0))" : "_" }
        return ".\(Naming.escaped(operation.caseName))(\(parts.joined(separator: ", ")))"
    }

    private func pathLiteral(_ operation: Operation) -> String {
        var out = "\""
        for piece in operation.template.pieces {
            switch piece {
            case .literal(let text):
                out += String(Naming.literal(text).dropFirst().dropLast())
            case .parameter(let name):
                // The collector refuses a template naming a parameter the operation does not declare.
                let parameter = operation.pathParameters.first { $0.name == name }!
                out += "\\(segment: \(simpleText(parameter, Naming.escaped(parameter.swiftName))))"
            }
        }
        return out + "\""
    }

    /// The parameter's value as the router sends it: raw values for enums, ISO 8601 for dates.
    private func valueText(_ parameter: OperationParameter, _ name: String) -> String {
        if parameter.isEnum { return "\(name).rawValue" }
        if parameter.type == .primitive("Date") { return "\(names.coding).text(\(name))" }
        return name
    }

    /// ``valueText(_:_:)`` for a value sent as one text: in the path and headers, or a query
    /// array with `explode: false`, whose elements are joined by the parameter's separator.
    private func simpleText(_ parameter: OperationParameter, _ name: String) -> String {
        guard case .array(let element) = parameter.type else { return valueText(parameter, name) }
        let joined = ".joined(separator: \(Naming.literal(parameter.separator ?? ",")))"
        if parameter.elementIsEnum { return "\(name).map(\\.rawValue)\(joined)" }
        switch element {
        case .primitive("String"): return name + joined
        case .primitive("Date"): return "\(name).map { \(names.coding).text($0) }\(joined)"
        default: return "\(name).map { \"\\($0)\" }\(joined)"
        }
    }

    private func parameters(_ operation: Operation) -> String {
        let query = operation.queryParameters.map { parameter -> String in
            let name = Naming.escaped(parameter.swiftName)
            var value: String
            if parameter.separator != nil {
                // One value, its elements joined (`explode: false`).
                value =
                    parameter.optional
                    ? "\(name).map { \(simpleText(parameter, "$0")) } as any Sendable" : simpleText(parameter, name)
            } else if parameter.optional {
                if parameter.isEnum {
                    value = "\(name)?.rawValue"
                } else if parameter.elementIsEnum {
                    value = "\(name)?.map(\\.rawValue)"
                } else if parameter.type == .primitive("Date") {
                    value = "\(name).map { \(names.coding).text($0) }"
                } else if parameter.type == .array(.primitive("Date")) {
                    value = "\(name)?.map { \(names.coding).text($0) }"
                } else {
                    value = name
                }
                value += " as any Sendable"
            } else {
                if parameter.elementIsEnum {
                    value = "\(name).map(\\.rawValue)"
                } else if parameter.type == .array(.primitive("Date")) {
                    value = "\(name).map { \(names.coding).text($0) }"
                } else {
                    value = valueText(parameter, name)
                }
            }
            return "\(Naming.literal(parameter.name)): \(value)"
        }
        let queryText = query.isEmpty ? "[:]" : "[\(query.joined(separator: ", "))]"
        let options = "options: \(names.coding).queryOptions"
        let body = Naming.escaped(operation.bodyName)
        switch operation.body {
        case nil: return query.isEmpty ? ".requestPlain" : ".query(\(queryText), \(options))"
        case .json?:
            let encoder = "encoder: \(names.coding).makeEncoder()"
            return query.isEmpty
                ? ".jsonEncodable(\(body), \(encoder))"
                : ".queryJSONEncodable(\(queryText), \(body), \(encoder), \(options))"
        case .form?: return ".formEncodable(\(body))"
        case .multipart(let type, _)?:
            return type == nil ? ".multipart(\(body))" : ".multipart(\(body).multipartFormData)"
        case .raw(let contentType)?:
            return query.isEmpty
                ? ".data(\(body), contentType: \(Naming.literal(contentType)))"
                : ".queryData(\(queryText), \(body), contentType: \(Naming.literal(contentType)), \(options))"
        }
    }

    /// The header lines in the document's order (`Content-Type` first, `Cookie` last): a
    /// dictionary literal of `HTTPHeaders` (which keeps its order), or, when some parameters are
    /// optional, statements that set each one that has a value.
    private func headers(_ operation: Operation) -> String {
        var pairs =
            operation.jsonContentType.map { [(name: Naming.literal("Content-Type"), value: Naming.literal($0))] } ?? []
        for parameter in operation.headerParameters {
            let name = Naming.escaped(parameter.swiftName)
            let value: String
            if parameter.optional {
                let element = simpleText(parameter, "$0")
                value = parameter.type == .primitive("String") ? name : "\(name).map { \"\\(\(element))\" }"
            } else {
                value = "\"\\(\(simpleText(parameter, name)))\""
            }
            pairs.append((name: Naming.literal(parameter.name), value: value))
        }
        let cookies = operation.cookieParameters
        let cookie = cookies.isEmpty ? nil : cookieLine(cookies)
        guard (operation.headerParameters + cookies).contains(where: \.optional) else {
            if let cookie { pairs.append((name: Naming.literal("Cookie"), value: cookie)) }
            if pairs.isEmpty { return "HTTPHeaders()" }
            return "[\(pairs.map { "\($0.name): \($0.value)" }.joined(separator: ", "))]"
        }
        var lines = ["var headers = HTTPHeaders()"] + pairs.map { "headers[\($0.name)] = \($0.value)" }
        if let cookie {
            // Only the cookies that have a value; no header when none has.
            lines += ["let cookie = \(cookie)", "if !cookie.isEmpty { headers[\"Cookie\"] = cookie }"]
        }
        return (lines + ["return headers"]).joined(separator: "\n")
    }

    /// The `Cookie` line of the cookie parameters (`name=value; …`, OpenAPI's `form` style), each
    /// value percent-encoded so that it is one cookie value; those without a value are left out.
    private func cookieLine(_ cookies: [OperationParameter]) -> String {
        let parts = cookies.map { parameter -> String in
            let name = Naming.escaped(parameter.swiftName)
            let prefix = Naming.literal(parameter.name + "=")
            guard parameter.optional else {
                return "\(prefix) + \(names.coding).cookieValue(\"\\(\(simpleText(parameter, name)))\")"
            }
            return "\(name).map { \(prefix) + \(names.coding).cookieValue(\"\\(\(simpleText(parameter, "$0")))\") }"
        }
        let list = "[\(parts.joined(separator: ", "))]"
        let joined = ".joined(separator: \"; \")"
        return cookies.contains(where: \.optional) ? list + ".compactMap { $0 }" + joined : list + joined
    }

    /// A raw string literal (`#"..."#`) with enough `#`s for `text`.
    static func rawLiteral(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + text + "\"" + hashes
    }
}
