import Foundation

/// When and how ``Session/eventStream(_:reconnection:bufferSize:)`` reconnects, as the server-sent events
/// standard describes: after the connection closes or fails, wait the server's `retry` time (or
/// the delay given), then reconnect with `Last-Event-ID`.
///
/// ```swift
/// let reconnection = EventStreamReconnection.reconnect(after: .seconds(1), maxAttempts: 10)
/// for try await event in session.eventStream(FeedAPI.updates, reconnection: reconnection) { ... }
/// ```
public enum EventStreamReconnection: Sendable, Equatable {
    /// Never reconnects: the sequence ends when the first connection does.
    case never
    /// Reconnects after `delay`, until the server sets another wait with a `retry:` field. After
    /// `maxAttempts` connections in a row that end without delivering an event, the stream stops
    /// (with the last connection's error, or normally if it closed cleanly); nil never stops.
    case reconnect(after: Duration = .seconds(3), maxAttempts: Int? = 5)

    /// Reconnects after 3 s (as browsers do) or the server's `retry`, giving up after 5 fruitless
    /// connections in a row.
    public static let `default` = EventStreamReconnection.reconnect()

    /// Whether to reconnect at all.
    var isEnabled: Bool { self != .never }

    /// The wait before reconnecting when the server set none.
    var delay: Duration {
        if case .reconnect(let delay, _) = self { return delay }
        return .seconds(3)
    }

    /// How many fruitless connections in a row end the stream; nil never.
    var maxAttempts: Int? {
        if case .reconnect(_, let maxAttempts) = self { return maxAttempts }
        return nil
    }

    /// How one connection ended.
    enum End: Equatable {
        /// The body ended normally.
        case closed
        /// The server answered 204 No Content: the standard's way to say "stop reconnecting".
        case stopped
        /// The connection failed.
        case failed(CourierError)
    }

    /// What to do after a connection ended.
    enum Decision: Equatable {
        case reconnect(after: Duration)
        case finish
        case fail(CourierError)
    }

    /// The decision after a connection ended with `end`, when `fruitless` connections in a row
    /// (this one included) delivered no event and the server asked for `serverRetry`.
    func decide(after end: End, fruitless: Int, serverRetry: Duration?) -> Decision {
        let wait = serverRetry ?? delay
        let exhausted = maxAttempts.map { fruitless >= $0 } ?? false
        switch end {
        case .stopped:
            return .finish
        case .closed:
            return isEnabled && !exhausted ? .reconnect(after: wait) : .finish
        case .failed(let error):
            guard isEnabled, Self.isTransient(error), !exhausted else { return .fail(error) }
            return .reconnect(after: wait)
        }
    }

    /// Network trouble worth reconnecting after; an HTTP refusal (a status or content type the
    /// stream does not accept), a cancellation or a bad request is final.
    static func isTransient(_ error: CourierError) -> Bool {
        switch error {
        case .dnsFailure, .cannotConnect, .timedOut, .truncatedResponse, .transport:
            return true
        default:
            return false
        }
    }
}
