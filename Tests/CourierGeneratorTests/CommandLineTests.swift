import Foundation
import XCTest

/// The courier-generate executable: usage errors, rejected documents, and the output directory
/// it keeps in step with the document.
final class CommandLineTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var binary = directory.appendingPathComponent("courier-generate")
        if !FileManager.default.isExecutableFile(atPath: binary.path) {
            // `swift test` runs the test bundle from inside .build/<triple>/debug.
            binary = directory.deletingLastPathComponent().appendingPathComponent("courier-generate")
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "missing \(binary.path)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }

    private func write(_ text: String, to name: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testWithoutADocumentItPrintsTheUsage() throws {
        let result = try run(["--output", scratch.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.contains("usage: courier-generate <document> --output <dir>"), result.errors)
    }

    func testAnUnsupportedVersionIsRejectedWithItsPointerAndNothingIsWritten() throws {
        let document = try write("swagger: '1.2'\ninfo: {title: t, version: '1'}\npaths: {}\n", to: "old.yaml")
        let output = scratch.appendingPathComponent("out")
        let result = try run([document, "--output", output.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.errors,
            "courier-generate: \(document)#/swagger: unsupported version: Swagger 1.2; courier-generate reads "
                + "Swagger 2.0, OpenAPI 3.0 and 3.1\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    /// References to other files are read relative to the document; an error in one of them names
    /// it as the document is named, from where the command runs.
    func testADocumentSplitOverFilesIsGeneratedAndItsErrorsNameTheFile() throws {
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("spec/schemas"), withIntermediateDirectories: true)
        let document = try write(
            """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets: {$ref: 'paths.yaml#/Pets'}
            """, to: "spec/api.yaml")
        _ = try write(
            """
            Pets:
              get:
                operationId: listPets
                responses:
                  '200':
                    description: pets
                    content: {application/json: {schema: {type: array, items: {$ref: schemas/Pet.yaml}}}}
            """, to: "spec/paths.yaml")
        _ = try write("type: object\nproperties:\n  name: {type: string}\n", to: "spec/schemas/Pet.yaml")
        let output = scratch.appendingPathComponent("out")
        var result = try run([document, "--output", output.path, "--no-format"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output.appendingPathComponent("Models/Pet.swift").path))

        _ = try write("type: object\nproperties:\n  name: {type: text}\n", to: "spec/schemas/Pet.yaml")
        result = try run([document, "--output", output.path, "--no-format"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.errors,
            "courier-generate: \(scratch.path)/spec/schemas/Pet.yaml#/properties/name/type: unknown schema type \"text\"\n"
        )
    }

    func testRegeneratingRemovesStaleGeneratedFilesAndKeepsOthers() throws {
        let output = scratch.appendingPathComponent("out")
        let twoTags = """
            openapi: 3.0.0
            info: {title: t, version: '1'}
            paths:
              /a: {get: {tags: [A], operationId: a, responses: {'204': {description: none}}}}
              /b: {get: {tags: [B], operationId: b, responses: {'204': {description: none}}}}
            """
        var result = try run([try write(twoTags, to: "api.yaml"), "--output", output.path, "--no-format"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "courier-generate: wrote 5 files to \(output.path)\n")
        let handWritten = output.appendingPathComponent("Routers/Extra.swift")
        try Data("// mine\n".utf8).write(to: handWritten)
        let oneTag = twoTags.replacingOccurrences(of: "tags: [B]", with: "tags: [A]")
        result = try run([try write(oneTag, to: "api.yaml"), "--output", output.path, "--no-format"])
        XCTAssertEqual(result.status, 0, result.errors)
        let files = try GoldenTests.swiftFiles(in: output)
        XCTAssertEqual(
            files, ["APISupport.swift", "Routers/ARouter.swift", "Routers/Extra.swift", "Services/AService.swift"])
    }

    /// Components named like the module's support types are named around them, so the support's
    /// `APIOpenEnum` protocol (which every enum adopts) and `APICoding` are never redeclared.
    func testComponentsNamedLikeTheSupportTypesAreRenamed() throws {
        let output = scratch.appendingPathComponent("out")
        let document = """
            openapi: 3.0.0
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  tags: [A]
                  operationId: a
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {$ref: '#/components/schemas/APICoding'}}}
            components:
              schemas:
                APIOpenEnum: {type: string, enum: [x, y]}
                APICoding:
                  type: object
                  properties: {mode: {$ref: '#/components/schemas/APIOpenEnum'}}
            """
        let result = try run([try write(document, to: "api.yaml"), "--output", output.path, "--no-format"])
        XCTAssertEqual(result.status, 0, result.errors)
        let files = try GoldenTests.swiftFiles(in: output)
        XCTAssertFalse(files.contains("Models/APIOpenEnum.swift"), "\(files)")
        XCTAssertFalse(files.contains("Models/APICoding.swift"), "\(files)")
        let support = try String(contentsOf: output.appendingPathComponent("APISupport.swift"), encoding: .utf8)
        XCTAssertTrue(support.contains("public protocol APIOpenEnum: RawRepresentable"), support)
        let enumFile = try XCTUnwrap(files.first { $0.hasPrefix("Models/APIOpenEnum") })
        let enumSource = try String(contentsOf: output.appendingPathComponent(enumFile), encoding: .utf8)
        XCTAssertTrue(enumSource.contains(": APIOpenEnum {"), enumSource)
    }
}
