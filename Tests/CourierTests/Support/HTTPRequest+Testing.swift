import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Test conveniences for ``HTTPRequest``: requests from `URLRequest`s a test knows to be valid,
/// and `URLRequest`-style readers so assertions read as before.
extension HTTPRequest {
    /// The validated form of `request`; a test whose request is invalid fails here, naming why.
    init(testing request: URLRequest, file: StaticString = #filePath, line: UInt = #line) {
        do {
            self = try HTTPRequest(request)
        } catch {
            XCTFail("invalid test request \(request): \(error)", file: file, line: line)
            self = try! HTTPRequest(url: URL(string: "http://invalid.test/")!)
        }
    }

    /// A `GET` of `url`.
    init(testing url: URL, file: StaticString = #filePath, line: UInt = #line) {
        self.init(testing: URLRequest(url: url), file: file, line: line)
    }

    var httpMethod: String? { method.rawValue }
    var httpBody: Data? { bodyData }
    var allHTTPHeaderFields: [String: String]? { headers.dictionary }
    func value(forHTTPHeaderField name: String) -> String? { headers[name] }
}
