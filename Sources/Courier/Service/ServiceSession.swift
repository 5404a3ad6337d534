import CourierSync

/// Points services at another ``Session`` without editing them: a stubbed session in tests, a
/// staging server's session in a staging build.
///
/// ```swift
/// // tests: every service call made inside the closure (in this task and the tasks it starts)
/// let stub = Session.stubbed { _ in .json(#"{"status":200,"success":true,"data":{"name":"Ada"}}"#) }
/// let result = await ServiceSession.using(stub) { await AuthService.shared.signIn(email: e, pw: p) }
/// ```
/// The override wins over each service's own ``Service/session``, which is how a service picks
/// its session everywhere else (a staging build gives its services a staging session there). Requests made through
/// ``Service/standardRequest(_:)`` (the default ``Service/makeRequest(_:)``, and
/// `super.makeRequest(_:)` in a ``BaseService``) honour it.
public enum ServiceSession {
    @TaskLocal private static var scoped: Session?

    /// The override in effect here: the innermost scoped one, else nil.
    package static var current: Session? { scoped }

    /// Runs `body` with every service request made inside it (in this task and the child tasks it
    /// creates) sent with `session`. Requests started elsewhere (other tasks, other threads) are
    /// not affected, so tests running in parallel do not see each other's stubs.
    public static func using<Result>(
        _ session: Session, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await $scoped.withValue(session, operation: body)
    }

    /// Runs `body` with every service request made inside it sent with `session`, for
    /// completion-handler code: the request is created inside `body`, so it uses `session` even
    /// if its completion runs later.
    public static func using<Result>(_ session: Session, _ body: () throws -> Result) rethrows -> Result {
        try $scoped.withValue(session, operation: body)
    }
}
