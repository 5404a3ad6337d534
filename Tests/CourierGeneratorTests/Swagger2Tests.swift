import Foundation
import XCTest

@testable import CourierGenerator

/// A Swagger 2.0 document is read as the OpenAPI 3.0 document it stands for (every conversion
/// compared with the document written by hand), and errors name places in the Swagger document.
final class Swagger2Tests: XCTestCase {
    private static let swagger = """
        swagger: "2.0"
        info: {title: Shop, version: "1"}
        host: shop.example
        basePath: /v1
        schemes: [http, https]
        consumes: [application/json]
        produces: [application/json]
        securityDefinitions:
          key: {type: apiKey, name: X-Key, in: header}
          login: {type: basic, description: Basic login}
          oauth: {type: oauth2, flow: accessCode, authorizationUrl: "https://a.example/auth", tokenUrl: "https://a.example/token", scopes: {read: Read}}
        security: [{key: []}]
        parameters:
          limit: {name: limit, in: query, type: integer, format: int32}
          order: {name: order, in: body, required: true, schema: {$ref: "#/definitions/Order"}}
        responses:
          NotFound: {description: missing, schema: {$ref: "#/definitions/Error"}}
        paths:
          /orders/{id}:
            parameters:
              - {name: id, in: path, required: true, type: string}
              - {name: trace, in: header, type: string}
            get:
              operationId: getOrder
              tags: [orders]
              parameters:
                - {name: trace, in: header, type: integer}
                - {name: ids, in: query, type: array, items: {type: integer}}
                - {name: tags, in: query, type: array, collectionFormat: multi, items: {type: string, enum: [a, b]}}
                - {name: codes, in: query, type: array, collectionFormat: pipes, items: {type: string}}
                - $ref: "#/parameters/limit"
              responses:
                "200": {description: the order, schema: {$ref: "#/definitions/Order"}, examples: {application/json: {id: "1"}}}
                "404": {$ref: "#/responses/NotFound"}
            put:
              operationId: putOrder
              parameters:
                - $ref: "#/parameters/order"
              responses:
                "204": {description: done}
          /upload:
            post:
              operationId: upload
              consumes: [multipart/form-data]
              produces: [text/plain]
              parameters:
                - {name: file, in: formData, type: file, required: true}
                - {name: note, in: formData, type: string, description: a note}
              responses:
                "200": {description: ok, schema: {type: string}}
          /login:
            post:
              operationId: login
              parameters:
                - {name: user, in: formData, type: string, required: true}
              responses:
                default: {description: anything}
        definitions:
          Order:
            type: object
            discriminator: kind
            required: [id, kind]
            properties:
              id: {type: string}
              kind: {type: string}
              note: {type: string, x-nullable: true}
              lines: {type: array, items: {$ref: "#/definitions/Line"}}
          Line: {type: object, additionalProperties: {type: integer}}
          Error: {type: object, properties: {message: {type: string}}}
        """

    private static let openAPI = """
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        servers: [{url: "https://shop.example/v1"}]
        security: [{key: []}]
        paths:
          /orders/{id}:
            get:
              operationId: getOrder
              tags: [orders]
              responses:
                "200":
                  description: the order
                  content:
                    application/json: {schema: {$ref: "#/components/schemas/Order"}, example: {id: "1"}}
                "404": {$ref: "#/components/responses/NotFound"}
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - {name: trace, in: header, schema: {type: integer}}
                - {name: ids, in: query, style: form, explode: false, schema: {type: array, items: {type: integer}}}
                - name: tags
                  in: query
                  style: form
                  explode: true
                  schema: {type: array, items: {type: string, enum: [a, b]}}
                - name: codes
                  in: query
                  style: pipeDelimited
                  explode: false
                  schema: {type: array, items: {type: string}}
                - $ref: "#/components/parameters/limit"
            put:
              operationId: putOrder
              responses:
                "204": {description: done}
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - {name: trace, in: header, schema: {type: string}}
              requestBody:
                required: true
                content:
                  application/json: {schema: {$ref: "#/components/schemas/Order"}}
          /upload:
            post:
              operationId: upload
              responses:
                "200": {description: ok, content: {text/plain: {schema: {type: string}}}}
              requestBody:
                required: true
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      properties:
                        file: {type: string, format: binary}
                        note: {type: string, description: a note}
                      required: [file]
          /login:
            post:
              operationId: login
              responses:
                default: {description: anything}
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, properties: {user: {type: string}}, required: [user]}
        components:
          schemas:
            Order:
              type: object
              discriminator: {propertyName: kind}
              required: [id, kind]
              properties:
                id: {type: string}
                kind: {type: string}
                note: {type: string, nullable: true}
                lines: {type: array, items: {$ref: "#/components/schemas/Line"}}
            Line: {type: object, additionalProperties: {type: integer}}
            Error: {type: object, properties: {message: {type: string}}}
          parameters:
            limit: {name: limit, in: query, schema: {type: integer, format: int32}}
          responses:
            NotFound:
              description: missing
              content:
                application/json: {schema: {$ref: "#/components/schemas/Error"}}
          securitySchemes:
            key: {type: apiKey, name: X-Key, in: header}
            login: {type: http, scheme: basic, description: Basic login}
            oauth:
              type: oauth2
              flows:
                authorizationCode:
                  authorizationUrl: "https://a.example/auth"
                  tokenUrl: "https://a.example/token"
                  scopes: {read: Read}
        """

    func testASwaggerDocumentReadsAsTheOpenAPIDocumentItStandsFor() throws {
        let converted = try Swagger2Converter.convert(try DocumentLoader.load(Data(Self.swagger.utf8))).document
        let expected = try DocumentLoader.load(Data(Self.openAPI.utf8))
        XCTAssertEqual(converted, expected)
        if converted != expected {
            // Member by member, so a difference names its place.
            for (key, value) in expected.members { XCTAssertEqual(converted[key], value, key) }
            for (path, item) in expected["paths"]?.members ?? [] {
                for (method, operation) in item.members {
                    XCTAssertEqual(converted["paths"]?[path]?[method], operation, "\(path) \(method)")
                }
            }
        }
    }

    /// Both documents generate the same Swift, but for the header naming the document.
    func testBothFormsGenerateTheSameCode() throws {
        func generated(_ text: String) throws -> [GeneratedFile] {
            try Generator.generate(document: Data(text.utf8), sourceName: "shop.yaml", moduleName: "Shop")
        }
        let fromSwagger = try generated(Self.swagger)
        let fromOpenAPI = try generated(Self.openAPI)
        XCTAssertEqual(fromSwagger.map(\.path), fromOpenAPI.map(\.path))
        XCTAssertEqual(fromSwagger, fromOpenAPI)
        XCTAssertTrue(
            fromSwagger.contains { $0.contents.contains(#"baseURL: String = "https://shop.example/v1""#) })
    }

    func testServersFollowHostBasePathAndSchemes() throws {
        let cases: [(String, String)] = [
            ("host: a.example\nbasePath: /v2\nschemes: [http]", "http://a.example/v2"),
            ("host: a.example\nschemes: [http, https]", "https://a.example"),
            ("host: a.example", "https://a.example"),
            ("host: a.example\nschemes: [ws, http]", "http://a.example"),
            ("host: a.example\nschemes: [wss]", "https://a.example"),
            ("basePath: /api", "/api"),
            ("info: {title: t}", "/")
        ]
        for (fields, url) in cases {
            let converted = try Swagger2Converter.convert(
                try DocumentLoader.load(Data("swagger: '2.0'\n\(fields)\npaths: {}\n".utf8))
            ).document
            XCTAssertEqual(converted["servers"], .array([.object([("url", .string(url))])]), fields)
        }
    }

    /// A message names the place in the Swagger document, not in the converted one.
    func testErrorsNameThePlaceInTheSwaggerDocument() {
        let failures: [(String, GeneratorError)] = [
            (
                "swagger: '1.2'\npaths: {}\n",
                GeneratorError(
                    "#/swagger",
                    "unsupported version: Swagger 1.2; courier-generate reads Swagger 2.0, OpenAPI 3.0 and 3.1")
            ),
            (
                "swagger: '2.0'\npaths: {}\ndefinitions:\n  A: {$ref: '#/definitions/Missing'}\n",
                GeneratorError("#/definitions/A", "reference #/definitions/Missing points at nothing")
            ),
            (
                "swagger: '2.0'\npaths:\n  /a:\n    get:\n      parameters:\n"
                    + "        - {name: x, in: query, type: array, collectionFormat: tsv, items: {type: string}}\n"
                    + "      responses: {'204': {description: none}}\n",
                GeneratorError(
                    "#/paths/~1a/get/parameters/0/collectionFormat",
                    "collectionFormat tsv is not supported (csv, multi, ssv and pipes are)")
            ),
            (
                "swagger: '2.0'\npaths:\n  /a:\n    get:\n      parameters: [{$ref: '#/parameters/nope'}]\n"
                    + "      responses: {'204': {description: none}}\n",
                GeneratorError("#/paths/~1a/get/parameters/0", "reference #/parameters/nope points at no parameter")
            ),
            (
                // A path item's parameter, after a body parameter: named where it was declared.
                "swagger: '2.0'\npaths:\n  /a:\n    parameters:\n      - {name: b, in: body, schema: {type: object}}\n"
                    + "      - {name: x, in: query, type: array, items: {$ref: '#/definitions/Missing'}}\n"
                    + "    post:\n      parameters: [{name: y, in: header, type: string}]\n"
                    + "      responses: {'204': {description: none}}\n",
                GeneratorError("#/paths/~1a/parameters/1/items", "reference #/definitions/Missing points at nothing")
            ),
            (
                "swagger: '2.0'\npaths:\n  /a:\n    post:\n"
                    + "      parameters: [{name: b, in: body, schema: {$ref: '#/definitions/Missing'}}]\n"
                    + "      responses: {'204': {description: none}}\n",
                GeneratorError("#/paths/~1a/post", "reference #/definitions/Missing points at nothing")
            ),
            (
                "swagger: '2.0'\npaths:\n  /a:\n    get:\n"
                    + "      responses: {'200': {description: x, schema: {$ref: '#/definitions/Missing'}}}\n",
                GeneratorError(
                    "#/paths/~1a/get/responses/200/schema", "reference #/definitions/Missing points at nothing")
            )
        ]
        for (document, expected) in failures {
            XCTAssertThrowsError(
                try Generator.generate(document: Data(document.utf8), sourceName: "s.yaml", moduleName: "S"), document
            ) { error in
                XCTAssertEqual(error as? GeneratorError, expected, document)
            }
        }
    }
}
