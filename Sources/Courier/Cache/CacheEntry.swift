import Foundation

/// A header field as the cache sees and keeps it: name as received, value as received.
struct CacheHeader: Codable, Equatable, Hashable, Sendable {
    var name: String
    var value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension [CacheHeader] {
    /// Every value of the field `name` (any case), in order.
    func values(_ name: String) -> [String] {
        filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The first value of the field `name` (any case).
    func first(_ name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Whether the field `name` (any case) is present.
    func contains(_ name: String) -> Bool {
        contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// The field's values joined as one list value (RFC 9110 §5.3), or nil when absent.
    func combined(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }
}

/// A request as the cache sees it: the driver passes the request it is about to send.
struct CacheRequest: Equatable, Sendable {
    /// The method, as sent (`GET`).
    var method: String
    /// The target URL.
    var url: URL
    /// The header fields, in order.
    var headers: [CacheHeader]

    init(method: String, url: URL, headers: [CacheHeader] = []) {
        self.method = method
        self.url = url
        self.headers = headers
    }
}

/// A complete response as the cache sees it: the final status, headers and the (decoded) body.
struct CacheResponse: Equatable, Sendable {
    /// The status code.
    var statusCode: Int
    /// The header fields, in order.
    var headers: [CacheHeader]
    /// The body as delivered to the caller.
    var body: Data

    init(statusCode: Int, headers: [CacheHeader] = [], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

/// A stored response and what reusing it needs (RFC 9111 §3, §4.2.3).
struct CacheEntry: Codable, Equatable, Sendable {
    /// The primary key: the target URL without its fragment (``CacheRules/key(for:)``).
    var key: String
    /// The stored status code.
    var statusCode: Int
    /// The stored header fields (hop-by-hop fields removed), in order.
    var headers: [CacheHeader]
    /// The stored body. The disk store writes it beside the metadata, not inside it.
    var body: Data
    /// When the request that produced the response was sent (`request_time`).
    var requestTime: Date
    /// When the response was received (`response_time`).
    var responseTime: Date
    /// The secondary key (§4.1): for each field the response's `Vary` names (lowercased), the
    /// request's value, normalized; a name missing here was absent from the request.
    var varying: [String: String]
    /// Whether the request carried `Authorization`: such entries carry its value in ``varying``
    /// and are only kept in memory, never written to disk.
    var carriesCredentials: Bool

    /// The bytes the entry occupies in a store's budget: body plus header text.
    var cost: Int {
        body.count + key.utf8.count + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            + varying.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + 64
    }
}
