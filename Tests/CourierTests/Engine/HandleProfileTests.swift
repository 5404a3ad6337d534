@testable import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session builds the handle profile of its options once; any change to a field the profile
/// depends on must drop that profile, or a pooled handle would keep options that no longer apply.
final class HandleProfileTests: XCTestCase {
    private func sessionOptions() -> TransferOptions {
        TransferOptions(configuration: Session.Configuration())
    }

    func testTheSessionsProfileIsBuiltOnceAndShared() {
        let options = sessionOptions()
        var copy = options
        copy.requestTimeout = 5  // a request option: not part of the profile
        copy.target = .url("http://example.com/")
        XCTAssertTrue(options.handleProfile === copy.handleProfile)
        XCTAssertTrue(
            options.handleProfile.matches(TransferOptions(configuration: Session.Configuration()).handleProfile))
    }

    func testEveryProfileFieldDropsTheCachedProfile() {
        let changes: [(String, (inout TransferOptions) -> Void)] = [
            ("connectTimeout", { $0.connectTimeout = 3 }),
            ("security", { $0.security.maxResponseSize = 10 }),
            ("automaticDecompression", { $0.automaticDecompression.toggle() }),
            ("tls", { $0.tls.caCertificateFile = "/nonexistent.pem" }),
            ("proxy", { $0.proxy = .url("http://proxy:3128") }),
            ("maxHTTPVersion", { $0.maxHTTPVersion = .http1_1 }),
            ("tcpKeepAlive", { $0.tcpKeepAlive.toggle() }),
            ("receiveBufferSize", { $0.receiveBufferSize = 1 << 18 }),
            ("destination", { $0.destination = URL(fileURLWithPath: "/tmp/x") }),
            ("responseStream", { $0.responseStream = ResponseStreamBuffer(window: 1024) })
        ]
        let base = sessionOptions()
        for (field, change) in changes {
            var options = base
            change(&options)
            XCTAssertFalse(options.handleProfile === base.handleProfile, field)
            XCTAssertEqual(options.handleProfile.settings, HandleProfile(options).settings, field)
            XCTAssertFalse(options.handleProfile.matches(base.handleProfile), "\(field) changes the profile")
        }
    }

    /// End to end: a download after a plain request reuses the plain request's handle, whose
    /// size limit is the in-memory one; the download's own limit (none) must apply.
    func testADownloadDoesNotInheritThePlainRequestsSizeLimit() async throws {
        let server = try TestHTTPServer()
        defer { server.shutdown() }
        var configuration = Session.Configuration()
        configuration.security.maxResponseSize = 2_000
        configuration.security.maxDownloadSize = nil
        let session = Session(configuration: configuration)
        _ = try await session.request(.url(server.url("/bytes?size=100"))).validate().data()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let response = await session.download(.url(server.url("/bytes?size=50000")), to: file).validate().response()
        XCTAssertNil(response.error)
        XCTAssertEqual(try Data(contentsOf: file).count, 50_000)
    }
}
