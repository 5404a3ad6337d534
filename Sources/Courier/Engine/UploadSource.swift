import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request body the engine reads on demand through libcurl's read callback instead of copying
/// it into memory first (an ``HTTPRequest/Body`` that is not in memory).
package enum UploadSource: Sendable {
    /// Bytes and files sent one after another; can be sent again (redirects, retries).
    case segments(UploadSegments)
    /// Chunks produced by an async sequence while the upload runs; can be sent only once.
    case stream(UploadStreamBuffer)

    /// The exact number of bytes, when known before sending (the `Content-Length`).
    var length: Int64? {
        switch self {
        case .segments(let segments): return segments.length
        case .stream(let buffer): return buffer.length
        }
    }
}

/// A body made of in-memory bytes and files, read in order.
package struct UploadSegments: Sendable, Equatable {
    /// One piece of the body.
    package enum Segment: Sendable, Equatable {
        /// Bytes already in memory.
        case bytes(Data)
        /// A file, read from disk while sending; `length` is its size when it is a regular file
        /// (nil for pipes and devices, which are read to their end).
        case file(path: String, length: Int64?)
    }

    /// The pieces, in sending order.
    package var segments: [Segment]

    package init(_ segments: [Segment]) {
        self.segments = segments
    }

    /// The total size when every piece's size is known, else nil (sent with chunked encoding).
    package var length: Int64? {
        var total: Int64 = 0
        for segment in segments {
            switch segment {
            case .bytes(let data): total += Int64(data.count)
            case .file(_, let length):
                guard let length else { return nil }
                total += length
            }
        }
        return total
    }

    /// The upload of one file: its size is taken now (nil when it is not a regular file).
    /// Throws when the file is missing, unreadable or a directory.
    package static func file(_ url: URL) throws(CourierError) -> UploadSegments {
        UploadSegments([.file(path: url.path, length: try probe(url))])
    }

    /// The size of the regular file at `url`, nil for pipes and devices; throws when it cannot
    /// be read or is a directory.
    package static func probe(_ url: URL) throws(CourierError) -> Int64? {
        guard url.isFileURL else {
            throw CourierError.invalidRequest(reason: "'\(url.absoluteString)' is not a file URL")
        }
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw CourierError.invalidRequest(
                reason: "cannot read file '\(url.path)': \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw CourierError.invalidRequest(reason: "'\(url.path)' is a directory, not a file")
        case S_IFREG:
            guard access(url.path, R_OK) == 0 else {
                throw CourierError.invalidRequest(reason: "cannot read file '\(url.path)': permission denied")
            }
            return Int64(info.st_size)
        default:
            return nil
        }
    }
}

/// Reads ``UploadSegments`` front to back into caller-supplied buffers, opening each file only
/// while it is being read. Not thread-safe: one reader per send, used by one thread.
final class SegmentCursor {
    private let body: UploadSegments
    private var index = 0
    /// Bytes of the current segment already read.
    private var offset: Int64 = 0
    private var descriptor: Int32 = -1
    /// Why reading failed, once it has.
    private(set) var failure: CourierError?

    init(_ body: UploadSegments) {
        self.body = body
    }

    deinit {
        closeFile()
    }

    /// Fills up to `capacity` bytes; returns the count (0 at the end) or -1 after a failure.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        guard failure == nil else { return -1 }
        var filled = 0
        while filled < capacity, index < body.segments.count {
            switch body.segments[index] {
            case .bytes(let data):
                let start = Int(offset)
                let count = min(data.count - start, capacity - filled)
                if count > 0 {
                    data.withUnsafeBytes { source in
                        if let base = source.baseAddress {
                            (buffer + filled).copyMemory(from: base + start, byteCount: count)
                        }
                    }
                    filled += count
                    offset += Int64(count)
                }
                if Int(offset) >= data.count { advance() }
            case .file(let path, let length):
                let count = readFile(path: path, length: length, into: buffer + filled, capacity: capacity - filled)
                if count < 0 { return -1 }
                if count == 0 { advance() } else { filled += count }
            }
        }
        return filled
    }

    /// Reads the current file; 0 means it is finished, -1 a failure.
    private func readFile(path: String, length: Int64?, into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                return fail("cannot open '\(path)': \(String(cString: strerror(errno)))")
            }
            if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
                return fail("cannot seek in '\(path)': \(String(cString: strerror(errno)))")
            }
        }
        var wanted = capacity
        if let length { wanted = Int(min(Int64(capacity), length - offset)) }
        guard wanted > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, buffer, wanted)
            if count < 0 {
                if errno == EINTR { continue }
                return fail("cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0, let length, offset < length {
                return fail("'\(path)' shrank while it was being sent: \(offset) of \(length) bytes")
            }
            offset += Int64(count)
            return count
        }
    }

    private func fail(_ reason: String) -> Int {
        failure = .invalidRequest(reason: "upload body: " + reason)
        closeFile()
        return -1
    }

    private func advance() {
        closeFile()
        index += 1
        offset = 0
    }

    private func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    /// Moves to `position` from the start; false when that needs a size that is not known.
    func seek(to position: Int64) -> Bool {
        closeFile()
        failure = nil
        var remaining = position
        for (segmentIndex, segment) in body.segments.enumerated() {
            let size: Int64?
            switch segment {
            case .bytes(let data): size = Int64(data.count)
            case .file(_, let length): size = length
            }
            if let size, remaining >= size, segmentIndex < body.segments.count - 1 {
                remaining -= size
                continue
            }
            guard size != nil || remaining == 0 else { return false }
            index = segmentIndex
            offset = remaining
            return true
        }
        index = body.segments.count
        offset = 0
        return remaining == 0
    }
}
