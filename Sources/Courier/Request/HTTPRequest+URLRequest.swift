import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPRequest {
    /// This request as a `URLRequest`, for code that wants one (interceptors' adapters, plugins'
    /// `prepare` and `willSend`, ``DataResponse/request``).
    ///
    /// A body in memory is its `httpBody`. A body read while sending (a file, a form with files,
    /// a stream) is not carried: its `httpBody` and `httpBodyStream` are nil, and a request
    /// adapted from this one keeps that body unless the adapter sets an `httpBody`.
    public var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        if method != .get { request.httpMethod = method.rawValue }
        if let timeout { request.timeoutInterval = timeout }
        if !headers.isEmpty {
            var fields: [String: String] = [:]
            fields.reserveCapacity(headers.count)
            for header in headers { fields[header.name] = header.value }
            request.allHTTPHeaderFields = fields
        }
        if case .data(let data) = body { request.httpBody = data }
        return request
    }

    /// The request an adapter or plugin returned for this one, validated.
    ///
    /// - Headers keep this request's order for the names still present (with their new values);
    ///   added ones follow, sorted by name (a `URLRequest` keeps no order).
    /// - The timeout is this one's unless the adapter changed `timeoutInterval`.
    /// - The body: the adapter's `httpBody` if it set one; none if this request's body was in
    ///   memory and the adapter removed it; else this request's body (files and streams are not
    ///   carried by ``urlRequest``).
    init(adapted: URLRequest, from original: HTTPRequest) throws(CourierError) {
        guard let url = adapted.url else { throw .invalidRequest(reason: "the adapted request has no URL") }
        if adapted.httpBodyStream != nil {
            throw .invalidRequest(reason: "httpBodyStream is not supported; use Session.upload(_:to:) or set httpBody")
        }
        let fields = adapted.allHTTPHeaderFields ?? [:]
        var headers = HTTPHeaders()
        for header in original.headers {
            if let key = fields.keys.first(where: { $0.caseInsensitiveEquals(header.name) }), let value = fields[key] {
                headers.update(name: header.name, value: value)
            }
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where headers[name] == nil {
            headers.update(name: name, value: value)
        }
        let body: Body
        if let data = adapted.httpBody {
            body = .data(data)
        } else if case .data = original.body {
            body = .none
        } else {
            body = original.body
        }
        let unchangedTimeout = adapted.timeoutInterval == (original.timeout ?? Self.foundationDefaultTimeout)
        try self.init(
            validatedMethod: HTTPMethod(rawValue: adapted.httpMethod ?? "GET"), url: url, headers: headers,
            body: body,
            timeout: unchangedTimeout
                ? original.timeout
                : (adapted.timeoutInterval == Self.foundationDefaultTimeout ? nil : adapted.timeoutInterval))
    }
}
