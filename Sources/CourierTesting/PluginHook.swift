import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A member of `Plugin` that Courier calls, for checking that a plugin implements the
/// hooks it means to.
///
/// A hook written with a wrong signature, say `prepare(_ request: URLRequest, ctx: RequestContext)`,
/// still compiles: the protocol's default implementation satisfies the requirement, and the
/// misspelled method is never called (Swift 6.3 does not warn). Assert in a test which hooks your
/// plugin implements; a misspelled one is missing from the set:
/// ```swift
/// XCTAssertEqual(PluginHook.implemented(by: Stopwatch()), [.willSend, .process])
/// ```
public enum PluginHook: CaseIterable, Sendable {
    /// `Plugin.prepare(_:context:)`.
    case prepare
    /// `Plugin.willSend(_:context:)`.
    case willSend
    /// `Plugin.didReceive(_:context:)`.
    case didReceive
    /// `Plugin.process(_:context:)`.
    case process

    /// The hooks `plugin` implements itself, rather than inheriting the protocol's default.
    ///
    /// Calls each hook once, synchronously, with a placeholder `GET https://plugin-check.invalid/`
    /// and a placeholder 200 response (nothing is sent); what a hook throws is ignored.
    public static func implemented(by plugin: some Plugin) -> Set<PluginHook> {
        let recorder = PluginDefaultHooks()
        let url = URL(string: "https://plugin-check.invalid/")!
        let request = URLRequest(url: url)
        let context = PluginDefaultHooks.context(for: request, session: .default)
        let response = DataResponse<Data?>(
            request: try? HTTPRequest(request),
            head: HTTPResponseHead(url: url, statusCode: 200),
            data: Data(), metrics: nil, result: .success(Data()))
        PluginDefaultHooks.$current.withValue(recorder) {
            _ = try? plugin.prepare(request, context: context)
            plugin.willSend(request, context: context)
            plugin.didReceive(response, context: context)
            _ = try? plugin.process(response, context: context)
        }
        let defaults = recorder.defaultsThatRan
        return Set(allCases.filter { !defaults.contains(String(describing: $0)) })
    }
}
