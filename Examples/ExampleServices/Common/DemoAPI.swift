import Courier

/// Where the example routers send their requests.
///
/// The base URL is a task-local value, so each scenario run (and each test) can point the
/// routers at its own demo server without global mutable state:
/// ```swift
/// await DemoAPI.$baseURL.withValue(server.baseURL.absoluteString) { await AuthScenario.run() }
/// ```
/// The ``AuthScenario/run(baseURL:echo:)``-style entry points do this for you.
public enum DemoAPI {
    /// The base URL of the demo API; `http://127.0.0.1:8080` unless overridden for the current task.
    @TaskLocal public static var baseURL: String = "http://127.0.0.1:8080"
}

/// The routers of every example scenario adopt this protocol, so the base URL is declared once.
public protocol DemoRouter: Router {}

extension DemoRouter {
    /// ``DemoAPI/baseURL``.
    public var baseURL: String { DemoAPI.baseURL }
}
