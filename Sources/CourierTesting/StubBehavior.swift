import Foundation

/// When a stub answers, as Moya's `StubBehavior`.
public enum StubBehavior: Sendable, Equatable {
    /// At once (on another thread, so the caller never sees the answer before `execute` returns).
    case immediate
    /// After `seconds`: of wall-clock time, or of a ``TestClock``'s time when the transport has one.
    case delayed(seconds: TimeInterval)
    /// Never: the request completes only when it is cancelled (with `CourierError.cancelled`).
    case never
}
