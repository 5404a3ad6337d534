/// What ``TransportConformance/run()`` found: the failures (none when every check passed; skipped
/// checks do not fail the report), and a description with one line per check (`ok`, `FAILED`
/// with the reasons, or `skipped` with why).
///
/// ```swift
/// let report = await TransportConformance(transport: myTransport, answered: ping, pending: hang).run()
/// XCTAssertTrue(report.failures.isEmpty, report.description)
/// ```
public struct TransportConformanceReport: Sendable, CustomStringConvertible {
    /// One check of the contract.
    package struct Check: Sendable {
        /// What the check verifies, such as `cancel before completion`.
        package let name: String
        /// What went wrong; empty when the check passed.
        package let failures: [String]
        /// Why the check did not run (no pending request was given); nil when it ran.
        package let skippedBecause: String?

        /// Whether the check ran and found nothing wrong.
        package var passed: Bool { failures.isEmpty && skippedBecause == nil }
    }

    /// Every check, in the order they ran.
    package let checks: [Check]

    /// Every failure, prefixed with its check's name; empty when no check failed.
    public var failures: [String] {
        checks.flatMap { check in check.failures.map { "\(check.name): \($0)" } }
    }

    /// One line per check: `ok`, `FAILED` with the reasons, or `skipped` with why.
    public var description: String {
        checks.map { check in
            if let reason = check.skippedBecause { return "skipped  \(check.name) (\(reason))" }
            if check.failures.isEmpty { return "ok       \(check.name)" }
            return "FAILED   \(check.name)\n" + check.failures.map { "           - \($0)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
