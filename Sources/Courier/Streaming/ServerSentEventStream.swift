import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Server-sent events from an endpoint, across reconnections: the `AsyncSequence` returned by
/// ``Session/eventStream(_:reconnection:bufferSize:)``, whose documentation describes it.
package struct ServerSentEventStream: AsyncSequence, Sendable {
    /// An event.
    package typealias Element = ServerSentEvent
    /// Every failure is a ``CourierError``.
    package typealias Failure = CourierError

    let session: Session
    let target: any URLRequestConvertible
    let reconnection: EventStreamReconnection
    let bufferSize: Int

    /// Connects (lazily, on the first `next()`) and reads events.
    package func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads events, reconnecting as needed; see `ServerSentEventStream`.
    package struct Iterator: AsyncIteratorProtocol {
        /// Every failure is a ``CourierError``.
        package typealias Failure = CourierError

        private let stream: ServerSentEventStream
        private var parser = ServerSentEventParser()
        private var reader: EventReader?
        private var fruitless = 0
        private var deliveredOnConnection = false
        private var finished = false
        /// The session's ``Session/cancelAll()`` epoch when reading began: every connection
        /// counts as made then, so `cancelAll()` ends the whole sequence, reconnections included.
        private let epoch: UInt64

        init(stream: ServerSentEventStream) {
            self.stream = stream
            epoch = stream.session.currentEpoch
        }

        /// The last event ID received so far: sent as `Last-Event-ID` on the next connection.
        package var lastEventID: String { reader?.parser.lastEventID ?? parser.lastEventID }

        /// The next event; nil when the server said to stop (204) or reconnection gave up after
        /// clean closes.
        package mutating func next() async throws(CourierError) -> ServerSentEvent? {
            while !finished {
                var current = reader ?? connect()
                let end: EventStreamReconnection.End
                do throws(CourierError) {
                    if let event = try await current.next() {
                        reader = current
                        deliveredOnConnection = true
                        return event
                    }
                    end = current.stopped ? .stopped : .closed
                } catch {
                    end = .failed(error)
                }
                // Whatever the ending, an unfinished event of this connection is dropped.
                parser = current.parser
                parser.endOfStream()
                reader = nil
                fruitless = deliveredOnConnection ? 0 : fruitless + 1
                deliveredOnConnection = false
                switch stream.reconnection.decide(
                    after: end, fruitless: fruitless, serverRetry: parser.reconnectionTime)
                {
                case .reconnect(let delay):
                    // On the session's clock, so tests can drive the wait (`TestClock`).
                    await stream.session.configuration.clock.wait(CurlTransfer.seconds(delay))
                    if Task.isCancelled {
                        finished = true
                        throw CourierError.cancelled
                    }
                case .finish:
                    finished = true
                case .fail(let error):
                    finished = true
                    throw error
                }
            }
            return nil
        }

        /// A new connection, carrying the last event ID.
        private func connect() -> EventReader {
            let lastID = parser.lastEventID
            let built = stream.session.build(stream.target).flatMap { request -> Result<HTTPRequest, CourierError> in
                var request = request
                request.headers.update(name: "Accept", value: "text/event-stream")
                request.headers.update(name: "Cache-Control", value: "no-cache")
                request.headers.remove(name: "Last-Event-ID")
                if !lastID.isEmpty { request.headers.update(name: "Last-Event-ID", value: lastID) }
                do throws(CourierError) {
                    try request.headers.validated()
                } catch {
                    return .failure(error)
                }
                return .success(request)
            }
            let request = DataStreamRequest(
                session: stream.session, target: stream.target, request: built,
                bufferSize: stream.bufferSize, epoch: epoch
            ).validate()
            return EventReader(request: request, bytes: request.bodyBytes.makeAsyncIterator(), parser: parser)
        }
    }
}

extension Session {
    /// Server-sent events from `convertible`, reconnecting after network trouble as the standard
    /// describes (see ``EventStreamReconnection``):
    /// ```swift
    /// for try await event in session.eventStream(ChatAPI.completions(prompt)) {
    ///     if event.data == "[DONE]" { break }
    ///     print(try event.decode(Delta.self).text, terminator: "")
    /// }
    /// ```
    /// Each connection is a ``DataStreamRequest`` (backpressure, `bufferSize`, no overall time
    /// limit). For one connection without reconnection, pass ``EventStreamReconnection/never``.
    ///
    /// Each connection sends `Accept: text/event-stream`, `Cache-Control: no-cache` and, once the
    /// server has given an event an `id`, `Last-Event-ID`. A connection must answer 2xx with
    /// `Content-Type: text/event-stream`; any other status or type fails the sequence without
    /// reconnecting, 204 ends it normally. When a connection closes or fails on the network, the
    /// sequence waits the server's `retry` time (or the policy's delay) on the session's
    /// `Configuration.clock` and reconnects, as ``EventStreamReconnection`` decides. Cancelling
    /// the reading task (also during a wait), or breaking out of the loop, closes the connection.
    /// The connection starts with the first `next()`.
    public func eventStream(
        _ convertible: any URLRequestConvertible,
        reconnection: EventStreamReconnection = .default,
        bufferSize: Int = DataStreamRequest.defaultBufferSize
    ) -> some AsyncSequence<ServerSentEvent, CourierError> & Sendable {
        ServerSentEventStream(session: self, target: convertible, reconnection: reconnection, bufferSize: bufferSize)
    }
}
