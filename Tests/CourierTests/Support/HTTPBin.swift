import Courier
import CourierTesting
import Foundation
import XCTest

/// The third-party httpbin started by scripts/test.sh (gunicorn on 127.0.0.1).
enum HTTPBin {
    struct NotRunning: Error, CustomStringConvertible {
        var description: String { "COURIER_HTTPBIN_URL is not set: run the tests with `bash scripts/test.sh`" }
    }

    static func url(_ path: String) throws -> String {
        guard let base = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"], !base.isEmpty else {
            throw NotRunning()
        }
        return base + path
    }

    /// The JSON shape httpbin echoes for /get, /post, /anything and friends.
    struct Echo: Decodable {
        var args: [String: String]?
        var headers: [String: String]
        var data: String?
        var form: [String: String]?
        var json: JSONValue?
        var method: String?
        var url: String?
    }
}
