import Foundation

/// Where a request's parameters go and how they are encoded.
///
/// Return one from ``Router/parameters``. Query text follows ``URLEncodingOptions``
/// (Alamofire-compatible by default); JSON from dictionaries is written by Courier's own
/// validating serializer, so an unsupported value throws instead of crashing.
public enum RequestParams: Sendable {
    /// No parameters: no query is added and no body is sent.
    /// ```swift
    /// case .banner: return .requestPlain
    /// ```
    case requestPlain

    /// Parameters in the URL query, appended after any query already in the base URL or path.
    /// ```swift
    /// .query(["page": 2, "tags": ["a", "b"]])   // ?page=2&tags%5B%5D=a&tags%5B%5D=b
    /// ```
    case query(_ parameters: Parameters, options: URLEncodingOptions = .default)

    /// An `Encodable` value in the URL query, written by a ``URLFormEncoder``.
    /// ```swift
    /// .queryEncodable(SearchFilter(city: "Oslo", adults: 2))   // ?adults=2&city=Oslo
    /// ```
    case queryEncodable(_ value: any Encodable & Sendable, encoder: URLFormEncoder = URLFormEncoder())

    /// A JSON object body from a dictionary (`Content-Type: application/json`), compact with
    /// sorted keys unless `options` say otherwise (`[.sortedKeys, .prettyPrinted]`, or `[]` for
    /// keys in any order). Courier's writer reads `.sortedKeys` and `.prettyPrinted`; it never
    /// escapes `/`, so `.withoutEscapingSlashes` changes nothing.
    /// ```swift
    /// .body(["email": email, "pw": pw])   // {"email":"a@b.c","pw":"secret"}
    /// ```
    case body(_ parameters: Parameters, options: JSONEncoder.OutputFormatting = [.sortedKeys])

    /// A JSON body from an `Encodable` value (`Content-Type: application/json`).
    /// The default encoder sorts keys and does not escape `/`.
    /// ```swift
    /// .jsonEncodable(NewUser(name: "Ada", age: 36))   // {"age":36,"name":"Ada"}
    /// ```
    case jsonEncodable(_ value: any Encodable & Sendable, encoder: JSONEncoder = RequestParams.defaultJSONEncoder)

    /// Query parameters plus a JSON body from a dictionary.
    /// ```swift
    /// .queryBody(["page": 1], ["city": "Oslo"])   // ?page=1, body {"city":"Oslo"}
    /// ```
    case queryBody(_ query: Parameters, _ body: Parameters, options: URLEncodingOptions = .default)

    /// Query parameters plus a JSON body from an `Encodable` value.
    /// ```swift
    /// .queryJSONEncodable(["page": 1, "size": 20], filter)
    /// ```
    case queryJSONEncodable(
        _ query: Parameters, _ body: any Encodable & Sendable,
        encoder: JSONEncoder = RequestParams.defaultJSONEncoder, options: URLEncodingOptions = .default)

    /// Query parameters plus a raw body with the given content type.
    /// ```swift
    /// .queryData(["v": 2], csvData, contentType: "text/csv")
    /// ```
    case queryData(_ query: Parameters, _ data: Data, contentType: String, options: URLEncodingOptions = .default)

    /// An `application/x-www-form-urlencoded; charset=utf-8` body from a dictionary.
    /// ```swift
    /// .form(["user": "ada", "remember": true])   // remember=1&user=ada
    /// ```
    case form(_ parameters: Parameters, options: URLEncodingOptions = .default)

    /// An `application/x-www-form-urlencoded; charset=utf-8` body from an `Encodable` value.
    /// ```swift
    /// .formEncodable(Login(user: "ada", password: "pw"))   // password=pw&user=ada
    /// ```
    case formEncodable(_ value: any Encodable & Sendable, encoder: URLFormEncoder = URLFormEncoder())

    /// A raw body sent as is, with its content type.
    /// ```swift
    /// .data(pngData, contentType: "image/png")
    /// ```
    case data(_ data: Data, contentType: String = "application/octet-stream")

    /// A `multipart/form-data` body. File parts are streamed from disk while the request is sent
    /// (any size, exact `Content-Length`); a form of in-memory parts only is assembled when the
    /// request is built.
    /// ```swift
    /// var form = MultipartFormData(); form.append("Ada", name: "name")
    /// return .multipart(form)
    /// ```
    case multipart(MultipartFormData)

    /// Method-dependent URL encoding: the query for `GET`, `HEAD` and `DELETE`, otherwise a
    /// form body (`application/x-www-form-urlencoded; charset=utf-8`), as Alamofire's default
    /// `URLEncoding` does.
    /// ```swift
    /// .parameters(["q": "swift"])   // GET → ?q=swift, POST → body q=swift
    /// ```
    case parameters(_ parameters: Parameters, options: URLEncodingOptions = .default)

    /// Method-dependent URL encoding of an `Encodable` value, written by a ``URLFormEncoder``:
    /// the query for `GET`, `HEAD` and `DELETE`, otherwise a form body, as Alamofire's
    /// `URLEncodedFormParameterEncoder` does with its default destination.
    /// ```swift
    /// .parametersEncodable(SearchFilter(city: "Oslo"))   // GET → ?city=Oslo, POST → body city=Oslo
    /// ```
    case parametersEncodable(_ value: any Encodable & Sendable, encoder: URLFormEncoder = URLFormEncoder())

    /// A new JSON encoder with `[.sortedKeys, .withoutEscapingSlashes]`, the default for
    /// ``jsonEncodable(_:encoder:)`` and ``queryJSONEncodable(_:_:encoder:options:)``.
    @usableFromInline static var defaultJSONEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
