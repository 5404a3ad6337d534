import CourierTestServer
import Foundation
import XCTest

/// Completion handlers must fire in plain command-line programs (no UI run loop on Linux):
/// runs the SyncMain and AsyncMain example executables against a loopback server.
final class CommandLineProgramTests: XCTestCase {
    private func run(_ program: String, _ url: URL) throws -> (status: Int32, output: String) {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var binary = directory.appendingPathComponent(program)
        if !FileManager.default.isExecutableFile(atPath: binary.path) {
            // `swift test` runs the test bundle from inside .build/<triple>/debug.
            binary = directory.deletingLastPathComponent().appendingPathComponent(program)
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "missing \(binary.path)")
        let process = Process()
        process.executableURL = binary
        process.arguments = [url.absoluteString]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func testSyncMainThatWaitsGetsItsCompletion() throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let result = try run("SyncMain", server.url("/hello"))
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "sync main: 200 Hello, Courier\n")
    }

    func testAsyncMainGetsItsResult() throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let result = try run("AsyncMain", server.url("/hello"))
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.output, "async main: Hello, Courier\n")
    }

    func testFailuresAreReportedWithNonZeroStatus() throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        let result = try run("SyncMain", server.url("/status/500"))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.output, "sync main failed: Unacceptable status code 500\n")
    }
}
