import Courier
import CourierTestServer
import Foundation
import XCTest

/// Runs every row of ``FaultMatrix``: each fault must end in exactly the typed error or result
/// its row names (never a crash, a hang, or an untyped failure).
final class FaultMatrixTests: XCTestCase {
    private func run(_ cases: [FaultCase]) async throws {
        let bench = try FaultBench()
        defer { bench.server.shutdown() }
        let missingH2 = cases.contains { $0.needsH2 } && bench.h2 == nil
        if missingH2 && FaultBench.underTestScript {
            XCTFail("scripts/test.sh ran the tests but the HTTP/2 fault server is missing (COURIER_H2_FAULT_URL)")
        }
        let runnable = cases.filter { (!$0.needsTLS || bench.tls != nil) && (!$0.needsH2 || bench.h2 != nil) }
        let results = await withTaskGroup(of: (String, FaultExpectation, FaultOutcome).self) { group in
            for row in runnable {
                group.addTask { (row.name, row.expectation, await row.run(bench)) }
            }
            var results: [(String, FaultExpectation, FaultOutcome)] = []
            for await result in group { results.append(result) }
            return results
        }
        XCTAssertEqual(results.count, runnable.count)
        for (name, expectation, outcome) in results {
            if let mismatch = outcome.mismatch(against: expectation) {
                XCTFail("[\(name)] expected \(expectation), \(mismatch)")
            }
        }
        if runnable.count < cases.count {
            throw XCTSkip(
                "\(cases.count - runnable.count) TLS and HTTP/2 rows need the servers of scripts/test.sh"
                    + " (COURIER_TLS_URL, COURIER_H2_FAULT_URL)")
        }
    }

    func testSecurityDefaults() async throws { try await run(FaultMatrix.security) }
    func testHostileHeads() async throws { try await run(FaultMatrix.heads) }
    func testLibcurlFailures() async throws { try await run(FaultMatrix.errors) }
    func testTimeLimits() async throws { try await run(FaultMatrix.timeouts) }
    func testTransportFailures() async throws { try await run(FaultMatrix.transport) }
    func testServiceResults() async throws { try await run(FaultMatrix.services) }
    func testHostileHTTP2Servers() async throws { try await run(FaultMatrix.http2) }

    func testEveryRowHasAUniqueName() {
        let names = FaultMatrix.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertGreaterThanOrEqual(names.count, 40)
    }
}
