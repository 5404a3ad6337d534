import Foundation

/// Cancels the request when the iterator holding it goes away before the body ended (a `break`
/// out of a `for try await` loop, or a dropped iterator).
final class BodyLease: Sendable {
    private let core: StreamCore

    init(_ core: StreamCore) {
        self.core = core
    }

    deinit {
        core.abandonBody()
    }
}

extension DataStreamRequest {
    /// The body as chunks of bytes.
    package struct Bytes: AsyncSequence, Sendable {
        /// A chunk of the body.
        package typealias Element = Data
        /// Every failure is a ``CourierError``.
        package typealias Failure = CourierError

        let request: DataStreamRequest

        /// Reads the body; a second iterator of the same request throws
        /// ``CourierError/invalidRequest``: a body can be read once.
        package func makeAsyncIterator() -> Iterator {
            Iterator(request: request)
        }

        /// Reads chunks; see ``Bytes``.
        package struct Iterator: AsyncIteratorProtocol {
            /// Every failure is a ``CourierError``.
            package typealias Failure = CourierError

            private let request: DataStreamRequest
            private var lease: BodyLease?
            private var started = false
            private var done = false

            init(request: DataStreamRequest) {
                self.request = request
            }

            /// The next chunk, or nil after the last one.
            package mutating func next() async throws(CourierError) -> Data? {
                guard !done else { return nil }
                do throws(CourierError) {
                    if !started {
                        started = true
                        guard request.core.claimBody() else {
                            throw CourierError.invalidRequest(
                                reason: "the body of a stream request can be read only once")
                        }
                        lease = BodyLease(request.core)
                        _ = try await request.core.head()
                    }
                    guard let chunk = try await request.core.nextChunk() else {
                        finish()
                        return nil
                    }
                    return chunk
                } catch {
                    finish()
                    throw error
                }
            }

            private mutating func finish() {
                done = true
                lease = nil
            }
        }
    }

    /// The body as lines of text: split at LF (a CR before it is dropped), decoded as UTF-8
    /// (invalid bytes become U+FFFD); a last line without a line end is included. A line longer
    /// than `maximumLineLength` bytes throws ``CourierError/decodingFailed``, so a
    /// server cannot make the reader hold unbounded memory.
    package struct Lines: AsyncSequence, Sendable {
        /// A line, without its line end.
        package typealias Element = String
        /// Every failure is a ``CourierError``.
        package typealias Failure = CourierError

        let bytes: Bytes
        let maximumLineLength: Int

        /// Reads the body; see ``Lines``.
        package func makeAsyncIterator() -> Iterator {
            Iterator(bytes: bytes.makeAsyncIterator(), maximumLineLength: maximumLineLength)
        }

        /// Reads lines; see ``Lines``.
        package struct Iterator: AsyncIteratorProtocol {
            /// Every failure is a ``CourierError``.
            package typealias Failure = CourierError

            private var bytes: Bytes.Iterator
            private let maximumLineLength: Int
            private var pending: [UInt8] = []
            /// Where the unread part of `pending` starts.
            private var start = 0
            /// Where to continue looking for LF.
            private var scanned = 0
            private var ended = false
            private(set) var lineNumber = 0

            init(bytes: Bytes.Iterator, maximumLineLength: Int) {
                self.bytes = bytes
                self.maximumLineLength = maximumLineLength
            }

            /// The next line, or nil after the last one.
            package mutating func next() async throws(CourierError) -> String? {
                while true {
                    if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                        var end = newline
                        if end > start, pending[end - 1] == 0x0D { end -= 1 }
                        let line = String(decoding: pending[start..<end], as: UTF8.self)
                        start = newline + 1
                        scanned = start
                        lineNumber += 1
                        return line
                    }
                    scanned = pending.count
                    if pending.count - start > maximumLineLength {
                        throw CourierError.decodingFailed(
                            path: "line \(lineNumber + 1)", reason: "longer than \(maximumLineLength) bytes")
                    }
                    if ended {
                        guard start < pending.count else { return nil }
                        let line = String(decoding: pending[start...], as: UTF8.self)
                        start = pending.count
                        lineNumber += 1
                        return line
                    }
                    if start > 0 {
                        pending.removeFirst(start)
                        scanned -= start
                        start = 0
                    }
                    if let chunk = try await bytes.next() {
                        pending.append(contentsOf: chunk)
                    } else {
                        ended = true
                    }
                }
            }
        }
    }

    /// The body as one JSON value per line; see ``DataStreamRequest/jsonLines(of:decoder:maximumLineLength:)``.
    package struct JSONLines<Value: Decodable & Sendable>: AsyncSequence, Sendable {
        /// A decoded line.
        package typealias Element = Value
        /// Every failure is a ``CourierError``.
        package typealias Failure = CourierError

        let lines: Lines
        let decoder: any DataDecoder

        /// Reads the body; see ``JSONLines``.
        package func makeAsyncIterator() -> Iterator {
            Iterator(lines: lines.makeAsyncIterator(), decoder: decoder)
        }

        /// Reads decoded values; see ``JSONLines``.
        package struct Iterator: AsyncIteratorProtocol {
            /// Every failure is a ``CourierError``.
            package typealias Failure = CourierError

            private var lines: Lines.Iterator
            private let decoder: any DataDecoder

            init(lines: Lines.Iterator, decoder: any DataDecoder) {
                self.lines = lines
                self.decoder = decoder
            }

            /// The next value, or nil after the last line.
            package mutating func next() async throws(CourierError) -> Value? {
                while let line = try await lines.next() {
                    guard line.contains(where: { !$0.isWhitespace }) else { continue }
                    do {
                        return try decoder.decode(Value.self, from: Data(line.utf8))
                    } catch {
                        let failure = CourierError.decoding(error)
                        guard failure == .decodingFailed, let path = failure.subject else { throw failure }
                        let place = "line \(lines.lineNumber)"
                        throw CourierError.decodingFailed(
                            path: path.isEmpty ? place : place + ": " + path, reason: failure.reason ?? "")
                    }
                }
                return nil
            }
        }
    }

    /// The body parsed as server-sent events; see `DataStreamRequest.events`.
    package struct Events: AsyncSequence, Sendable {
        /// An event.
        package typealias Element = ServerSentEvent
        /// Every failure is a ``CourierError``.
        package typealias Failure = CourierError

        let bytes: Bytes

        /// Reads the body; see ``Events``.
        package func makeAsyncIterator() -> Iterator {
            Iterator(request: bytes.request, bytes: bytes.makeAsyncIterator())
        }

        /// Reads events; see ``Events``.
        package struct Iterator: AsyncIteratorProtocol {
            /// Every failure is a ``CourierError``.
            package typealias Failure = CourierError

            private var reader: EventReader

            init(request: DataStreamRequest, bytes: Bytes.Iterator) {
                reader = EventReader(request: request, bytes: bytes, parser: ServerSentEventParser())
            }

            /// The next event, or nil when the stream ended.
            package mutating func next() async throws(CourierError) -> ServerSentEvent? {
                try await reader.next()
            }
        }
    }
}

/// Parses one connection's body into events: checks the content type first, then feeds chunks
/// to the parser and hands out the events it completes.
struct EventReader {
    let request: DataStreamRequest
    private var bytes: DataStreamRequest.Bytes.Iterator
    private(set) var parser: ServerSentEventParser
    private var ready: [ServerSentEvent] = []
    private var checked = false
    /// The server answered 204 No Content: no events, and (for a reconnecting stream) stop.
    private(set) var stopped = false

    init(request: DataStreamRequest, bytes: DataStreamRequest.Bytes.Iterator, parser: ServerSentEventParser) {
        self.request = request
        self.bytes = bytes
        self.parser = parser
    }

    /// The next event, nil when the body ended (an unfinished last event is discarded).
    mutating func next() async throws(CourierError) -> ServerSentEvent? {
        if !checked {
            checked = true
            let head = try await request.head()
            if head.statusCode == 204 {
                stopped = true
                return nil
            }
            let type = head.value(forHeader: "Content-Type")
            let mime = type?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard mime == "text/event-stream" else {
                request.cancel()
                throw CourierError.unacceptableContentType(type)
            }
        }
        while ready.isEmpty {
            guard let chunk = try await bytes.next() else {
                parser.endOfStream()
                return nil
            }
            ready = try parser.parse(chunk)
        }
        return ready.removeFirst()
    }
}
