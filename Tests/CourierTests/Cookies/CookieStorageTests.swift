import Courier
import CourierTestServer
import Foundation
import XCTest

/// Reading and writing the jar, and keeping it in a file.
final class CookieStorageTests: XCTestCase {
    var server: TestHTTPServer!
    var file: URL!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cookies-\(UUID().uuidString).txt")
    }

    override func tearDown() {
        server.shutdown()
        try? FileManager.default.removeItem(at: file)
    }

    func testJarSurvivesInAFileAcrossSessions() async throws {
        let first = Session(configuration: persistent())
        try await first.get(server.url("/set-cookie?sid=abc"))
        try await first.setCookie(
            Session.Cookie(
                name: "remember", value: "yes", domain: "127.0.0.1",
                expires: Date(timeIntervalSince1970: 4_102_444_800), isHTTPOnly: true))
        await first.shutdown()
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\tsid\tabc"), text)

        let second = Session(configuration: persistent())
        let names = try await second.cookieNamesSent(to: server.url("/cookies"))
        XCTAssertEqual(Set(names), ["sid", "remember"])
        let remember = await second.cookies().first { $0.name == "remember" }
        XCTAssertEqual(remember?.isHTTPOnly, true)
        XCTAssertEqual(remember?.expires, Date(timeIntervalSince1970: 4_102_444_800))
        await second.shutdown()
    }

    func testFlushWritesTheFileBeforeShutdown() async throws {
        let session = Session(configuration: persistent())
        try await session.get(server.url("/set-cookie?early=1"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "nothing is written before a flush")
        await session.flushCookies()
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("\tearly\t1"), text)
        await session.shutdown()
    }

    func testReleasedSessionWritesItsJar() async throws {
        do {
            let session = Session(configuration: persistent())
            try await session.get(server.url("/set-cookie?released=1"))
        }
        // The engine thread writes the file as it stops, and nobody waits for it. libcurl creates
        // the file and then fills it, so a reader can find it empty: read it until the cookie's
        // line is there, for up to ten seconds. (Foundation's `String(contentsOf:)` leaks its
        // buffer when it reads an empty file, which LeakSanitizer reports; `bytes(of:)` does not.)
        var text = ""
        for _ in 0..<10_000 where !text.contains("\treleased\t1") {
            text = String(decoding: bytes(of: file), as: UTF8.self)
            if !text.contains("\treleased\t1") { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        XCTAssertTrue(text.contains("\treleased\t1"), "the file read: \(text.debugDescription)")
    }

    func testMissingFileIsAnEmptyJar() async throws {
        let session = Session(configuration: persistent())
        let stored = await session.cookies()
        XCTAssertEqual(stored, [])
        try await session.expectCookie(server.url("/cookies"), nil)
        await session.shutdown()
    }

    func testReadWriteAndRemove() async throws {
        let session = Session()
        try await session.setCookie(Session.Cookie(name: "a", value: "1", domain: "127.0.0.1"))
        try await session.setCookie(Session.Cookie(name: "b", value: "2", domain: "127.0.0.1", path: "/other"))
        try await session.expectCookie(server.url("/cookies"), "a=1")
        var stored = await session.cookies()
        XCTAssertEqual(Set(stored.map(\.name)), ["a", "b"])
        XCTAssertEqual(stored.first { $0.name == "b" }?.path, "/other")

        // Replacing: same name, domain and path.
        try await session.setCookie(Session.Cookie(name: "a", value: "3", domain: "127.0.0.1"))
        try await session.expectCookie(server.url("/cookies"), "a=3")
        // An expiry in the past removes the cookie.
        try await session.setCookie(
            Session.Cookie(name: "a", value: "", domain: "127.0.0.1", expires: Date(timeIntervalSince1970: 1)))
        try await session.expectCookie(server.url("/cookies"), nil)
        stored = await session.cookies()
        XCTAssertEqual(stored.map(\.name), ["b"])

        await session.removeAllCookies()
        stored = await session.cookies()
        XCTAssertEqual(stored, [])
        await session.shutdown()
        stored = await session.cookies()
        XCTAssertEqual(stored, [], "a shut-down session has no jar to read")
    }

    func testInvalidCookiesAreRefusedWithTheReason() async throws {
        let session = Session()
        let invalid = [
            Session.Cookie(name: "", value: "1", domain: "127.0.0.1"),
            Session.Cookie(name: "a=b", value: "1", domain: "127.0.0.1"),
            Session.Cookie(name: "a", value: "1;2", domain: "127.0.0.1"),
            Session.Cookie(name: "a", value: "1\n", domain: "127.0.0.1"),
            Session.Cookie(name: "a", value: "1", domain: ""),
            Session.Cookie(name: "a", value: "1", domain: ".example.com"),
            Session.Cookie(name: "a", value: "1", domain: "127.0.0.1", path: "api")
        ]
        for cookie in invalid {
            do {
                try await session.setCookie(cookie)
                XCTFail("\(cookie) was accepted")
            } catch let error as CourierError {
                XCTAssertEqual("\(error.kind)", "invalidRequest")
                XCTAssertNotNil(error.reason)
            }
        }
        let stored = await session.cookies()
        XCTAssertEqual(stored, [])
    }

    /// The bytes of the file at `url` as they are now; empty if it does not exist.
    private func bytes(of url: URL) -> [UInt8] {
        guard let stream = fopen(url.path, "rb") else { return [] }
        defer { fclose(stream) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            if count == 0 { return result }
            result += chunk[..<count]
        }
    }

    private func persistent() -> Session.Configuration {
        var configuration = Session.Configuration()
        configuration.cookies = .persistent(file: file)
        return configuration
    }
}
