import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hook into every request: sees (and may change) what is sent and what comes back.
///
/// Implement only the hooks you need; the others do nothing. Copy their signatures exactly: a
/// method whose labels or types differ compiles (the default satisfies the requirement) and is
/// never called; `PluginHook.implemented(by:)` in CourierTesting tells, in a test, which hooks a
/// plugin really implements. Register plugins on a session, on a service, or on one request:
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.plugins = [NetworkLogger(level: .basic)]                  // every request
/// session.request(HomeAPI.latest).plugin(Stopwatch())                     // this request only
/// ```
/// To turn a plugin off, leave it out of the list.
/// For each attempt (a retry is a new attempt) the hooks run in this order: ``prepare(_:context:)``,
/// ``willSend(_:context:)``, the transfer, ``didReceive(_:context:)``; once the request is finished
/// (after retries and validation), ``process(_:context:)``. Plugins run in registration order at
/// every hook: the session's first, then the service's, then the request's.
///
/// Guarantees:
/// - ``didReceive(_:context:)`` and ``process(_:context:)`` finish before the caller's completion
///   handler runs or its `await` returns, so a log line is written before the result is seen.
/// - Hooks never run on the engine thread: a slow plugin delays only its own request.
/// - A hook that throws fails the request with that ``CourierError``, or with
///   ``CourierError/pluginFailed`` for any other error; the request still
///   completes exactly once.
public protocol Plugin: Sendable {
    /// Returns the request to send, possibly changed (headers added, URL rewritten). Runs after the
    /// interceptors' adapters. Default: the request unchanged.
    func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest

    /// Called just before the request is handed to the transport.
    func willSend(_ request: URLRequest, context: RequestContext)

    /// Called with the response of each attempt (or its transport error), before any retry
    /// decision and before validation.
    func didReceive(_ response: DataResponse<Data?>, context: RequestContext)

    /// Returns the result the caller will see, possibly changed; runs once per request, after
    /// retries and validation. On success the body is the `result`'s value; on failure, `data`.
    /// Default: the response unchanged.
    func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?>
}

// Each default notes that it ran, so that a test can tell a hook declared with a wrong signature
// (never called: the default satisfies the requirement) from one the plugin implements
// (`PluginHook.implemented(by:)` in CourierTesting). Outside such a check the note is one
// task-local read.
extension Plugin {
    /// The request unchanged.
    public func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest {
        PluginDefaultHooks.note("prepare")
        return request
    }

    /// Does nothing.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        PluginDefaultHooks.note("willSend")
    }

    /// Does nothing.
    public func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
        PluginDefaultHooks.note("didReceive")
    }

    /// The response unchanged.
    public func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?> {
        PluginDefaultHooks.note("process")
        return response
    }
}
