import Foundation

/// The files an OpenAPI document's `$ref`s name (``ReferenceBundler``): where a reference leads,
/// a file and a pointer into it, and the value there. Each file is read once, only if it is a
/// regular file of at most ``maximumFileSize`` bytes, and at most ``maximumFiles`` of them.
struct ReferencedFiles {
    /// A value in one of the files: the file's standardized path and a local pointer (`#/...`).
    struct Target: Hashable {
        let path: String
        let pointer: String
    }

    /// How many files one document may pull in, and how large each may be.
    static let maximumFiles = 1_000
    static let maximumFileSize = 64 << 20

    /// The main document's file, or nil for a document given without one.
    let location: URL?
    /// The files read so far, by standardized path.
    private var documents: [String: DocumentValue] = [:]
    /// The targets of the references met so far, by file and reference (see ``target(of:in:at:)``).
    private var targets: [String: Target] = [:]

    init(location: URL?) {
        self.location = location
    }

    /// The file and pointer `reference` names, read relative to `file` (nil: the main document);
    /// each reference of each file is worked out once.
    mutating func target(
        of reference: String, in file: String?, at pointer: String
    ) throws(GeneratorError) -> Target {
        let key = (file ?? "") + "\u{0}" + reference
        if let known = targets[key] { return known }
        let target = try resolve(reference, in: file, at: pointer)
        targets[key] = target
        return target
    }

    func resolve(_ reference: String, in file: String?, at pointer: String) throws(GeneratorError) -> Target {
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
    mutating func value(
        at target: Target, reference: String, pointer: String
    ) throws(GeneratorError) -> DocumentValue {
        let document: DocumentValue
        if let read = documents[target.path] {
            document = read
        } else {
            guard documents.count < Self.maximumFiles else {
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
            documents[target.path] = document
        }
        guard let value = document.value(at: JSONPointer.tokens(target.pointer) ?? []) else {
            throw GeneratorError(pointer, "reference \(reference) points at nothing in \(displayName(target.path))")
        }
        return value
    }

    /// A file as errors name it: relative to the main document's directory when it is below it.
    func displayName(_ path: String) -> String {
        guard let directory = location?.deletingLastPathComponent().path else { return path }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
