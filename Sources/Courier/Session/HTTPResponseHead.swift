import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The status line and headers of a response: ``DataResponse/head`` once a request has finished,
/// ``DataStreamRequest/head()`` while its body is still to come, and what a custom validation
/// (``DataRequest/validate(_:)``) reads.
public struct HTTPResponseHead: Sendable {
    let head: ResponseHead

    init(_ head: ResponseHead) {
        self.head = head
    }

    /// A head with `statusCode` and `headers` (in order, repeats allowed) for `url`; for stubs and
    /// serializers.
    package init(url: URL, statusCode: Int, httpVersion: HTTPVersion? = .http1_1, headers: HTTPHeaders = HTTPHeaders())
    {
        head = ResponseHead(
            url: url, statusCode: statusCode, httpVersion: httpVersion?.rawValue,
            fields: headers.map { ($0.name, $0.value) })
    }

    /// The HTTP status code.
    public var statusCode: Int { head.statusCode }

    /// The URL of the response (after redirects).
    public var url: URL { head.url }

    /// The HTTP version, such as `HTTP/1.1` or `HTTP/2`, when known.
    public var httpVersion: HTTPVersion? { head.httpVersion.flatMap(HTTPVersion.init(rawValue:)) }

    /// The headers in arrival order, repeated names joined with ", ".
    public var headers: HTTPHeaders { head.headers }

    /// The first value of the header `name`, matched without regard to case.
    package func value(forHeader name: String) -> String? { head.value(forHeader: name) }

    /// The same head as Foundation's `HTTPURLResponse`, for code that needs one; made on each
    /// access (``statusCode``, ``headers`` and `value(forHeader:)` are cheaper).
    package var urlResponse: HTTPURLResponse? { head.foundationResponse }
}
