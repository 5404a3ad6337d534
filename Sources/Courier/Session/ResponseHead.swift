import Foundation
import CourierSync
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response's status line and headers as received. The Foundation `HTTPURLResponse` is made
/// only when someone asks for it: building one on Linux costs more than the rest of a request.
package final class ResponseHead: Sendable {
    let url: URL
    let statusCode: Int
    let httpVersion: String?
    /// Header fields in arrival order, names as sent (bytes; strings are made when read).
    let fields: HeaderFields
    private let foundation: Locked<HTTPURLResponse?>

    init(url: URL, statusCode: Int, httpVersion: String?, fields: HeaderFields) {
        self.url = url
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.fields = fields
        foundation = Locked(nil)
    }

    package convenience init(url: URL, statusCode: Int, httpVersion: String?, fields: [(String, String)]) {
        self.init(url: url, statusCode: statusCode, httpVersion: httpVersion, fields: HeaderFields(fields))
    }

    /// Wraps a response made elsewhere (stubs, tests).
    init(wrapping response: HTTPURLResponse) {
        url = response.url ?? URL(fileURLWithPath: "/")
        statusCode = response.statusCode
        httpVersion = nil
        var fields: [(String, String)] = []
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields.append((name, value)) }
        }
        self.fields = HeaderFields(fields)
        foundation = Locked(response)
    }

    /// The first value of a header, matched without regard to case.
    func value(forHeader name: String) -> String? {
        fields.first(named: name)
    }

    /// The headers, repeated names joined with ", " as HTTP allows.
    var headers: HTTPHeaders {
        HTTPHeaders(joinedFields.map { HTTPHeader(name: $0.0, value: $0.1) })
    }

    /// `fields` with each repeated name (compared without regard to case) merged into its first
    /// occurrence, values joined with ", ".
    private var joinedFields: [(String, String)] {
        var joined: [(String, String)] = []
        for (name, value) in fields.pairs {
            if let index = joined.firstIndex(where: { $0.0.caseInsensitiveEquals(name) }) {
                joined[index].1 += ", " + value
            } else {
                joined.append((name, value))
            }
        }
        return joined
    }

    /// The Foundation view of this response, made once on first use.
    var foundationResponse: HTTPURLResponse? {
        foundation.withLock { cached in
            if let cached { return cached }
            let dictionary = Dictionary(joinedFields, uniquingKeysWith: { first, _ in first })
            let made = HTTPURLResponse(
                url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: dictionary)
            cached = made
            return made
        }
    }
}
