import Foundation
import XCTest

/// Type-checks a Swift snippet against the Courier module this test bundle was built with, to
/// prove that a misuse is a compile error (and that its corrected form compiles).
enum TypeChecker {
    struct Outcome {
        let compiled: Bool
        let diagnostics: String
    }

    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The build directory holding `Modules/` (the test bundle's own directory).
    private static var buildDirectory: URL? {
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Modules/Courier.swiftmodule").path)
        }
    }

    /// Runs `swiftc -typecheck` in Swift 6 mode on `source`, which may `import Courier`.
    static func typecheck(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        guard let build = buildDirectory else {
            XCTFail("cannot find the build directory with Modules/Courier.swiftmodule", file: file, line: line)
            return Outcome(compiled: false, diagnostics: "")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let snippet = directory.appendingPathComponent("snippet.swift")
        try Data(source.utf8).write(to: snippet)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", snippet.path,
            "-I", build.appendingPathComponent("Modules").path,
            "-I", packageRoot.appendingPathComponent("Sources/CCurl").path,
            "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CCurlShim.build/module.modulemap").path
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let diagnostics = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(compiled: process.terminationStatus == 0, diagnostics: diagnostics)
    }

    /// Asserts that `good` compiles and `bad` does not, with an error containing `message`.
    static func assertRejected(
        _ bad: String, with message: String, whileAccepting good: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let accepted = try typecheck(good, file: file, line: line)
        XCTAssertTrue(
            accepted.compiled, "the corrected form must compile:\n\(accepted.diagnostics)", file: file, line: line)
        let rejected = try typecheck(bad, file: file, line: line)
        XCTAssertFalse(rejected.compiled, "the misuse compiled", file: file, line: line)
        XCTAssertTrue(
            rejected.diagnostics.contains(message),
            "expected an error containing \"\(message)\", got:\n\(rejected.diagnostics)", file: file, line: line)
    }
}
