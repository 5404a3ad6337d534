import Foundation

/// What a ``ReplayTransport`` does with a request: answer from fixtures, or go to the real server.
public enum ReplayMode: Sendable, Equatable {
    /// Offline: every request is answered from its fixture file; a request without one fails
    /// with `CourierError.unhandledRequest` naming the request and the file.
    case replay
    /// Online: every request goes to the real server and its exchange is written again,
    /// replacing the fixture (re-recording).
    case record
    /// Replays the requests that have fixtures and records the others: run once against the
    /// real server to create the fixtures, then offline for ever.
    case recordMissing

    /// The mode named by the environment variable `variable` (`replay`, `record` or
    /// `record-missing`), or `default` when it is unset or names no mode. Lets one test suite
    /// re-record without code changes: `COURIER_FIXTURES=record swift test`.
    public static func fromEnvironment(
        _ variable: String = "COURIER_FIXTURES", default fallback: ReplayMode = .replay
    )
        -> ReplayMode
    {
        switch ProcessInfo.processInfo.environment[variable] {
        case "replay": .replay
        case "record": .record
        case "record-missing": .recordMissing
        default: fallback
        }
    }
}
