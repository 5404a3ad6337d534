/// Writes `multipartFormData` for the structs that are `multipart/form-data` bodies: one part per
/// property that has a value (files for `Data`, text for the rest, JSON for objects). `Data` of
/// `format: byte` is base64 text, so its part is that text. A part has the media type the
/// document's `encoding` gives it; else a file part's is guessed from its name, an object part is
/// `application/json` and a text part has none.
struct MultipartEmitter {
    let names: ModuleNames
    let declarations: [String: ModelDecl]
    /// By struct name: the media type of each part that `encoding` names (by property name).
    let partTypes: [String: [String: String]]

    func emit(_ types: [String]) -> [String] {
        var out: [String] = []
        for name in types {
            guard case .object(_, _, let properties, _)? = declarations[name] else { continue }
            let types = partTypes[name] ?? [:]
            if !out.isEmpty { out.append("") }
            out.append("extension \(name) {")
            out.append("    /// The value as `multipart/form-data`: one part per property that has a value.")
            out.append("    public var multipartFormData: MultipartFormData {")
            out.append("        var form = MultipartFormData()")
            for property in properties {
                let member = Naming.escaped(property.swiftName)
                let part = Naming.literal(property.jsonName)
                if property.optional {
                    out.append("        if let value = \(member) {")
                    out += append(
                        property.type, "value", part, base64: property.isBase64Text,
                        mediaType: types[property.jsonName], indent: "            ")
                    out.append("        }")
                } else {
                    out += append(
                        property.type, member, part, base64: property.isBase64Text,
                        mediaType: types[property.jsonName], indent: "        ")
                }
            }
            out.append("        return form")
            out.append("    }")
            out.append("}")
        }
        return out
    }

    /// The statements that add `value` (of `type`) as the part `part`; `base64`: `Data` goes as
    /// base64 text; `mediaType`: the part's type from the document's `encoding`.
    private func append(
        _ type: SwiftType, _ value: String, _ part: String, base64: Bool, mediaType: String?, indent: String
    ) -> [String] {
        switch type {
        case .primitive("Data") where base64:
            return [indent + text("\(value).base64EncodedString()", part, mediaType)]
        case .primitive("Data"):
            let type = mediaType.map { ", mimeType: \(Naming.literal($0))" } ?? ""
            return ["\(indent)form.append(\(value), name: \(part), filename: \(part)\(type))"]
        case .primitive("String"): return [indent + text(value, part, mediaType)]
        case .primitive("Date"): return [indent + text("\(names.coding).text(\(value))", part, mediaType)]
        case .primitive: return [indent + text("\"\\(\(value))\"", part, mediaType)]
        case .named(let name) where isRawEnum(name):
            return [indent + text("\"\\(\(value).rawValue)\"", part, mediaType)]
        case .array(let element) where isText(element):
            return ["\(indent)for element in \(value) {"]
                + append(element, "element", part, base64: base64, mediaType: mediaType, indent: indent + "    ")
                + ["\(indent)}"]
        default:
            // OpenAPI's default for an object (or an array of them): `application/json`.
            return [indent + text("\(names.coding).jsonText(\(value))", part, mediaType ?? "application/json")]
        }
    }

    /// The statement that adds the string `expression` as the part `part`, with a
    /// `Content-Type` when `mediaType` is given (a text part has none otherwise).
    private func text(_ expression: String, _ part: String, _ mediaType: String?) -> String {
        guard let mediaType else { return "form.append(\(expression), name: \(part))" }
        return "form.append(Data(\(expression).utf8), name: \(part), mimeType: \(Naming.literal(mediaType)))"
    }

    private func isText(_ type: SwiftType) -> Bool {
        switch type {
        case .primitive: return true
        case .named(let name): return isRawEnum(name)
        default: return false
        }
    }

    private func isRawEnum(_ name: String) -> Bool {
        if case .enumeration? = declarations[name] { return true }
        return false
    }
}
