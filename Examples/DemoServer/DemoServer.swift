import CourierTestServer
import Foundation

/// The embedded API server behind every example: serves the auth, music home, travel, login,
/// dogs and order-tracking (server-sent events) routes on 127.0.0.1 (an ephemeral port) from in-memory data.
///
/// ```swift
/// let server = try DemoServer()
/// defer { server.shutdown() }
/// let outcome = await AuthScenario.run(baseURL: server.baseURL.absoluteString)
/// ```
public final class DemoServer: Sendable {
    private let http: TestHTTPServer
    private let users = UserStore()
    private let tokens = TokenStore()

    /// Starts the server and registers every scenario's routes.
    public init() throws {
        http = try TestHTTPServer()
        AuthRoutes.register(on: http, users: users, tokens: tokens)
        MusicRoutes.register(on: http)
        TravelRoutes.register(on: http)
        LoginRoutes.register(on: http, users: users)
        DogsRoutes.register(on: http)
        OrderEventRoutes.register(on: http)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { http.baseURL }

    /// The underlying test server (for recorded requests and fault routes such as `/never`).
    public var testServer: TestHTTPServer { http }

    /// Stops the server; idempotent.
    public func shutdown() {
        http.shutdown()
    }

    /// Starts a demo server, runs `scenario` against its base URL, stops the server, and returns a
    /// process exit status: 0 when the scenario reports success, 1 otherwise (or if the server
    /// could not start). Used by the example executables.
    public static func runExample(
        _ name: String, _ scenario: @Sendable (_ baseURL: String) async -> Bool
    ) async -> Int32 {
        let server: DemoServer
        do {
            server = try DemoServer()
        } catch {
            print("\(name): could not start the demo server: \(error)")
            return 1
        }
        let succeeded = await scenario(server.baseURL.absoluteString)
        server.shutdown()
        print(succeeded ? "\(name): OK\n" : "\(name): FAILED\n")
        return succeeded ? 0 : 1
    }
}
