import Foundation

/// One event of a `text/event-stream` (server-sent events).
public struct ServerSentEvent: Sendable, Equatable, CustomStringConvertible {
    /// The event type: the last `event:` field of the event, or `"message"` when it had none.
    public var event: String
    /// The `data:` lines of the event joined with `"\n"`.
    public var data: String
    /// The last event ID when the event was dispatched: set by an `id:` field in this event or an
    /// earlier one (empty when no event ever had one). Sent back as `Last-Event-ID` on reconnection.
    public var id: String

    /// Creates an event.
    public init(event: String = "message", data: String, id: String = "") {
        self.event = event
        self.data = data
        self.id = id
    }

    /// For example `message #7: {"text":"hi"}`.
    public var description: String {
        "\(event)\(id.isEmpty ? "" : " #\(id)"): \(data)"
    }

    /// `data` decoded as JSON into `type`; throws ``CourierError/decodingFailed``.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
    ) throws(CourierError) -> T {
        do {
            return try decoder.decode(T.self, from: Data(data.utf8))
        } catch {
            throw CourierError.decoding(error)
        }
    }
}

/// The `text/event-stream` parser of the WHATWG HTML standard (§9.2 "Server-sent events"), as a
/// value: feed it bytes in pieces of any size, get the complete events back.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = try parser.parse(Data("id: 1\ndata: hello\ndata: world\n\n".utf8))
/// // [ServerSentEvent(event: "message", data: "hello\nworld", id: "1")]
/// ```
/// It follows the standard: lines end with CRLF, LF or CR (also split across pieces); a leading
/// UTF-8 byte order mark is skipped; lines starting with `:` are comments; a field without a
/// colon has an empty value and one space after the colon is dropped; `data` lines accumulate;
/// `event` sets the type; `id` sets the last event ID (unless it contains NUL) and it persists to
/// later events; `retry` with only digits sets ``reconnectionTime``; other fields are ignored. A
/// blank line dispatches the event, unless no `data` line came. Invalid UTF-8 becomes U+FFFD.
/// At the end of the stream an event without its closing blank line is **discarded**, as the
/// standard says; call ``endOfStream()`` there.
package struct ServerSentEventParser: Sendable {
    /// The default ``maximumEventSize``: 1 MiB.
    package static let defaultMaximumEventSize = 1 << 20

    /// The last event ID as of the latest dispatched event (empty until an `id` field is seen):
    /// what a reconnection sends as `Last-Event-ID`.
    package private(set) var lastEventID = ""
    /// The reconnection delay the server asked for with its latest valid `retry` field.
    package private(set) var reconnectionTime: Duration?
    /// The longest event (its pending line and data together) accepted, in bytes; a longer one
    /// makes ``parse(_:)`` throw, so a server cannot make the parser hold unbounded memory.
    package var maximumEventSize: Int

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var idBuffer = ""
    /// The previous piece ended with CR: an LF starting the next piece belongs to it.
    private var afterCR = false
    /// Bytes of a possible byte order mark at the very start of the stream.
    private var bomCheck: [UInt8] = []
    private var startChecked = false

    /// Creates a parser for a new stream.
    package init(maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize) {
        self.maximumEventSize = maximumEventSize
    }

    /// Feeds the next piece of the stream; returns the events it completed, in order. Throws
    /// ``CourierError/decodingFailed`` when an event grows past ``maximumEventSize``.
    package mutating func parse(_ bytes: Data) throws(CourierError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var failure: CourierError?
        bytes.withUnsafeBytes { raw in
            for byte in raw where failure == nil {
                failure = consume(byte, into: &events)
            }
        }
        if let failure { throw failure }
        return events
    }

    /// The stream ended: an unfinished event is discarded and the parser is ready for a new
    /// connection (``lastEventID`` and ``reconnectionTime`` are kept, as a reconnection needs them).
    package mutating func endOfStream() {
        line.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType = ""
        afterCR = false
        bomCheck.removeAll()
        startChecked = false
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) -> CourierError? {
        if !startChecked {
            // A stream may start with EF BB BF, which is not part of the first line.
            bomCheck.append(byte)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if bom.starts(with: bomCheck) {
                if bomCheck.count == 3 {
                    startChecked = true
                    bomCheck.removeAll()
                }
                return nil
            }
            startChecked = true
            let pending = bomCheck
            bomCheck.removeAll()
            for pendingByte in pending {
                if let failure = consumeLineByte(pendingByte, into: &events) { return failure }
            }
            return nil
        }
        return consumeLineByte(byte, into: &events)
    }

    private mutating func consumeLineByte(_ byte: UInt8, into events: inout [ServerSentEvent]) -> CourierError? {
        switch byte {
        case 0x0A where afterCR:
            afterCR = false
        case 0x0A, 0x0D:
            afterCR = byte == 0x0D
            processLine(into: &events)
            line.removeAll(keepingCapacity: true)
        default:
            afterCR = false
            line.append(byte)
            if line.count + data.count > maximumEventSize {
                return .decodingFailed(path: "", reason: "a server-sent event is longer than \(maximumEventSize) bytes")
            }
        }
        return nil
    }

    private mutating func processLine(into events: inout [ServerSentEvent]) {
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == 0x3A { return }  // ":" starts a comment
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: 0x3A) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            data.append(contentsOf: value)
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return }
        data.removeLast()  // the LF after the last data line
        events.append(
            ServerSentEvent(
                event: eventType.isEmpty ? "message" : eventType,
                data: String(decoding: data, as: UTF8.self), id: lastEventID))
    }
}
