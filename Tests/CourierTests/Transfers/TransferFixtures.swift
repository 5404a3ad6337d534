import CourierTestServer
import Foundation
import XCTest

/// A test server and a scratch directory for each test.
class TransferTestCase: XCTestCase {
    var server: TestHTTPServer!
    var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        scratch = try ScratchDirectory()
    }

    override func tearDown() {
        server.shutdown()
        scratch = nil
    }
}

/// Scratch files for transfer tests, removed in `tearDown`.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transfers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A file of `size` deterministic bytes (``TestHTTPServer/deterministicBytes(count:seed:)``),
    /// written 4 MiB at a time; returns its URL and SHA-256.
    func file(named name: String, size: Int, seed: UInt64) throws -> (url: URL, sha256: String) {
        let file = url.appendingPathComponent(name)
        let data = TestHTTPServer.deterministicBytes(count: size, seed: seed)
        try data.write(to: file)
        return (file, TestHTTPServer.checksum(data))
    }

    func path(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// Collects values from any thread.
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [Value] { lock.lock(); defer { lock.unlock() }; return storage }
}
