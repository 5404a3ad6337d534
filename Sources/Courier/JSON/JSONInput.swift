import Foundation

/// Why a document is not JSON, or a value in it cannot be read as the requested type. Thrown
/// inside decoding and reported to the caller, like Foundation does, as
/// `DecodingError.dataCorrupted` at the top level ("The given data was not valid JSON.") with
/// this error as the underlying error.
struct JSONSyntaxError: Error, CustomStringConvertible, LocalizedError {
    /// What was wrong and where (line and column, counted from 1).
    let description: String
    /// The decoder could not get the memory it needed: the document may well be valid JSON.
    private(set) var isOutOfMemory = false

    var errorDescription: String? { description }

    init(_ description: String) {
        self.description = description
    }

    /// A buffer of `count` values of `type` could not be allocated.
    static func outOfMemory(_ count: Int, _ type: Any.Type) -> JSONSyntaxError {
        var error = JSONSyntaxError("Not enough memory for a buffer of \(count) \(type) values")
        error.isOutOfMemory = true
        return error
    }

    /// An error at byte `offset` of `input`, naming its line and column.
    ///
    /// The line breaks before `offset` are found with `memchr`, not byte by byte: code that tries
    /// one type and then another (`Int`, then `Double`) makes one of these for every value the
    /// first type refuses, each counting from the start of the document.
    init(_ problem: String, at offset: Int, in input: JSONInput) {
        let end = min(offset, input.count)
        var line = 1
        var lineStart = 0
        while lineStart < end,
            let found = memchr(input.base + lineStart, Int32(UInt8(ascii: "\n")), end - lineStart)
        {
            line += 1
            lineStart = UnsafeRawPointer(input.base).distance(to: UnsafeRawPointer(found)) + 1
        }
        self.description = "\(problem) at line \(line), column \(end - lineStart + 1)"
    }

    static func character(_ byte: UInt8, _ context: String, at offset: Int, in input: JSONInput) -> JSONSyntaxError {
        if offset >= input.count { return JSONSyntaxError("Unexpected end of input \(context)") }
        let shown =
            byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return JSONSyntaxError("Unexpected \(shown) \(context)", at: offset, in: input)
    }
}

/// The document's UTF-8 bytes, copied into a buffer of the decode's workspace, followed by zero
/// bytes so that the scanner can read a machine word past any position without bounds checks.
struct JSONInput {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    /// Zero bytes after the document: at least one word, so unaligned 8-byte loads anywhere in
    /// the document stay inside the allocation.
    static let padding = 16
    /// Offsets are stored in 32 bits.
    static let maximumSize = Int(UInt32.max) - padding

    /// Copies `data` into `work`'s document buffer, converting UTF-16 and UTF-32 to UTF-8 and
    /// dropping a byte order mark, as Foundation's `JSONDecoder` does (RFC 4627 section 3
    /// detection from the first four bytes).
    init(copying data: Data, into work: UnsafeMutablePointer<JSONWorkspace>) throws(JSONSyntaxError) {
        let (encoding, bomLength) = data.withUnsafeBytes { JSONInput.detectEncoding(of: $0) }
        if encoding == .utf8 {
            count = data.count - bomLength
            base = try JSONInput.paddedBuffer(count, in: work)
            data.withUnsafeBytes { JSONInput.copy(UnsafeRawBufferPointer(rebasing: $0[bomLength...]), to: base) }
        } else {
            guard var text = String(bytes: data.dropFirst(bomLength), encoding: encoding) else {
                throw JSONSyntaxError("The data is not valid in its detected encoding (\(encoding))")
            }
            count = text.utf8.count
            base = try JSONInput.paddedBuffer(count, in: work)
            text.withUTF8 { JSONInput.copy(UnsafeRawBufferPointer($0), to: base) }
        }
    }

    /// A buffer of `work` for `count` bytes, with its padding zeroed.
    private static func paddedBuffer(
        _ count: Int, in work: UnsafeMutablePointer<JSONWorkspace>
    ) throws(JSONSyntaxError) -> UnsafeMutablePointer<UInt8> {
        guard count <= maximumSize else {
            throw JSONSyntaxError("Documents larger than 4 GiB are not supported; use Foundation's JSONDecoder")
        }
        let base = try work.pointee.inputBuffer(count + padding)
        (base + count).initialize(repeating: 0, count: padding)
        return base
    }

    private static func copy(_ bytes: UnsafeRawBufferPointer, to base: UnsafeMutablePointer<UInt8>) {
        if bytes.count > 0 {
            UnsafeMutableRawPointer(base).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
    }

    /// The encoding RFC 4627 section 3 implies from the first four bytes, and the length of a
    /// byte order mark to skip.
    static func detectEncoding(of bytes: UnsafeRawBufferPointer) -> (String.Encoding, Int) {
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        let (b0, b1, b2, b3) = (at(0), at(1), at(2), at(3))
        switch (b0, b1, b2, b3) {
        case (0, 0, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        case (0, 0, 0, let last?) where last != 0: return (.utf32BigEndian, 0)
        case (0, let second?, 0, let fourth?) where second != 0 && fourth != 0: return (.utf16BigEndian, 0)
        case (let first?, 0, 0, 0) where first != 0: return (.utf32LittleEndian, 0)
        case (let first?, 0, let third?, 0) where first != 0 && third != 0: return (.utf16LittleEndian, 0)
        case (0, let second?, nil, nil) where second != 0: return (.utf16BigEndian, 0)
        case (let first?, 0, nil, nil) where first != 0: return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }
}
