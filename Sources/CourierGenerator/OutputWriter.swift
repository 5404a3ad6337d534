import Foundation

/// Writes generated files into a directory, removes the generated files a previous run left
/// that this run did not produce, and formats the result with swift-format.
public enum OutputWriter {
    /// Why the files could not be written or formatted.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, with the path involved.
        public let description: String
    }

    /// Writes `files` under `directory` (created if needed).
    public static func write(_ files: [GeneratedFile], to directory: URL) throws(Failure) {
        let manager = FileManager.default
        let keep = Set(files.map { directory.appendingPathComponent($0.path).standardizedFileURL.path })
        if let enumerator = manager.enumerator(at: directory, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                guard !keep.contains(url.standardizedFileURL.path),
                    let handle = try? FileHandle(forReadingFrom: url)
                else { continue }
                let head = (try? handle.read(upToCount: Generator.headerPrefix.utf8.count)) ?? nil
                try? handle.close()
                if head.map({ String(decoding: $0, as: UTF8.self) }) == Generator.headerPrefix {
                    try? manager.removeItem(at: url)
                }
            }
        }
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            do {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
            } catch {
                throw Failure(description: "cannot write \(url.path): \(error.localizedDescription)")
            }
        }
    }

    /// Runs `swift-format format --in-place` over `directory` with `configuration` (or the
    /// `.swift-format` swift-format finds). Returns `false` when no swift-format was found.
    public static func format(_ directory: URL, configuration: URL?) throws(Failure) -> Bool {
        guard let (tool, prefix) = findSwiftFormat() else { return false }
        var arguments = prefix + ["format", "--in-place", "--recursive", "--parallel"]
        if let configuration { arguments += ["--configuration", configuration.path] }
        arguments.append(directory.path)
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(tool.path): \(error.localizedDescription)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "swift-format failed (\(process.terminationStatus)): "
                    + String(decoding: message.prefix(2000), as: UTF8.self))
        }
        return true
    }

    /// `swift-format` on the PATH (it ships with the toolchain), else `swift format`.
    private static func findSwiftFormat() -> (URL, [String])? {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["COURIER_SWIFT_FORMAT"], !explicit.isEmpty {
            return (URL(fileURLWithPath: explicit), [])
        }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for name in ["swift-format", "swift"] {
            for directory in directories {
                let path = directory + "/" + name
                if FileManager.default.isExecutableFile(atPath: path) {
                    return (URL(fileURLWithPath: path), name == "swift" ? ["format"] : [])
                }
            }
        }
        return nil
    }
}
