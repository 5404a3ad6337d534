/// A buffered reader over a blocking byte source (a socket), used by one connection thread.
///
/// Not thread-safe and deliberately not `Sendable`: each connection owns its reader.
final class ByteReader {
    /// The outcome of ``readLine(maxLength:)``.
    enum Line {
        /// A line without its terminating LF (and without a preceding CR).
        case line([UInt8])
        /// More than the allowed number of bytes arrived without a line end.
        case tooLong
        /// The stream ended (or failed); `partial` tells whether bytes of an unfinished line were pending.
        case end(partial: Bool)
    }

    /// Reads into the buffer; returns the byte count, 0 at end of stream, negative on error.
    typealias Source = (UnsafeMutableRawBufferPointer) -> Int

    /// How much to ask the source for at a time.
    private static let chunkSize = 65_536

    private var buffer: [UInt8] = []
    private var start = 0
    private let source: Source

    /// Creates a reader pulling bytes from `source`.
    init(source: @escaping Source) {
        self.source = source
    }

    /// Creates a reader over the socket `fd`.
    convenience init(fd: Int32) {
        self.init { POSIXSocket.receive(fd, into: $0) }
    }

    /// The number of bytes read from the source but not consumed yet.
    var bufferedCount: Int { buffer.count - start }

    /// Reads one line terminated by LF (a CR before the LF is dropped).
    func readLine(maxLength: Int) -> Line {
        var scanFrom = start
        while true {
            if let newline = buffer[scanFrom...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                compactIfNeeded()
                return line.count > maxLength ? .tooLong : .line(line)
            }
            if bufferedCount > maxLength { return .tooLong }
            scanFrom = buffer.count
            let offset = scanFrom - start
            guard fill() else { return .end(partial: bufferedCount > 0) }
            scanFrom = start + offset
        }
    }

    /// Consumes a line end (CRLF or a bare LF) that must come next; `false` if other bytes
    /// come instead (detected as soon as they arrive) or the stream ends.
    func expectLineEnd() -> Bool {
        guard let first = nextByte() else { return false }
        if first == 0x0A { return true }
        guard first == 0x0D, let second = nextByte() else { return false }
        return second == 0x0A
    }

    /// Consumes and returns the next byte, or `nil` at end of stream.
    private func nextByte() -> UInt8? {
        if bufferedCount == 0 && !fill() { return nil }
        let byte = buffer[start]
        start += 1
        compactIfNeeded()
        return byte
    }

    /// Appends exactly `count` bytes to `output`; `false` if the stream ends first.
    func readExactly(_ count: Int, into output: inout [UInt8]) -> Bool {
        var needed = count
        while needed > 0 {
            if bufferedCount == 0 && !fill() { return false }
            let take = min(needed, bufferedCount)
            output.append(contentsOf: buffer[start..<(start + take)])
            start += take
            needed -= take
            compactIfNeeded()
        }
        return true
    }

    /// Passes exactly `count` bytes to `sink` in pieces, without keeping them; `false` if the
    /// stream ends first.
    func readExactly(_ count: Int, to sink: (UnsafeRawBufferPointer) -> Void) -> Bool {
        var needed = count
        while needed > 0 {
            if bufferedCount == 0 && !fill() { return false }
            let take = min(needed, bufferedCount)
            buffer[start..<(start + take)].withUnsafeBytes { sink($0) }
            start += take
            needed -= take
            compactIfNeeded()
        }
        return true
    }

    /// Pulls more bytes from the source into the buffer; `false` at end of stream or error.
    private func fill() -> Bool {
        var received = 0
        withUnsafeTemporaryAllocation(byteCount: Self.chunkSize, alignment: 1) { scratch in
            received = source(scratch)
            if received > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<received]))
            }
        }
        return received > 0
    }

    /// Drops consumed bytes once they are worth moving.
    private func compactIfNeeded() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4 * Self.chunkSize)
            start = 0
        } else if start > Self.chunkSize && start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
