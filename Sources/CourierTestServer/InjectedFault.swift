/// A fault queued with `TestHTTPServer.failNext`:
/// it changes how the next `remaining` matching requests are answered.
struct InjectedFault: Sendable {
    /// How the fault changes the answer.
    enum Change: Sendable {
        /// The normal response, sent with this behaviour.
        case behaviour(TestHTTPResponse.Behaviour)
        /// This response instead of the normal one.
        case response(TestHTTPResponse)
    }

    /// The path it applies to; nil for every path.
    let path: String?
    let change: Change
    /// How many more requests it applies to.
    var remaining: Int

    func applies(to request: TestHTTPRequest) -> Bool {
        remaining > 0 && (path == nil || path == request.path)
    }

    /// The answer to send instead of `normal`.
    func apply(to normal: () -> TestHTTPResponse) -> TestHTTPResponse {
        switch change {
        case .behaviour(let behaviour): return normal().with(behaviour)
        case .response(let response): return response
        }
    }
}
