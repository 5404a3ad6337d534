import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The result of encoding ``RequestParams``: query text to append, a body and its type.
struct EncodedParameters: Equatable {
    /// Already-escaped `key=value&...` text, or `nil` for none.
    var query: String?
    /// The body, or `nil` for none.
    var body: Data?
    /// The `Content-Type` the body needs, or `nil`.
    var contentType: String?
    /// Whether ``contentType`` replaces a `Content-Type` the caller set (a multipart body,
    /// whose boundary is part of its type); otherwise the caller's wins.
    var contentTypeIsRequired = false

    /// Whether the request's `Content-Type` must be set to ``contentType``, given the one the
    /// caller set (if any).
    func setsContentType(over existing: String?) -> Bool {
        contentType != nil && (existing == nil || contentTypeIsRequired)
    }

    /// A body read while sending instead of `body` (a multipart form with files), or `nil`.
    var stream: UploadSegments?
}

extension RequestParams {
    /// `application/json`.
    static let jsonContentType = "application/json"
    /// `application/x-www-form-urlencoded; charset=utf-8`.
    static let formContentType = "application/x-www-form-urlencoded; charset=utf-8"

    /// Encodes these parameters for a request using `method`.
    func encoded(for method: HTTPMethod) throws -> EncodedParameters {
        switch self {
        case .requestPlain:
            return EncodedParameters()
        case .query(let parameters, let options):
            return EncodedParameters(query: try ParameterFormConverter.encode(parameters, options: options))
        case .queryEncodable(let value, let encoder):
            return EncodedParameters(query: try encoder.encode(value))
        case .body(let parameters, let options):
            return EncodedParameters(
                body: try JSONParameterSerializer.serialize(parameters, options: options),
                contentType: Self.jsonContentType)
        case .jsonEncodable(let value, let encoder):
            return EncodedParameters(body: try Self.encodeJSON(value, with: encoder), contentType: Self.jsonContentType)
        case .queryBody(let query, let body, let options):
            return EncodedParameters(
                query: try ParameterFormConverter.encode(query, options: options),
                body: try JSONParameterSerializer.serialize(body),
                contentType: Self.jsonContentType)
        case .queryJSONEncodable(let query, let body, let encoder, let options):
            return EncodedParameters(
                query: try ParameterFormConverter.encode(query, options: options),
                body: try Self.encodeJSON(body, with: encoder),
                contentType: Self.jsonContentType)
        case .queryData(let query, let data, let contentType, let options):
            return EncodedParameters(
                query: try ParameterFormConverter.encode(query, options: options), body: data, contentType: contentType)
        case .form(let parameters, let options):
            return EncodedParameters(
                body: Data(try ParameterFormConverter.encode(parameters, options: options).utf8),
                contentType: Self.formContentType)
        case .formEncodable(let value, let encoder):
            return EncodedParameters(body: try encoder.encodeAsData(value), contentType: Self.formContentType)
        case .data(let data, let contentType):
            return EncodedParameters(body: data, contentType: contentType)
        case .multipart(let form) where form.hasFileParts:
            return EncodedParameters(
                contentType: form.contentType, contentTypeIsRequired: true, stream: try form.streamedBody())
        case .multipart(let form):
            return EncodedParameters(
                body: try form.encode(), contentType: form.contentType, contentTypeIsRequired: true)
        case .parameters(let parameters, let options):
            return Self.methodDependent(try ParameterFormConverter.encode(parameters, options: options), for: method)
        case .parametersEncodable(let value, let encoder):
            return Self.methodDependent(try encoder.encode(value), for: method)
        }
    }

    /// Form text in the query for `GET`, `HEAD` and `DELETE`, otherwise as a form body.
    private static func methodDependent(_ text: String, for method: HTTPMethod) -> EncodedParameters {
        if method.encodesParametersInURL {
            return EncodedParameters(query: text)
        }
        return EncodedParameters(body: Data(text.utf8), contentType: formContentType)
    }

    /// Returns `request` with these parameters applied: query text appended to its URL
    /// (after `&` when it already has a query), the body set, and `Content-Type` set unless
    /// the request already has one (a multipart body always sets its own, which carries the
    /// boundary). The request's method (default `GET`) decides where
    /// ``parameters(_:options:)`` and ``parametersEncodable(_:encoder:)`` go. A multipart form
    /// with file parts throws ``CourierError/invalidRequest``: it is read while sending, which a
    /// `URLRequest` cannot carry (send it with a ``Router`` or ``Session/upload(_:to:method:)``).
    /// ```swift
    /// let request = try RequestParams.query(["q": "swift"]).apply(to: URLRequest(url: url))
    /// ```
    public func apply(to request: URLRequest) throws -> URLRequest {
        var request = request
        let method = HTTPMethod(rawValue: request.httpMethod ?? HTTPMethod.get.rawValue)
        let encoded = try encoded(for: method)
        if let query = encoded.query, !query.isEmpty {
            guard let url = request.url else {
                throw CourierError.invalidRequest(reason: "the request has no URL to add query parameters to")
            }
            request.url = try URLBuilder.appending(query: query, to: url)
        }
        if let body = encoded.body {
            request.httpBody = body
        } else if encoded.stream != nil {
            throw CourierError.invalidRequest(
                reason:
                    "a multipart form with file parts is read while sending and cannot be put in a URLRequest; send it with a Router or Session.upload(.multipart(form), to:)"
            )
        }
        if let contentType = encoded.contentType,
            encoded.setsContentType(over: request.value(forHTTPHeaderField: "Content-Type"))
        {
            try request.setHeaders([.contentType(contentType)])
        }
        return request
    }

    private static func encodeJSON(_ value: any Encodable & Sendable, with encoder: JSONEncoder) throws -> Data {
        do {
            return try encoder.encode(value)
        } catch let error as EncodingError {
            throw CourierError.parameterEncodingFailed(keyPath: Self.keyPath(of: error), reason: Self.reason(of: error))
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError.parameterEncodingFailed(keyPath: "", reason: "\(error)")
        }
    }

    private static func keyPath(of error: EncodingError) -> String {
        guard case .invalidValue(_, let context) = error else { return "" }
        return context.codingPath.reduce("") { path, key in
            if let index = key.intValue { return ParameterValue.path(path, index: index) }
            return ParameterValue.path(path, key: key.stringValue)
        }
    }

    private static func reason(of error: EncodingError) -> String {
        guard case .invalidValue(_, let context) = error else { return "\(error)" }
        return context.debugDescription
    }
}
