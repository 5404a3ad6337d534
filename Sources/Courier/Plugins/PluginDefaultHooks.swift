import CourierSync
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records which of ``Plugin``'s default implementations run, for CourierTesting's
/// `PluginHook.implemented(by:)`: a hook declared with a wrong signature compiles (the
/// protocol's default satisfies the requirement) and is never called, and the default running
/// in its place is the only trace of the mistake.
package final class PluginDefaultHooks: Sendable {
    /// The recorder of the current task (or synchronous scope); nil outside a check.
    @TaskLocal package static var current: PluginDefaultHooks?

    private let ran = Locked<Set<String>>([])

    /// Creates an empty recorder.
    package init() {}

    /// The names of the requirements whose default implementation ran.
    package var defaultsThatRan: Set<String> { ran.withLock { $0 } }

    /// Notes that the default implementation of `requirement` ran (only when a check is recording).
    static func note(_ requirement: String) {
        guard let recorder = current else { return }
        recorder.ran.withLock { _ = $0.insert(requirement) }
    }

    /// A context for calling a plugin's hooks outside a request.
    package static func context(for request: URLRequest, session: Session) -> RequestContext {
        RequestContext(target: .urlRequest(request), session: session, requestID: 0, attempt: 0)
    }
}
