@testable import Courier
import CourierTestServer
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Session.Configuration.spinsBeforeParking`: the engine loop and an awaiting task may spin
/// before they park, which must change nothing but speed.
final class SpinBeforeParkingTests: XCTestCase {
    var server: TestHTTPServer!

    override func setUpWithError() throws { server = try TestHTTPServer() }
    override func tearDown() { server.shutdown() }

    private func session(spinning: Bool) -> Session {
        var configuration = Session.Configuration()
        configuration.spinsBeforeParking = spinning
        return Session(configuration: configuration)
    }

    /// Sequential awaited requests (the pattern that spins) each get their own response, with
    /// spinning on and off.
    func testSequentialAwaitsGetTheirOwnResponsesWhetherOrNotTheySpin() async throws {
        for spinning in [true, false] {
            let session = session(spinning: spinning)
            XCTAssertEqual(session.awaitSpinner.isEnabled, spinning)
            for n in 0..<40 {
                let data = try await session.request(.url(server.url("/echo?n=\(n)"))).data()
                let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: data)
                XCTAssertEqual(echo.query["n"], "\(n)", "spinning \(spinning): request \(n) got another's response")
            }
        }
    }

    /// Requests that arrive while the engine loop spins, or after it parked, all start: the loop
    /// misses no command either way. Each completes exactly once.
    func testCommandsArrivingAroundTheLoopsSpinAreAllCarriedOut() async throws {
        for spinning in [true, false] {
            let session = session(spinning: spinning)
            let url = server.url("/hello")
            for pause in [0, 20, 300, 2_000] {
                // A gap of `pause` µs between one request's end and the next: within the loop's
                // window, about at its edge, and beyond it (the loop has parked).
                for _ in 0..<5 {
                    let body = try await session.request(.url(url)).data()
                    XCTAssertEqual(String(decoding: body, as: UTF8.self), "Hello, Courier")
                    usleep(useconds_t(pause))
                }
            }
            let calls = Counter()
            let done = expectation(description: "handlers")
            done.expectedFulfillmentCount = 10
            for _ in 0..<10 {
                session.request(.url(url)).responseData { _ in
                    calls.increment()
                    done.fulfill()
                }
            }
            await fulfillment(of: [done], timeout: 60)
            XCTAssertEqual(calls.value, 10)
        }
    }

    /// A task cancelled while it awaits (perhaps while spinning) ends with `.cancelled`.
    func testCancellingASpinningAwaitEndsWithCancelled() async throws {
        let session = session(spinning: true)
        // Fast requests first, so the window is wide when the slow one is awaited.
        for _ in 0..<10 { _ = try await session.request(.url(server.url("/hello"))).data() }
        let url = server.url("/never")
        let task = dataTask(session, url)
        task.cancel()
        let error = await task.value
        XCTAssertEqual(error, .cancelled)
    }
}
