import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is read as it arrives, as an `AsyncSequence`, with
/// backpressure: when the reader falls behind, the transfer pauses, so memory stays bounded by
/// the buffer size given to ``Session/streamRequest(_:bufferSize:)`` whatever the body's size.
///
/// ```swift
/// let stream = session.streamRequest(LogsAPI.tail(service: "api")).validate()
/// let head = try await stream.head()                 // status and headers, before the body
/// for try await line in stream.lines() {             // or .bytes, .jsonLines(of:)
///     print(line)
/// }
/// ```
/// The transfer starts with the first `head()`, `completion()` or read of the body. The body can
/// be read once, through one of ``bytes``, ``lines(maximumLineLength:)`` or ``jsonLines(of:decoder:maximumLineLength:)``
/// (server-sent events: ``Session/eventStream(_:reconnection:bufferSize:)``). Cancelling the reading task, breaking out of the loop, calling ``cancel()`` or
/// dropping the request (and its sequences) cancels the transfer at once; the request completes
/// exactly once (see ``completion()``).
///
/// Unlike a ``DataRequest``: there is no overall time limit unless the request sets its own
/// (`URLRequest.timeoutInterval` or a router's `timeout`) — the connect and idle limits of the
/// session apply, and waiting for a slow reader does not count as idle; the in-memory size limit
/// does not apply (``SecurityPolicy/maxDownloadSize`` does); the session's retry policy does not
/// apply (a body partly read cannot be taken back). Interceptors adapt the request and plugins
/// see it (`prepare`, `willSend`, `didReceive`), as for other requests.
public final class DataStreamRequest: Sendable {
    /// The default buffer size: 1 MiB.
    @usableFromInline static let defaultBufferSize = 1 << 20
    /// The default longest line of ``lines(maximumLineLength:)`` and ``jsonLines(of:decoder:maximumLineLength:)``: 1 MiB.
    @usableFromInline static let defaultMaximumLineLength = 1 << 20

    /// The session that made this request.
    package let session: Session
    /// The most body bytes held between the network and the reader. At least 64 KiB. libcurl
    /// holds up to its receive buffer more (16 KiB, or `receiveBufferSize`).
    package let bufferSize: Int
    let core: StreamCore

    init(
        session: Session, target: any URLRequestConvertible, request: Result<HTTPRequest, CourierError>,
        bufferSize: Int, epoch: UInt64? = nil
    ) {
        self.session = session
        core = StreamCore(session: session, target: target, request: request, bufferSize: bufferSize, epoch: epoch)
        self.bufferSize = core.buffer.window
    }

    deinit {
        // Nothing can read the body any more.
        core.cancel()
    }

    /// The request as built, with the session's default headers, or nil if building it failed.
    public var request: HTTPRequest? {
        guard case .success(let request) = core.built else { return nil }
        return request
    }

    // MARK: Validation

    /// Accepts only 2xx status codes; checked on the head, before any body is read.
    @discardableResult
    public func validate() -> Self {
        validate(statusCode: 200..<300)
    }

    /// Accepts only status codes in `acceptable`; others fail with
    /// ``CourierError/unacceptableStatusCode`` before any body is read, and the transfer stops.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptable: S) -> Self where S.Element == Int {
        core.addStatusValidation { acceptable.contains($0) }
        return self
    }

    /// Accepts only a `Content-Type` matching one of `acceptable` (`type/subtype`, `type/*`, `*/*`);
    /// others fail with ``CourierError/unacceptableContentType`` before any body is read.
    @discardableResult
    public func validate(contentType acceptable: [String]) -> Self {
        core.addContentTypeValidation(acceptable)
        return self
    }

    // MARK: Reading

    /// Waits for the response's status and headers (starting the transfer if needed) and
    /// validates them. Throws the transfer's error, or the validation error (which stops the
    /// transfer). Cancelling the waiting task cancels the request.
    public func head() async throws(CourierError) -> HTTPResponseHead {
        HTTPResponseHead(try await core.head())
    }

    /// The body in chunks as they arrive (each at most a quarter of the buffer size, at least
    /// 64 KiB: 256 KiB by default; smaller when the reader keeps up). A body can be read once: a
    /// second iterator of the same request throws ``CourierError/invalidRequest``.
    public var bytes: some AsyncSequence<Data, CourierError> & Sendable { bodyBytes }

    /// The body as lines of text: split at LF (a CR before it is dropped), decoded as UTF-8
    /// (invalid bytes become U+FFFD); a last line without a line end is included. A line longer
    /// than `maximumLineLength` bytes (default 1 MiB) throws ``CourierError/decodingFailed``, so a
    /// server cannot make the reader hold unbounded memory.
    public func lines(
        maximumLineLength: Int = DataStreamRequest.defaultMaximumLineLength
    ) -> some AsyncSequence<String, CourierError> & Sendable {
        Lines(bytes: bodyBytes, maximumLineLength: maximumLineLength)
    }

    /// The body's chunks, as the other sequences read them.
    package var bodyBytes: Bytes { Bytes(request: self) }

    /// The body as one JSON value per line (JSON Lines, NDJSON), decoded as `type` with
    /// `decoder`, or the session's ``Session/Configuration/decoder`` (``CourierJSONDecoder``
    /// unless configured otherwise); blank lines are skipped. A line that does not decode throws
    /// ``CourierError/decodingFailed`` with a path starting `line N`.
    public func jsonLines<T: Decodable & Sendable>(
        of type: T.Type = T.self, decoder: (any DataDecoder)? = nil,
        maximumLineLength: Int = DataStreamRequest.defaultMaximumLineLength
    ) -> some AsyncSequence<T, CourierError> & Sendable {
        JSONLines(
            lines: Lines(bytes: bodyBytes, maximumLineLength: maximumLineLength),
            decoder: decoder ?? session.configuration.decoder)
    }

    /// The body parsed as server-sent events, without reconnection: what each connection of
    /// ``Session/eventStream(_:reconnection:bufferSize:)`` reads (users call that, with
    /// ``EventStreamReconnection/never`` for one connection). Throws
    /// ``CourierError/unacceptableContentType`` when the response is not `text/event-stream`.
    package var events: Events { Events(bytes: bodyBytes) }

    /// Cancels the request; the body's sequence then throws ``CourierError/cancelled``. Safe from
    /// any thread, any number of times; does nothing once the request has completed.
    public func cancel() {
        core.cancel()
    }

    /// True once ``cancel()`` was called (or the reading task was cancelled) before completion.
    public var isCancelled: Bool { core.isCancelled }

    /// Waits until the request has completed — the whole body read, or a failure — and returns
    /// the final response: request, status, headers, metrics, and `result` (`.success` or the
    /// error the body's sequence threw). Called any number of times, it returns the same value.
    /// It does not read the body: a body nobody reads pauses the transfer until it is read or
    /// cancelled.
    public func completion() async -> DataResponse<Void> {
        await core.completion()
    }
}

extension Session {
    /// Prepares a request whose response body is read as it arrives, with backpressure:
    /// ```swift
    /// for try await chunk in session.streamRequest(VideoAPI.file(id)).validate().bytes {
    ///     try output.write(contentsOf: chunk)
    /// }
    /// ```
    /// At most `bufferSize` bytes (at least 64 KiB) wait between the network and the reader;
    /// beyond that the transfer pauses until the reader catches up. See ``DataStreamRequest``.
    public func streamRequest(
        _ convertible: any URLRequestConvertible,
        bufferSize: Int = DataStreamRequest.defaultBufferSize
    ) -> DataStreamRequest {
        DataStreamRequest(session: self, target: convertible, request: build(convertible), bufferSize: bufferSize)
    }
}
