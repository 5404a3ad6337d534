@testable import Courier
import Foundation
import XCTest

/// The third-party HTTP caching suite (http-tests/cache-tests, commit b55b8bd, browser mode = a
/// private cache; ../shared/data/cache-tests beside the clone, when present) through the cache's
/// decision core and memory store (``CacheSuiteRun``).
///
/// Cases that do not apply, and why (they are not run):
/// - `interim-responses`: libcurl consumes 1xx interim responses itself; they never reach the cache.
/// - `range-requests`: the cache neither stores partial (206) responses nor combines them; a request
///   with `Range` goes to the server untouched.
/// - `origin-disconnect`: a transfer that fails completes with its error; the cache does not answer
///   failures with a stale response (no `stale-if-error`).
final class CacheSuiteTests: XCTestCase {
    static let notApplicable: [String: String] = [
        "interim-responses": "libcurl consumes 1xx interim responses itself",
        "range-requests": "partial content is neither stored nor combined",
        "origin-disconnect": "a failed transfer completes with its error (no stale-if-error)"
    ]

    /// Measured passes (a floor: more is fine, fewer is a regression), by the suite's kinds:
    /// `required` (what RFC 9111 requires), `optimal` (what a good cache does) and `check`
    /// (informational: behaviours with no single right answer).
    static let floors = ["required": 138, "optimal": 76, "check": 64]

    func testThirdPartyCacheSuite() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
        let file = root.appendingPathComponent("../shared/data/cache-tests/cases.json").standardized
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw XCTSkip("../shared/data/cache-tests is not beside the clone: the HTTP caching suite was not run")
        }
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let objects =
            (document["tests"] as? [[String: Any]] ?? []) + (document["extra_tests"] as? [[String: Any]] ?? [])
        let cases = objects.compactMap(CacheSuiteCase.init)
        XCTAssertEqual(cases.count, objects.count)
        var passed: [String: Int] = [:]
        var total: [String: Int] = [:]
        var skipped: [String] = []
        var failures: [String] = []
        for item in cases {
            if let need = item.needs.first(where: { Self.notApplicable[$0] != nil }) {
                skipped.append("\(item.id) (\(need))")
                continue
            }
            total[item.kind, default: 0] += 1
            switch item.run() {
            case .pass: passed[item.kind, default: 0] += 1
            case .fail(let message): failures.append("\(item.kind) \(item.id): \(message)")
            case .setupFail(let message): failures.append("\(item.kind) \(item.id): setup: \(message)")
            }
        }
        let summary = ["required", "optimal", "check"].map { "\($0) \(passed[$0] ?? 0)/\(total[$0] ?? 0)" }
        print("HTTP caching suite: \(summary.joined(separator: ", ")); \(skipped.count) not applicable")
        for failure in failures.sorted() { print("  not passed: \(failure)") }
        for (kind, floor) in Self.floors {
            XCTAssertGreaterThanOrEqual(passed[kind] ?? 0, floor, "\(kind) cases passing fell below the measured floor")
        }
    }
}
