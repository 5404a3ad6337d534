/// One parameter of an operation, as an associated value of its router case.
struct OperationParameter: Sendable {
    enum Location: String, Sendable { case path, query, header, cookie }
    var name: String
    var swiftName: String
    var location: Location
    var type: SwiftType
    var optional: Bool
    /// For a named type: whether it is a raw-value enum (sent as its `rawValue`).
    var isEnum: Bool
    var elementIsEnum: Bool
    /// For an array sent as one value, what joins its elements: `,` in the path and headers
    /// (`simple`); in the query, only with `explode: false` (`,` for `form`, a space for
    /// `spaceDelimited`, `|` for `pipeDelimited`). Nil: a query array as repeated keys.
    var separator: String?
    /// Where the parameter stands in the document (path-item parameters first): headers and
    /// cookies go out in this order, whatever order the case's associated values take.
    var position = 0
    var doc: String?
}

/// How an operation's body is sent.
enum OperationBody: Sendable {
    /// JSON from an `Encodable` value, with its media type (`application/json`, `…+json`).
    case json(SwiftType, contentType: String)
    /// `application/x-www-form-urlencoded` from an `Encodable` value.
    case form(SwiftType)
    /// `multipart/form-data`: a generated struct whose properties become the parts, or (when the
    /// document gives no object schema) a `MultipartFormData` the caller fills. `partTypes`: the
    /// media type the document's `encoding` gives a part, by property name.
    case multipart(SwiftType?, partTypes: [String: String])
    /// Raw bytes with a content type.
    case raw(contentType: String)

    var swiftType: String {
        switch self {
        case .json(let type, _), .form(let type): return type.code
        case .multipart(let type, _): return type?.code ?? "MultipartFormData"
        case .raw: return "Data"
        }
    }
}

/// An operation of the document, ready to become a router case and a service method.
struct Operation: Sendable {
    var tag: String
    var caseName: String
    var method: String
    var path: String
    /// `path`, read into its literal text and parameters.
    var template: PathTemplate
    var pointer: String
    var summary: String?
    var parameters: [OperationParameter]
    var body: OperationBody?
    var bodyName: String
    /// The success type: its JSON model; `String` (a `text/…` response) or `Data` (any other
    /// media type) when it is not JSON; `Empty` when the document describes no body.
    var response: String
    /// Whether the success value is the body itself (`decodingMode: .body`), not decoded JSON.
    var responseIsBody: Bool
    var sample: String?
    var sampleStatus: Int
    var authorization: String
    /// `deprecated: true`: its router case and service methods are marked ``deprecation``.
    var deprecated = false
    /// The attribute of a deprecated operation's declarations.
    static let deprecation = "@available(*, deprecated, message: \"The document deprecates this operation.\")"

    var pathParameters: [OperationParameter] { parameters.filter { $0.location == .path } }
    var queryParameters: [OperationParameter] { parameters.filter { $0.location == .query } }
    var headerParameters: [OperationParameter] { inDocumentOrder(.header) }
    var cookieParameters: [OperationParameter] { inDocumentOrder(.cookie) }

    private func inDocumentOrder(_ location: OperationParameter.Location) -> [OperationParameter] {
        parameters.filter { $0.location == location }.sorted { $0.position < $1.position }
    }

    /// The `Content-Type` to send instead of `application/json` (a `…+json` media type).
    var jsonContentType: String? {
        if case .json(_, let contentType)? = body, contentType != "application/json" { return contentType }
        return nil
    }

    /// The associated values, in order: path, query, header parameters (required first), then the body.
    var arguments: [(label: String, type: String, optional: Bool)] {
        var list = parameters.map { (label: $0.swiftName, type: $0.type.code, optional: $0.optional) }
        if let body { list.append((label: bodyName, type: body.swiftType, optional: false)) }
        return list
    }
}
