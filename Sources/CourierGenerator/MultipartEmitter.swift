/// Writes `multipartFormData` for the structs that are `multipart/form-data` bodies: one part per
/// property that has a value (files for `Data`, text for the rest, JSON for objects). `Data` of
/// `format: byte` is base64 text, so its part is that text.
struct MultipartEmitter {
    let names: ModuleNames
    let declarations: [String: ModelDecl]

    func emit(_ types: [String]) -> [String] {
        var out: [String] = []
        for name in types {
            guard case .object(_, _, let properties, _)? = declarations[name] else { continue }
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
                    out += append(property.type, "value", part, base64: property.isBase64Text, indent: "            ")
                    out.append("        }")
                } else {
                    out += append(property.type, member, part, base64: property.isBase64Text, indent: "        ")
                }
            }
            out.append("        return form")
            out.append("    }")
            out.append("}")
        }
        return out
    }

    /// The statements that add `value` (of `type`) as the part `part`; `base64`: `Data` goes as
    /// base64 text.
    private func append(_ type: SwiftType, _ value: String, _ part: String, base64: Bool, indent: String) -> [String] {
        switch type {
        case .primitive("Data") where base64:
            return ["\(indent)form.append(\(value).base64EncodedString(), name: \(part))"]
        case .primitive("Data"): return ["\(indent)form.append(\(value), name: \(part), filename: \(part))"]
        case .primitive("String"): return ["\(indent)form.append(\(value), name: \(part))"]
        case .primitive("Date"): return ["\(indent)form.append(\(names.coding).text(\(value)), name: \(part))"]
        case .primitive: return ["\(indent)form.append(\"\\(\(value))\", name: \(part))"]
        case .named(let name) where isRawEnum(name):
            return ["\(indent)form.append(\"\\(\(value).rawValue)\", name: \(part))"]
        case .array(let element) where isText(element):
            return ["\(indent)for element in \(value) {"]
                + append(element, "element", part, base64: base64, indent: indent + "    ")
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
