/// The shop API that `SplitDocumentTests` generates from: once in six files, once whole.
enum ShopInFiles {
    /// The shop API in six files: a path item, parameters, a response and schemas in other files,
    /// schemas that refer to each other across files, and a component entry that is only a
    /// reference to a file.
    static let split: [String: String] = [
        "api.yaml": """
        openapi: 3.0.3
        info: {title: Shop, version: '1'}
        servers: [{url: 'https://shop.example/v1'}]
        paths:
          /pets:
            $ref: paths/pets.yaml
          /pets/{id}:
            get:
              operationId: getPet
              tags: [pets]
              parameters:
                - $ref: 'parameters.yaml#/Id'
              responses:
                '200':
                  description: a pet
                  content:
                    application/json:
                      schema: {$ref: schemas/Pet.yaml}
                default:
                  $ref: 'common.yaml#/components/responses/Problem'
        components:
          schemas:
            Pet:
              $ref: schemas/Pet.yaml
        """,
        "paths/pets.yaml": """
        get:
          operationId: listPets
          tags: [pets]
          parameters:
            - $ref: '../parameters.yaml#/Limit'
          responses:
            '200':
              description: pets
              content:
                application/json:
                  schema:
                    type: array
                    items: {$ref: ../schemas/Pet.yaml}
        """,
        "schemas/Pet.yaml": """
        type: object
        required: [id, name]
        properties:
          id: {type: integer}
          name: {type: string}
          owner: {$ref: Owner.yaml}
          tag: {$ref: '../common.yaml#/components/schemas/Tag'}
        """,
        "schemas/Owner.yaml": """
        type: object
        properties:
          name: {type: string}
          pets:
            type: array
            items: {$ref: Pet.yaml}
        """,
        "common.yaml": """
        components:
          schemas:
            Tag: {type: string, enum: [cat, dog]}
            Problem:
              type: object
              properties:
                title: {type: string}
          responses:
            Problem:
              description: a problem
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Problem'}
        """,
        "parameters.yaml": """
        Id: {name: id, in: path, required: true, schema: {type: integer}}
        Limit: {name: limit, in: query, schema: {type: integer}}
        """
    ]

    /// The same API in one file, written by hand.
    static let whole = """
        openapi: 3.0.3
        info: {title: Shop, version: '1'}
        servers: [{url: 'https://shop.example/v1'}]
        paths:
          /pets:
            get:
              operationId: listPets
              tags: [pets]
              parameters:
                - $ref: '#/components/parameters/Limit'
              responses:
                '200':
                  description: pets
                  content:
                    application/json:
                      schema:
                        type: array
                        items: {$ref: '#/components/schemas/Pet'}
          /pets/{id}:
            get:
              operationId: getPet
              tags: [pets]
              parameters:
                - $ref: '#/components/parameters/Id'
              responses:
                '200':
                  description: a pet
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Pet'}
                default:
                  $ref: '#/components/responses/Problem'
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties:
                id: {type: integer}
                name: {type: string}
                owner: {$ref: '#/components/schemas/Owner'}
                tag: {$ref: '#/components/schemas/Tag'}
            Owner:
              type: object
              properties:
                name: {type: string}
                pets:
                  type: array
                  items: {$ref: '#/components/schemas/Pet'}
            Tag: {type: string, enum: [cat, dog]}
            Problem:
              type: object
              properties:
                title: {type: string}
          parameters:
            Id: {name: id, in: path, required: true, schema: {type: integer}}
            Limit: {name: limit, in: query, schema: {type: integer}}
          responses:
            Problem:
              description: a problem
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Problem'}
        """
}
