/// Writes `multipartFormData` for the structs that are `multipart/form-data` bodies: one part per
/// property that has a value (files for `Data`, text for the rest, JSON for objects). `Data` of
/// `format: byte` is base64 text, so its part is that text. A file part has the media type the
/// document's `encoding` gives it, else one guessed from its name.
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
    /// base64 text; `mediaType`: a file part's type.
    private func append(
        _ type: SwiftType, _ value: String, _ part: String, base64: Bool, mediaType: String?, indent: String
    ) -> [String] {
        switch type {
        case .primitive("Data") where base64:
            return ["\(indent)form.append(\(value).base64EncodedString(), name: \(part))"]
        case .primitive("Data"):
            let type = mediaType.map { ", mimeType: \(Naming.literal($0))" } ?? ""
            return ["\(indent)form.append(\(value), name: \(part), filename: \(part)\(type))"]
        case .primitive("String"): return ["\(indent)form.append(\(value), name: \(part))"]
        case .primitive("Date"): return ["\(indent)form.append(\(names.coding).text(\(value)), name: \(part))"]
        case .primitive: return ["\(indent)form.append(\"\\(\(value))\", name: \(part))"]
        case .named(let name) where isRawEnum(name):
            return ["\(indent)form.append(\"\\(\(value).rawValue)\", name: \(part))"]
        case .array(let element) where isText(element):
            return ["\(indent)for element in \(value) {"]
                + append(element, "element", part, base64: base64, mediaType: mediaType, indent: indent + "    ")
                + ["\(indent)}"]
        default: return ["\(indent)form.append(\(names.coding).jsonText(\(value)), name: \(part))"]
        }
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
