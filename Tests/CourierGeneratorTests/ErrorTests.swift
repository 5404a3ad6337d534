import CourierGenerator
import Foundation
import XCTest

/// Documents the generator cannot handle give an error naming a JSON pointer, never a crash.
final class ErrorTests: XCTestCase {
    private func error(_ document: String) -> GeneratorError? {
        do {
            _ = try Generator.generate(document: Data(document.utf8), sourceName: "test", moduleName: "T")
            return nil
        } catch {
            return error
        }
    }

    private static let paths = "paths: {}\ninfo: {title: t, version: '1'}\n"

    func testRejectionsNameTheirPlace() {
        let table: [(document: String, pointer: String, message: String)] = [
            ("swagger: '1.2'\n" + Self.paths, "#/swagger", "unsupported version: Swagger 1.2"),
            ("{\"swagger\": \"3.0\", \"paths\": {}}", "#/swagger", "unsupported version: Swagger 3.0"),
            ("openapi: 4.0.0\n" + Self.paths, "#/openapi", "unsupported version: OpenAPI 4.0.0"),
            (Self.paths, "#", "no \"openapi\" version"),
            ("- a\n- b\n", "#", "not an object"),
            ("openapi: 3.0.0\npaths: [\n", "#", "not valid YAML"),
            ("{\"openapi\": \"3.0.0\", ", "#", "not valid JSON"),
            ("openapi: 3.0.0\npaths: 12\n", "#/paths", "paths must be an object"),
            (
                "openapi: 3.0.0\npaths:\n  /a/{id}:\n    get:\n      responses: {}\n", "#/paths/~1a~1{id}/get",
                "path parameter {id} is not declared"
            ),
            (
                "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: x\n"
                    + "          content:\n            application/json:\n              schema:\n"
                    + "                $ref: 'other.yaml#/Pet'\n",
                "#/paths/~1a/get/responses/200/content/application~1json/schema",
                "reference other.yaml#/Pet names another file; generate from the document's file to follow it"
            ),
            (
                "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      $ref: '#/components/schemas/Missing'\n",
                "#/components/schemas/A", "reference #/components/schemas/Missing points at nothing"
            ),
            (
                "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      type: widget\n", "#/components/schemas/A/type",
                "unknown schema type \"widget\""
            ),
            (
                "openapi: 3.1.0\nsecurity: [{nope: []}]\npaths:\n  /a:\n    get:\n      responses: {}\n", "#/security",
                "security scheme nope is not declared"
            ),
            (
                "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      parameters:\n        - {in: query}\n      responses: {}\n",
                "#/paths/~1a/get/parameters/0", "a parameter has no name"
            ),
            (
                "openapi: 3.0.0\npaths:\n  /a/{id:\n    get:\n      responses: {}\n", "#/paths/~1a~1{id/get",
                "the path /a/{id has a { that is not closed"
            ),
            (
                "openapi: 3.0.0\npaths:\n  /a/id}:\n    get:\n      responses: {}\n", "#/paths/~1a~1id}/get",
                "the path /a/id} has a } that closes no parameter"
            ),
            (
                "openapi: 3.0.0\npaths:\n  /a/{{id}}:\n    get:\n      responses: {}\n", "#/paths/~1a~1{{id}}/get",
                "the path /a/{{id}} opens a parameter inside another"
            ),
            (
                "openapi: 3.1.0\ncomponents:\n  schemas:\n    P: {allOf: [{oneOf: [{type: string}, {type: integer}]}, "
                    + "{properties: {x: {type: string}}}]}\n",
                "#/components/schemas/P/allOf/0/oneOf", "oneOf/anyOf inside allOf is not supported"
            ),
            (
                "openapi: 3.1.0\ncomponents:\n  schemas:\n    K: {anyOf: [{type: string}, {type: integer}]}\n"
                    + "    P: {allOf: [{$ref: '#/components/schemas/K'}, {properties: {x: {type: string}}}]}\n",
                "#/components/schemas/P/allOf/0",
                "the allOf part #/components/schemas/K/anyOf is a union: oneOf/anyOf inside allOf is not supported"
            )
        ]
        for row in table {
            guard let error = error(row.document) else {
                XCTFail("accepted: \(row.document)")
                continue
            }
            XCTAssertEqual(error.pointer, row.pointer, row.document)
            XCTAssertTrue(error.message.contains(row.message), "\(error.message) does not say \(row.message)")
        }
    }

    func testAliasBombsAndDeepNestingAreRefusedNotExpanded() {
        var bomb = "openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<9 {
            bomb +=
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        XCTAssertTrue(error(bomb)?.message.contains("expands to more than") == true)
        let deep = "openapi: 3.0.0\nx: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        XCTAssertTrue(error(deep)?.message.contains("nested deeper than") == true)
        let cycle = error("openapi: 3.1.0\nx: &a [*a]\n")
        XCTAssertTrue(cycle?.message.contains("recursive alias") == true)
        XCTAssertEqual(cycle?.pointer, "#/x/0")
    }

    func testCyclesNoSwiftTypeCanExpressAreRefused() {
        let only = "the schema is only references that lead back to it"
        let table: [(schemas: String, pointer: String, message: String)] = [
            (
                "C: {allOf: [{$ref: '#/components/schemas/C'}, {properties: {x: {type: string}}}]}\n"
                    + "A: {$ref: '#/components/schemas/B'}\nB: {$ref: '#/components/schemas/A'}",
                "#/components/schemas/A", "\(only) (A → B → A), so it describes no value"
            ),
            (
                "Loop: {$ref: '#/components/schemas/Loop'}", "#/components/schemas/Loop",
                "\(only) (Loop → Loop), so it describes no value"
            ),
            (
                "U: {anyOf: [{$ref: '#/components/schemas/U'}, {type: string}]}", "#/components/schemas/U",
                "a variant leads back to U itself, with no object, array or map between, so decoding it would never end"
            ),
            (
                "U: {oneOf: [{$ref: '#/components/schemas/V'}, {type: string}]}\n"
                    + "V: {oneOf: [{$ref: '#/components/schemas/W'}, {type: integer}]}\nW: {$ref: '#/components/schemas/U'}",
                "#/components/schemas/U",
                "a variant leads back to U itself, with no object, array or map between, so decoding it would never end"
            )
        ]
        for (schemas, pointer, message) in table {
            let document = "openapi: 3.1.0\ncomponents:\n  schemas:\n" + Self.indented(schemas)
            XCTAssertEqual(error(document), GeneratorError(pointer, message), schemas)
        }
        // A schema that contains itself through its properties, an array or a map has values.
        let recursive = """
            C: {allOf: [{$ref: '#/components/schemas/C'}, {properties: {x: {type: string}}}]}
            Lists: {type: array, items: {$ref: '#/components/schemas/Lists'}}
            Maps: {type: object, additionalProperties: {$ref: '#/components/schemas/Maps'}}
            Tree: {oneOf: [{type: array, items: {$ref: '#/components/schemas/Tree'}}, {type: string}]}
            """
        XCTAssertNil(error("openapi: 3.1.0\ncomponents:\n  schemas:\n" + Self.indented(recursive)))
    }

    private static func indented(_ lines: String) -> String {
        lines.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
    }

    /// The third-party Swagger 2.0 document (../shared/data beside the clone, when present) is
    /// generated: its server from host, base path and schemes, its key a query parameter.
    func testTheThirdPartySwagger2DocumentIsGenerated() throws {
        let url = GoldenTests.root.appendingPathComponent("../shared/data/openapi/weatherbit.io-2.0.0.yaml")
        guard let data = FileManager.default.contents(atPath: url.standardizedFileURL.path) else {
            throw XCTSkip("../shared/data/openapi is not beside the clone")
        }
        let files = try Generator.generate(document: data, sourceName: "weatherbit.yaml", moduleName: "W")
        let support = try XCTUnwrap(files.first { $0.path == "WSupport.swift" }).contents
        XCTAssertTrue(support.contains(#"baseURL: String = "https://api.weatherbit.io/v2.0""#), support)
        let alerts = try XCTUnwrap(files.first { $0.path == "Routers/AlertsRouter.swift" }).contents
        XCTAssertTrue(alerts.contains(#"return "/alerts?lat=\(segment: lat)&lon=\(segment: lon)""#), alerts)
        XCTAssertTrue(alerts.contains(#"["key": key, "callback": callback as any Sendable]"#), alerts)
    }
}
