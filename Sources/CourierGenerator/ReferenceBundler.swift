import Foundation

/// Gathers an OpenAPI document split over several files into one document, so that the rest of
/// the generator only ever follows `#/...` references. A Swagger 2.0 document is gathered the same
/// way, its `definitions`, `parameters` and `responses` standing for `components` (see
/// ``container(of:)``), before it is converted.
///
/// Every `$ref` to another file (`schemas/Pet.yaml`, `common.yaml#/components/schemas/Error`) is
/// read relative to the file that holds it, and what it points at is moved into the main
/// document:
/// - into `components`, under the section its place calls for (a schema's `$ref` into `schemas`,
///   a parameter's into `parameters`, and so on) and the name its pointer ends with (or its file's
///   name without the extension); a name already taken by something else gets a number;
/// - in place when it is a path item (or anything else that has no section);
/// - nowhere when it lies inside a value that became a component: the reference then points
///   there (`Pet.yaml#/properties/tag` is `#/components/schemas/Pet/properties/tag`);
/// - in place of a component entry that is nothing but the reference
///   (`components: {schemas: {Pet: {$ref: Pet.yaml}}}` makes `Pet` the schema itself).
///
/// A file is read once, and what a pointer names is moved once, however many references reach it,
/// so references between files may form cycles (of schemas; path items that include each other
/// are refused). URLs are refused: the generator reads no network.
///
/// Errors name the file and the place in it (``GeneratorError/file``), also for an error the
/// generator finds later in something that was moved (see ``bundle(_:location:)``).
struct ReferenceBundler {
    private typealias Target = ReferencedFiles.Target

    /// How many values the bundled document may have, and how many values from other files may be
    /// put in place (a path item each): files that each put another file in place twice would
    /// otherwise double at every level, as an alias bomb does.
    static let maximumValues = 4_000_000
    static let maximumPlacements = 10_000

    /// The files the references name, read as they are needed.
    private var files: ReferencedFiles
    /// Whether the main document is Swagger 2.0 (see ``container(of:)``).
    private let isSwagger: Bool
    /// Where each moved value now is in the main document (a `#/components/...` pointer).
    private var placed: [Target: String] = [:]
    /// The component names in use, by section.
    private var names: [String: Set<String>] = [:]
    /// What to add to `components`, by section, in the order it was met.
    private var additions: [(section: String, name: String, value: DocumentValue)] = []
    /// Where moved values came from: the main document's pointer, the file and its pointer.
    private var origins: [(pointer: String, file: String, original: String)] = []
    /// The path items (and other values) being put in place, to refuse ones that include themselves.
    private var inlining: Set<Target> = []
    /// The values walked so far (see ``maximumValues``).
    private var walked = 0
    /// The values from other files put in place so far (see ``maximumPlacements``).
    private var placements = 0

    /// `root` with every reference to another file followed, and a function that turns an error
    /// about the result into one about the file (and the place in it) it came from. `location` is
    /// the main document's file; without one, a reference to another file is an error.
    static func bundle(
        _ root: DocumentValue, location: URL?
    ) throws(GeneratorError) -> (
        document: DocumentValue, original: @Sendable (GeneratorError) -> GeneratorError
    ) {
        // Most documents name no other file: they are left as they are, without a walk that
        // would copy the whole tree.
        guard Self.namesAnotherFile(root) else { return (root, { $0 }) }
        var bundler = ReferenceBundler(location: location?.standardizedFileURL, isSwagger: root["swagger"] != nil)
        for section in Self.sections {
            guard let container = bundler.container(of: section) else { continue }
            bundler.names[section] = Set((root.value(at: container)?.members ?? []).map(\.key))
        }
        bundler.reserveComponentReferences(root)
        var document: DocumentValue
        do {
            document = try bundler.walk(root, place: .root, file: nil, pointer: "#")
        } catch {
            // Met while walking what came from another file: named in that file.
            throw bundler.mapper()(error)
        }
        for (section, name, value) in bundler.additions {
            document = document.adding(name, value, under: bundler.container(of: section) ?? [])
        }
        return (document, bundler.mapper())
    }

    /// Whether a `$ref` in `value` is anything but a local JSON pointer (`#/...`), so that the walk
    /// has something to do (or to report).
    private static func namesAnotherFile(_ value: DocumentValue) -> Bool {
        switch value {
        case .object(let members):
            if let reference = value["$ref"]?.stringValue, JSONPointer.tokens(reference) == nil { return true }
            return members.contains { namesAnotherFile($0.value) }
        case .array(let elements):
            return elements.contains(where: namesAnotherFile)
        default:
            return false
        }
    }

    private init(location: URL?, isSwagger: Bool) {
        files = ReferencedFiles(location: location)
        self.isSwagger = isSwagger
    }

    /// The `components` sections, by their OpenAPI 3 names.
    private static let sections = [
        "schemas", "parameters", "headers", "requestBodies", "responses", "examples", "links", "callbacks",
        "securitySchemes", "pathItems"
    ]

    /// Where the components of `section` are: under `components` in OpenAPI 3, at the top in
    /// Swagger 2.0 (`definitions`, `parameters`, `responses`, its only sections); nil for a section
    /// the document cannot have.
    private func container(of section: String) -> [String]? {
        guard isSwagger else { return ["components", section] }
        switch section {
        case "schemas": return ["definitions"]
        case "parameters", "responses": return [section]
        default: return nil
        }
    }

    /// The pointer of the component `name` of `section`.
    private func pointer(of section: String, _ name: String) -> String {
        ((container(of: section) ?? []) + [name]).reduce("#") { JSONPointer.appending($0, $1) }
    }

    /// A component entry of the main document that is only a reference to another file becomes
    /// the place its target is moved to: `Pet: {$ref: Pet.yaml}` makes `Pet` the schema itself,
    /// with no `Pet2` beside it. Reserved before anything else is walked, so that references met
    /// earlier find it.
    private mutating func reserveComponentReferences(_ root: DocumentValue) {
        for section in Self.sections {
            guard let container = container(of: section) else { continue }
            for (name, entry) in root.value(at: container)?.members ?? [] {
                guard entry.members.count == 1, let reference = entry["$ref"]?.stringValue,
                    let target = try? files.resolve(reference, in: nil, at: "#")
                else { continue }
                if target.path != files.location?.path, placed[target] == nil {
                    placed[target] = self.pointer(of: section, name)
                }
            }
        }
    }

    // MARK: Walking

    private mutating func walk(
        _ value: DocumentValue, place: ReferencePlace, file: String?, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        walked += 1
        guard walked <= Self.maximumValues else {
            throw GeneratorError(
                pointer, "with the files its references read, the document has more than \(Self.maximumValues) values")
        }
        switch value {
        case .array(let elements):
            guard place != .data else { return value }
            var out: [DocumentValue] = []
            for (index, element) in elements.enumerated() {
                out.append(
                    try walk(element, place: place, file: file, pointer: JSONPointer.appending(pointer, String(index))))
            }
            return .array(out)
        case .object(let members):
            guard place != .data else { return value }
            if let reference = value["$ref"]?.stringValue {
                return try follow(reference, of: value, place: place, file: file, pointer: pointer)
            }
            var out: [(key: String, value: DocumentValue)] = []
            for (key, member) in members {
                let memberPointer = JSONPointer.appending(pointer, key)
                let memberPlace = place.member(key)
                if place == .schema, key == "discriminator" {
                    out.append((key, try discriminator(member, file: file, pointer: memberPointer)))
                } else if place.isMapOfNames(key), case .object(let entries) = member {
                    var walked: [(key: String, value: DocumentValue)] = []
                    for (name, entry) in entries {
                        walked.append(
                            (
                                name,
                                try walk(
                                    entry, place: memberPlace, file: file,
                                    pointer: JSONPointer.appending(memberPointer, name))
                            ))
                    }
                    out.append((key, .object(walked)))
                } else {
                    out.append((key, try walk(member, place: memberPlace, file: file, pointer: memberPointer)))
                }
            }
            return .object(out)
        default:
            return value
        }
    }

    /// A `$ref` at `pointer` (of the main document), written in `file` (nil: the main document).
    private mutating func follow(
        _ reference: String, of value: DocumentValue, place: ReferencePlace, file: String?, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        let target = try files.target(of: reference, in: file, at: pointer)
        if target.path == files.location?.path || (file == nil && reference.hasPrefix("#")) {
            // The main document's own: it stays a reference, written as one.
            return value.replacing("$ref", with: .string(target.pointer))
        }
        if let moved = placed[target], moved != pointer {
            return value.replacing("$ref", with: .string(moved))
        }
        if !Self.namesAWhole(target), let moved = movedContainer(of: target) {
            // Inside a value that became a component: read there, as within one document.
            return value.replacing("$ref", with: .string(moved))
        }
        let resolved = try files.value(at: target, reference: reference, pointer: pointer)
        if placed[target] == pointer {
            // The component entry reserved for it: the value itself goes here.
            return try move(resolved, from: target, place: place, to: pointer)
        }
        let section = Self.section(of: target) ?? (Self.namesAWhole(target) ? place.section : nil)
        guard let section, container(of: section) != nil else {
            placements += 1
            guard placements <= Self.maximumPlacements else {
                throw GeneratorError(
                    pointer, "more than \(Self.maximumPlacements) values from other files are put in place")
            }
            guard inlining.insert(target).inserted else {
                throw GeneratorError(pointer, "the reference \(reference) includes itself")
            }
            defer { inlining.remove(target) }
            return try move(resolved, from: target, place: place, to: pointer)
        }
        let name = Naming.unique(Self.name(of: target), in: &names[section, default: []])
        let destination = self.pointer(of: section, name)
        placed[target] = destination
        let moved = try move(resolved, from: target, place: Self.place(ofSection: section), to: destination)
        additions.append((section, name, moved))
        return value.replacing("$ref", with: .string(destination))
    }

    /// A discriminator whose `mapping` names schemas in other files: each such value becomes the
    /// pointer of the schema in the main document. A plain name stays: it names a schema of the
    /// main document, wherever the mapping is written.
    private mutating func discriminator(
        _ value: DocumentValue, file: String?, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        guard let mapping = value["mapping"], mapping.isObject else { return value }
        var out: [(key: String, value: DocumentValue)] = []
        for (key, target) in mapping.members {
            guard let reference = target.stringValue,
                reference.contains("#") || reference.contains("/") || Self.isFileName(reference)
            else {
                out.append((key, target))
                continue
            }
            let at = JSONPointer.appending(JSONPointer.appending(pointer, "mapping"), key)
            let followed = try follow(
                reference, of: .object([("$ref", .string(reference))]), place: .schema, file: file, pointer: at)
            out.append((key, followed["$ref"] ?? target))
        }
        return value.replacing("mapping", with: .object(out))
    }

    /// Whether `name` ends like a JSON or YAML file's name.
    private static func isFileName(_ name: String) -> Bool {
        [".yaml", ".yml", ".json"].contains { name.lowercased().hasSuffix($0) }
    }

    /// `value`, read from `target`, walked as the main document's value at `pointer`.
    private mutating func move(
        _ value: DocumentValue, from target: Target, place: ReferencePlace, to pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        origins.append((pointer, files.displayName(target.path), target.pointer))
        return try walk(value, place: place, file: target.path, pointer: pointer)
    }

    /// The section (by its OpenAPI 3 name) a pointer to a component names: `#/components/<section>/<name>`,
    /// or Swagger 2.0's `#/definitions/<name>`, `#/parameters/<name>` and `#/responses/<name>`.
    private static func section(of target: Target) -> String? {
        let tokens = JSONPointer.tokens(target.pointer) ?? []
        if tokens.count == 3, tokens[0] == "components",
            ReferencePlace.components.member(tokens[1]).section == tokens[1]
        {
            return tokens[1]
        }
        guard tokens.count == 2 else { return nil }
        switch tokens[0] {
        case "definitions": return "schemas"
        case "parameters", "responses": return tokens[0]
        default: return nil
        }
    }

    /// Where the value `target` points into now is, when a value containing it was moved into
    /// `components` (the longest such): `Pet.yaml#/properties/tag` is
    /// `#/components/schemas/Pet/properties/tag` once `Pet.yaml` is the component `Pet`.
    private func movedContainer(of target: Target) -> String? {
        var tokens = target.pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var rest: [String] = []
        while tokens.count > 1 {
            rest.insert(tokens.removeLast(), at: 0)
            if let moved = placed[Target(path: target.path, pointer: tokens.joined(separator: "/"))] {
                return ([moved] + rest).joined(separator: "/")
            }
        }
        return nil
    }

    /// Whether `target` is a whole file, one of its top-level members (`parameters.yaml#/Limit`) or
    /// a JSON Schema definition (`#/definitions/Pet`, `#/$defs/Pet`): what becomes a component.
    /// A pointer deeper into a value (`Pet.yaml#/properties/tag`) is read inside the component
    /// that value became (``movedContainer(of:)``), or else put in place.
    private static func namesAWhole(_ target: Target) -> Bool {
        let tokens = JSONPointer.tokens(target.pointer) ?? []
        return tokens.count <= 1 || (tokens.count == 2 && (tokens[0] == "definitions" || tokens[0] == "$defs"))
    }

    /// What a place in a section is.
    private static func place(ofSection section: String) -> ReferencePlace {
        ReferencePlace.components.member(section)
    }

    /// A component's name: the last token of the pointer, or the file's name without its extension.
    private static func name(of target: Target) -> String {
        if let last = JSONPointer.tokens(target.pointer)?.last, !last.isEmpty { return last }
        let file = URL(fileURLWithPath: target.path).deletingPathExtension().lastPathComponent
        return file.isEmpty ? "Component" : file
    }

    // MARK: Errors

    /// Maps an error about the bundled document to the file and place the value came from: the
    /// longest recorded pointer that the error's pointer starts with.
    private func mapper() -> @Sendable (GeneratorError) -> GeneratorError {
        let origins = origins.sorted { $0.pointer.count > $1.pointer.count }
        return { error in
            guard error.file == nil,
                let origin = origins.first(where: {
                    error.pointer == $0.pointer || error.pointer.hasPrefix($0.pointer + "/")
                })
            else { return error }
            let rest = error.pointer.dropFirst(origin.pointer.count)
            return GeneratorError(
                origin.original == "#" ? "#" + rest : origin.original + rest, error.message, file: origin.file)
        }
    }
}
