import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The status line and headers of a response whose body is still to come (see
/// ``DataStreamRequest/head()``).
public struct HTTPResponseHead: Sendable {
    let head: ResponseHead

    init(_ head: ResponseHead) {
        self.head = head
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
    public func value(forHeader name: String) -> String? { head.value(forHeader: name) }

    /// The Foundation view of the head, made on first access.
    public var response: HTTPURLResponse? { head.foundationResponse }
}
