import Foundation

/// Gathers an OpenAPI document split over several files into one document, so that the rest of
/// the generator only ever follows `#/...` references.
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
    /// A value in one of the files: the file's standardized path and a local pointer (`#/...`).
    private struct Target: Hashable {
        let path: String
        let pointer: String
    }

    /// How many files one document may pull in, and how large each may be.
    static let maximumFiles = 1_000
    static let maximumFileSize = 64 << 20
    /// How many values the bundled document may have, and how many values from other files may be
    /// put in place (a path item each): files that each put another file in place twice would
    /// otherwise double at every level, as an alias bomb does.
    static let maximumValues = 4_000_000
    static let maximumPlacements = 10_000

    /// The main document's file, or nil for a document given without one.
    private let location: URL?
    /// The files read so far, by standardized path.
    private var files: [String: DocumentValue] = [:]
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
    /// The targets of the references met so far, by file and reference (see ``target(of:in:at:)``).
    private var targets: [String: Target] = [:]

    /// `root` with every reference to another file followed, and a function that turns an error
    /// about the result into one about the file (and the place in it) it came from. `location` is
    /// the main document's file; without one, a reference to another file is an error.
    static func bundle(
        _ root: DocumentValue, location: URL?
    ) throws(GeneratorError) -> (
        document: DocumentValue, original: @Sendable (GeneratorError) -> GeneratorError
    ) {
        var bundler = ReferenceBundler(location: location?.standardizedFileURL)
        for (section, entries) in root["components"]?.members ?? [] {
            bundler.names[section] = Set(entries.members.map(\.key))
        }
        bundler.reserveComponentReferences(root)
        var document: DocumentValue
        do {
            document = try bundler.walk(root, place: .root, file: nil, pointer: "#")
        } catch {
            // Met while walking what came from another file: named in that file.
            throw bundler.mapper()(error)
        }
        guard !bundler.additions.isEmpty else { return (document, bundler.mapper()) }
        var components = document["components"]?.members ?? []
        for (section, name, value) in bundler.additions {
            if let index = components.firstIndex(where: { $0.key == section }) {
                components[index].value = .object(components[index].value.members + [(name, value)])
            } else {
                components.append((section, .object([(name, value)])))
            }
        }
        document = document.replacing("components", with: .object(components))
        return (document, bundler.mapper())
    }

    private init(location: URL?) {
        self.location = location
    }

    /// A component entry of the main document that is only a reference to another file becomes
    /// the place its target is moved to: `Pet: {$ref: Pet.yaml}` makes `Pet` the schema itself,
    /// with no `Pet2` beside it. Reserved before anything else is walked, so that references met
    /// earlier find it.
    private mutating func reserveComponentReferences(_ root: DocumentValue) {
        for (section, entries) in root["components"]?.members ?? []
        where ReferencePlace.components.member(section) != .other {
            for (name, entry) in entries.members {
                guard entry.members.count == 1, let reference = entry["$ref"]?.stringValue,
                    let target = try? resolve(reference, in: nil, at: "#")
                else { continue }
                let pointer = JSONPointer.appending(JSONPointer.appending("#/components", section), name)
                if target.path != location?.path, placed[target] == nil { placed[target] = pointer }
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
        let target = try target(of: reference, in: file, at: pointer)
        if target.path == location?.path || (file == nil && reference.hasPrefix("#")) {
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
        let resolved = try self.value(at: target, reference: reference, pointer: pointer)
        if placed[target] == pointer {
            // The component entry reserved for it: the value itself goes here.
            return try move(resolved, from: target, place: place, to: pointer)
        }
        guard let section = Self.section(of: target) ?? (Self.namesAWhole(target) ? place.section : nil) else {
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
        let destination = JSONPointer.appending(JSONPointer.appending("#/components", section), name)
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
        origins.append((pointer, displayName(target.path), target.pointer))
        return try walk(value, place: place, file: target.path, pointer: pointer)
    }

    // MARK: Targets

    /// The file and pointer `reference` names, read relative to `file` (nil: the main document);
    /// each reference of each file is worked out once.
    private mutating func target(
        of reference: String, in file: String?, at pointer: String
    ) throws(GeneratorError) -> Target {
        let key = (file ?? "") + "\u{0}" + reference
        if let known = targets[key] { return known }
        let target = try resolve(reference, in: file, at: pointer)
        targets[key] = target
        return target
    }

    private func resolve(_ reference: String, in file: String?, at pointer: String) throws(GeneratorError) -> Target {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let address = String(parts[0])
        let fragment = parts.count > 1 ? "#" + parts[1] : "#"
        guard JSONPointer.tokens(fragment) != nil else {
            throw GeneratorError(pointer, "reference \(reference) has a fragment that is not a JSON pointer")
        }
        if address.isEmpty {
            return Target(path: file ?? location?.path ?? "", pointer: fragment)
        }
        if let colon = address.firstIndex(of: ":"), !address[..<colon].contains("/") {
            throw GeneratorError(
                pointer,
                "reference \(reference) is a URL; courier-generate reads only files (download it beside the document)")
        }
        guard let location else {
            throw GeneratorError(
                pointer, "reference \(reference) names another file; generate from the document's file to follow it")
        }
        let relativePath = address.removingPercentEncoding ?? address
        let base = file.map { URL(fileURLWithPath: $0) } ?? location
        let url =
            relativePath.hasPrefix("/")
            ? URL(fileURLWithPath: relativePath)
            : URL(fileURLWithPath: relativePath, relativeTo: base.deletingLastPathComponent())
        return Target(path: url.standardizedFileURL.path, pointer: fragment)
    }

    /// The value `target` names, reading its file the first time.
    private mutating func value(
        at target: Target, reference: String, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        let document: DocumentValue
        if let read = files[target.path] {
            document = read
        } else {
            guard files.count < Self.maximumFiles else {
                throw GeneratorError(pointer, "the document reads more than \(Self.maximumFiles) files")
            }
            // Only a regular file of a bounded size: a reference to a device (`/dev/zero`) or a
            // huge file ends with an error rather than a read that never ends.
            let attributes = try? FileManager.default.attributesOfItem(atPath: target.path)
            guard attributes?[.type] as? FileAttributeType == .typeRegular,
                let size = attributes?[.size] as? NSNumber, size.intValue <= Self.maximumFileSize,
                let data = FileManager.default.contents(atPath: target.path)
            else {
                let why = attributes == nil ? "cannot read" : "not a file of at most \(Self.maximumFileSize) bytes:"
                throw GeneratorError(pointer, "reference \(reference): \(why) \(displayName(target.path))")
            }
            do {
                document = try DocumentLoader.load(data)
            } catch {
                throw GeneratorError(error.pointer, error.message, file: displayName(target.path))
            }
            files[target.path] = document
        }
        guard let value = document.value(at: JSONPointer.tokens(target.pointer) ?? []) else {
            throw GeneratorError(pointer, "reference \(reference) points at nothing in \(displayName(target.path))")
        }
        return value
    }

    /// The section a pointer of the form `#/components/<section>/<name>` names.
    private static func section(of target: Target) -> String? {
        guard let tokens = JSONPointer.tokens(target.pointer), tokens.count == 3, tokens[0] == "components",
            ReferencePlace.components.member(tokens[1]).section == tokens[1]
        else { return nil }
        return tokens[1]
    }

    /// Where the value `target` points into now is, when a value containing it was moved into
    /// `components` (the longest such): `Pet.yaml#/properties/tag` is
    /// `#/components/schemas/Pet/properties/tag` once `Pet.yaml` is the component `Pet`.
    private func movedContainer(of target: Target) -> String? {
        var tokens = target.pointer.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var rest: [String] = []
        while tokens.count > 1 {
            rest.insert(tokens.removeLast(), at: 0)
            if let moved = placed[Target(path: target.path, pointer: tokens.joined(separator: "/"))],
                moved.hasPrefix("#/components/")
            {
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

    /// A file as errors name it: relative to the main document's directory when it is below it.
    private func displayName(_ path: String) -> String {
        guard let directory = location?.deletingLastPathComponent().path else { return path }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
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

extension DocumentValue {
    /// This object with the member `key` set to `value` (added at the end when missing).
    func replacing(_ key: String, with value: DocumentValue) -> DocumentValue {
        var members = self.members
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }
}
