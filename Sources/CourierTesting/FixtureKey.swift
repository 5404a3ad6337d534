import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a ``ReplayTransport`` tells requests apart: method, path, query and a hash of the body.
///
/// - The method, upper-cased.
/// - The path, percent-encoded as sent. The scheme, host and port are not part of the key, so
///   fixtures recorded against a server on one port replay against any other.
/// - The query items, as sent, sorted by name (items with the same name keep their order).
/// - The body's FNV-1a 64-bit hash, in hex: of the JSON re-encoded with sorted keys when the
///   body is JSON (so key order does not matter), of the raw bytes otherwise; empty when there
///   is no body.
///
/// Headers are not part of the key (tokens and dates change between runs). Two requests with
/// the same key share a fixture file, whose responses are answered in recording order.
package struct FixtureKey: Hashable, Sendable, CustomStringConvertible {
    /// The method, such as `POST`.
    package let method: String
    /// The percent-encoded path, such as `/auth/signin`.
    package let path: String
    /// The sorted query, such as `page=2&size=10`; empty when there is none.
    package let query: String
    /// The body hash (16 hex digits), or empty when there is no body.
    package let bodyHash: String

    /// The key of `request`.
    package init(_ request: HTTPRequest) {
        method = request.method.rawValue.uppercased()
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let encodedPath = components?.percentEncodedPath ?? ""
        path = encodedPath.isEmpty ? "/" : encodedPath
        let items = (components?.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
        query = Self.stableSorted(items).joined(separator: "&")
        let body = request.bodyData ?? Data()
        bodyHash = body.isEmpty ? "" : Self.hex(Self.fnv1a64(Self.canonical(body)))
    }

    /// `METHOD /path?query` plus the body hash, for messages.
    package var description: String {
        "\(method) \(path)\(query.isEmpty ? "" : "?" + query)\(bodyHash.isEmpty ? "" : " (body \(bodyHash))")"
    }

    /// The fixture's file name: method, a readable form of the path, and a hash of the whole key,
    /// such as `POST_auth-signin_5d1f0a9c.json`.
    package var fileName: String {
        let slug = String(path.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            .split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        let readable = slug.isEmpty ? "root" : String(slug.prefix(60))
        let digest = Self.hex(Self.fnv1a64(Data("\(method) \(path)?\(query) \(bodyHash)".utf8)))
        return "\(method)_\(readable)_\(digest.prefix(8)).json"
    }

    /// Sorts query items by name, keeping the order of items with the same name.
    private static func stableSorted(_ items: [String]) -> [String] {
        items.enumerated().sorted { lhs, rhs in
            let (left, right) = (name(of: lhs.element), name(of: rhs.element))
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }

    private static func name(of item: String) -> Substring {
        item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// JSON re-encoded with sorted keys, or the bytes themselves.
    private static func canonical(_ body: Data) -> Data {
        JSONValue(data: body)?.data ?? body
    }

    static func fnv1a64(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
