import Foundation

/// When and how ``Session/eventStream(_:reconnection:bufferSize:)`` reconnects, as the server-sent events
/// standard describes: after the connection closes or fails, wait the server's `retry` time (or
/// ``delay``), then reconnect with `Last-Event-ID`.
///
/// ```swift
/// var reconnection = EventStreamReconnection.default
/// reconnection.delay = .seconds(1)
/// reconnection.maxAttempts = 10
/// for try await event in session.eventStream(FeedAPI.updates, reconnection: reconnection) { ... }
/// ```
public struct EventStreamReconnection: Sendable, Equatable {
    /// Whether to reconnect at all.
    public var isEnabled: Bool
    /// The wait before reconnecting, until the server sets another one with a `retry:` field.
    /// Default 3 s, as browsers do.
    public var delay: Duration
    /// How many connections in a row may end without delivering an event before the stream
    /// stops (with the last connection's error, or normally if it closed cleanly); nil never stops.
    public var maxAttempts: Int?

    /// Creates a reconnection policy.
    public init(isEnabled: Bool = true, delay: Duration = .seconds(3), maxAttempts: Int? = 5) {
        self.isEnabled = isEnabled
        self.delay = delay
        self.maxAttempts = maxAttempts
    }

    /// Reconnects after 3 s (or the server's `retry`), giving up after 5 fruitless connections in a row.
    public static let `default` = EventStreamReconnection()

    /// Never reconnects: the sequence ends when the first connection does.
    public static let never = EventStreamReconnection(isEnabled: false)

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
