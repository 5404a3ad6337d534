import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response's status line and headers as received. A Foundation `HTTPURLResponse` is made only
/// when someone asks for one (building it on Linux costs more than the rest of a request), and
/// is not kept: Courier's API does not hand them out.
package final class ResponseHead: Sendable {
    let url: URL
    let statusCode: Int
    let httpVersion: String?
    /// Header fields in arrival order, names as sent (bytes; strings are made when read).
    let fields: HeaderFields

    init(url: URL, statusCode: Int, httpVersion: String?, fields: HeaderFields) {
        self.url = url
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.fields = fields
    }

    package convenience init(url: URL, statusCode: Int, httpVersion: String?, fields: [(String, String)]) {
        self.init(url: url, statusCode: statusCode, httpVersion: httpVersion, fields: HeaderFields(fields))
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

    /// The Foundation view of this response, made anew on each use.
    var foundationResponse: HTTPURLResponse? {
        let dictionary = Dictionary(joinedFields, uniquingKeysWith: { first, _ in first })
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: dictionary)
    }
}
