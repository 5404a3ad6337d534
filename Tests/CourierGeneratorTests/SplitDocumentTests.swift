import CourierGenerator
import Foundation
import XCTest

/// Documents split over several files: `$ref`s to other files are gathered into the document, and
/// errors name the file they are in.
final class SplitDocumentTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("split-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: scratch)
    }

    /// Writes `files` (paths relative to the scratch directory) and returns the main one's URL.
    private func write(_ files: [String: String], main: String = "api.yaml") throws -> URL {
        for (path, text) in files {
            let url = scratch.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return scratch.appendingPathComponent(main)
    }

    private func generate(_ location: URL) throws -> [GeneratedFile] {
        try Generator.generate(
            document: Data(contentsOf: location), sourceName: "shop.yaml", moduleName: "Shop", location: location)
    }

    private func error(_ files: [String: String]) throws -> GeneratorError? {
        do {
            _ = try generate(try write(files))
            return nil
        } catch let error as GeneratorError {
            return error
        }
    }

    func testASplitDocumentGeneratesWhatTheWholeOneDoes() throws {
        let fromSplit = try generate(try write(ShopInFiles.split))
        let fromWhole = try Generator.generate(
            document: Data(ShopInFiles.whole.utf8), sourceName: "shop.yaml", moduleName: "Shop")
        XCTAssertEqual(fromSplit.map(\.path), fromWhole.map(\.path))
        XCTAssertEqual(fromSplit, fromWhole)
        // The pieces that came from other files are there, under the names their files give.
        for path in ["Models/Pet.swift", "Models/Owner.swift", "Models/Tag.swift", "Models/Problem.swift"] {
            XCTAssertTrue(fromSplit.contains { $0.path == path }, path)
        }
        XCTAssertFalse(fromSplit.contains { $0.path == "Models/Pet2.swift" })
    }

    /// A Swagger 2.0 document's definitions, parameters, responses and path items in other files.
    func testASplitSwaggerDocumentGeneratesWhatTheWholeOneDoes() throws {
        let head = "swagger: '2.0'\ninfo: {title: Shop, version: '1'}\nhost: shop.example\n"
        let location = try write([
            "api.yaml": head + """
                paths:
                  /pets: {$ref: paths/pets.yaml}
                definitions:
                  Pet: {$ref: definitions/Pet.yaml}
                """,
            "paths/pets.yaml": """
            get:
              operationId: listPets
              tags: [pets]
              produces: [application/json]
              parameters: [{$ref: '../common.yaml#/parameters/Limit'}]
              responses:
                '200': {description: pets, schema: {type: array, items: {$ref: '../definitions/Pet.yaml'}}}
                default: {$ref: '../common.yaml#/responses/Problem'}
            """,
            "definitions/Pet.yaml": "type: object\nproperties:\n  name: {type: string}\n  tag: {$ref: Tag.yaml}\n",
            "definitions/Tag.yaml": "type: string\nenum: [cat, dog]\n",
            "common.yaml": """
            parameters:
              Limit: {name: limit, in: query, type: integer}
            responses:
              Problem: {description: a problem, schema: {$ref: '#/definitions/Problem'}}
            definitions:
              Problem: {type: object, properties: {title: {type: string}}}
            """
        ])
        let whole =
            head + """
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      tags: [pets]
                      produces: [application/json]
                      parameters: [{$ref: '#/parameters/Limit'}]
                      responses:
                        '200': {description: pets, schema: {type: array, items: {$ref: '#/definitions/Pet'}}}
                        default: {$ref: '#/responses/Problem'}
                definitions:
                  Pet: {type: object, properties: {name: {type: string}, tag: {$ref: '#/definitions/Tag'}}}
                  Tag: {type: string, enum: [cat, dog]}
                  Problem: {type: object, properties: {title: {type: string}}}
                parameters:
                  Limit: {name: limit, in: query, type: integer}
                responses:
                  Problem: {description: a problem, schema: {$ref: '#/definitions/Problem'}}
                """
        XCTAssertEqual(
            try generate(location),
            try Generator.generate(document: Data(whole.utf8), sourceName: "shop.yaml", moduleName: "Shop"))

        // An error the generator finds after the conversion names the Swagger file and its place.
        try Data("type: object\nproperties:\n  name: {type: text}\n".utf8)
            .write(to: scratch.appendingPathComponent("definitions/Pet.yaml"))
        XCTAssertThrowsError(try generate(location)) {
            let error = $0 as? GeneratorError
            XCTAssertEqual(error?.file, "definitions/Pet.yaml")
            XCTAssertEqual(error?.pointer, "#/properties/name/type")
        }
    }

    func testTwoFilesWithTheSameNameBecomeTwoComponents() throws {
        let location = try write([
            "api.yaml": """
            openapi: 3.1.0
            info: {title: Zoo, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              cat: {$ref: cats/Pet.yaml}
                              dog: {$ref: dogs/Pet.yaml}
                              again: {$ref: './cats/../cats/Pet.yaml'}
            """,
            "cats/Pet.yaml": "type: object\nproperties:\n  meows: {type: boolean}\n",
            "dogs/Pet.yaml": "type: object\nproperties:\n  barks: {type: boolean}\n"
        ])
        let files = try generate(location)
        let cat = try XCTUnwrap(files.first { $0.path == "Models/Pet.swift" })
        let dog = try XCTUnwrap(files.first { $0.path == "Models/Pet2.swift" })
        XCTAssertTrue(cat.contents.contains("meows"), cat.contents)
        XCTAssertTrue(dog.contents.contains("barks"), dog.contents)
        // The same file reached by another path is the same component.
        XCTAssertFalse(files.contains { $0.path == "Models/Pet3.swift" })
    }

    /// A pointer into a file that became a component is read inside that component, as the same
    /// pointer within one document is.
    func testAPointerIntoAComponentsFileIsReadInsideTheComponent() throws {
        let head = "openapi: 3.0.3\ninfo: {title: Zoo, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
        let location = try write([
            "api.yaml": head + "    Pet: {$ref: Pet.yaml}\n    Tagged:\n      type: object\n      properties:\n"
                + "        tag: {$ref: 'Pet.yaml#/properties/tag'}\n",
            "Pet.yaml": "type: object\nproperties:\n  tag:\n    type: object\n    properties:\n"
                + "      label: {type: string}\n"
        ])
        let whole =
            head + "    Pet:\n      type: object\n      properties:\n        tag:\n          type: object\n"
            + "          properties:\n            label: {type: string}\n    Tagged:\n      type: object\n"
            + "      properties:\n        tag: {$ref: '#/components/schemas/Pet/properties/tag'}\n"
        XCTAssertEqual(
            try generate(location),
            try Generator.generate(document: Data(whole.utf8), sourceName: "shop.yaml", moduleName: "Shop"))
    }

    func testADiscriminatorMappingMayNameSchemasInOtherFiles() throws {
        let location = try write([
            "api.yaml": """
            openapi: 3.0.3
            info: {title: Zoo, version: '1'}
            paths: {}
            components:
              schemas:
                Animal:
                  oneOf: [{$ref: animals.yaml#/Cat}, {$ref: animals.yaml#/Dog}]
                  discriminator:
                    propertyName: kind
                    mapping: {cat: animals.yaml#/Cat, dog: animals.yaml#/Dog}
            """,
            "animals.yaml": """
            Cat: {type: object, required: [kind], properties: {kind: {type: string}}}
            Dog: {type: object, required: [kind], properties: {kind: {type: string}}}
            """
        ])
        let animal = try XCTUnwrap(try generate(location).first { $0.path == "Models/Animal.swift" })
        XCTAssertTrue(animal.contents.contains("\"cat\""), animal.contents)
        XCTAssertTrue(animal.contents.contains("\"dog\""), animal.contents)
    }

    /// Each error names its place: in the main document (no file) or in the file it is in.
    func testErrorsNameTheFileAndThePlace() throws {
        let head = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
        func schemaAt(_ reference: String) -> String {
            head + "paths: {}\ncomponents:\n  schemas:\n    A:\n      type: object\n      properties:\n"
                + "        b: {$ref: '\(reference)'}\n"
        }
        let cases: [(files: [String: String], file: String?, pointer: String, message: String)] = [
            (
                ["api.yaml": schemaAt("missing.yaml")], nil, "#/components/schemas/A/properties/b",
                "reference missing.yaml: cannot read missing.yaml"
            ),
            (
                ["api.yaml": schemaAt("/dev/zero")], nil, "#/components/schemas/A/properties/b",
                "reference /dev/zero: not a file of at most 67108864 bytes: /dev/zero"
            ),
            (
                ["api.yaml": schemaAt("schemas"), "schemas/Pet.yaml": "type: string\n"], nil,
                "#/components/schemas/A/properties/b",
                "reference schemas: not a file of at most 67108864 bytes: schemas"
            ),
            (
                ["api.yaml": schemaAt("https://example.com/pet.yaml")], nil, "#/components/schemas/A/properties/b",
                "reference https://example.com/pet.yaml is a URL; courier-generate reads only files"
            ),
            (
                ["api.yaml": schemaAt("common.yaml#/Nothing"), "common.yaml": "Something: {type: string}\n"], nil,
                "#/components/schemas/A/properties/b", "reference common.yaml#/Nothing points at nothing in common.yaml"
            ),
            (
                ["api.yaml": schemaAt("bad/B.yaml"), "bad/B.yaml": "type: object\nproperties:\n  x: {type: widget}\n"],
                "bad/B.yaml", "#/properties/x/type", "unknown schema type \"widget\""
            ),
            (
                ["api.yaml": schemaAt("b/B.yaml"), "b/B.yaml": "type: object\nproperties:\n  c: {$ref: C.yaml}\n"],
                "b/B.yaml", "#/properties/c", "reference C.yaml: cannot read b/C.yaml"
            ),
            (
                ["api.yaml": schemaAt("types.yaml#/Bad"), "types.yaml": "Bad:\n  type: widget\n"],
                "types.yaml", "#/Bad/type", "unknown schema type \"widget\""
            ),
            (
                ["api.yaml": schemaAt("broken.yaml"), "broken.yaml": "type: [\n"], "broken.yaml", "#",
                "not valid YAML"
            ),
            (
                ["api.yaml": head + "paths:\n  /a: {$ref: paths/a.yaml}\n", "paths/a.yaml": "get: 12\n"],
                "paths/a.yaml", "#/get", "an operation must be an object"
            ),
            (
                ["api.yaml": head + "paths:\n  /a: {$ref: loop.yaml}\n", "loop.yaml": "$ref: loop.yaml\n"],
                "loop.yaml", "#", "the reference loop.yaml includes itself"
            )
        ]
        for (files, file, pointer, message) in cases {
            let error = try XCTUnwrap(try self.error(files), message)
            XCTAssertEqual(error.file, file, message)
            XCTAssertEqual(error.pointer, pointer, message)
            XCTAssertTrue(error.message.contains(message), "\(error.message) does not contain \(message)")
        }
    }

    func testWithoutItsLocationADocumentCannotFollowAReferenceToAFile() {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths: {}
            components: {schemas: {A: {$ref: other.yaml}}}
            """
        XCTAssertThrowsError(try Generator.generate(document: Data(document.utf8), sourceName: "t", moduleName: "T")) {
            let error = $0 as? GeneratorError
            XCTAssertEqual(error?.pointer, "#/components/schemas/A")
            XCTAssertTrue(
                error?.message.contains("names another file; generate from the document's file") == true, "\($0)")
        }
    }

    /// Files that each put another file in place twice would double at every level; the
    /// generator stops at its limit instead of growing without bound.
    func testReferencesThatMultiplyAreRefused() throws {
        var files = [
            "api.yaml":
                "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    servers: [{$ref: level0.yaml}]\n"
        ]
        for level in 0..<40 {
            files["level\(level).yaml"] = "a: {$ref: level\(level + 1).yaml}\nb: {$ref: level\(level + 1).yaml}\n"
        }
        files["level40.yaml"] = "url: https://example.com\n"
        let error = try XCTUnwrap(try self.error(files))
        XCTAssertTrue(error.message.contains("more than 10000 values from other files are put in place"), error.message)
    }
}
