import Foundation

/// Really compressed bodies for decompression-bomb tests: `count` zero bytes as a zlib stream
/// (HTTP `Content-Encoding: deflate`) of one fixed-Huffman DEFLATE block (RFC 1951 §3.2.6).
///
/// The encoding is a literal zero followed by back-references of 258 bytes at distance 1, 13 bits
/// each, so the stream is about `count / 159` bytes: 100 MiB of zeros travel as about 660 KB.
public enum CompressionBomb {
    /// `count` zero bytes, zlib-wrapped (header, one final fixed-Huffman block, Adler-32).
    public static func zlibZeros(count: Int) -> Data {
        var writer = BitWriter()
        writer.data.append(contentsOf: [0x78, 0x01])  // CMF/FLG as in StoredCompression.zlib
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE = 01, fixed Huffman codes
        var remaining = count
        if remaining > 0 {
            writer.writeCode(0x30, length: 8)  // literal 0
            remaining -= 1
        }
        while remaining >= 258 {
            writer.writeCode(0xC5, length: 8)  // length code 285: a match of 258
            writer.writeCode(0, length: 5)  // distance code 0: distance 1
            remaining -= 258
        }
        for _ in 0..<remaining {
            writer.writeCode(0x30, length: 8)
        }
        writer.writeCode(0, length: 7)  // end of block (code 256)
        writer.flush()
        // Adler-32 of zeros: a stays 1, b grows by 1 per byte.
        let adler = UInt32(count % 65_521) << 16 | 1
        writer.data.append(contentsOf: [
            UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16),
            UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)
        ])
        return writer.data
    }

    /// DEFLATE's bit order: values least-significant bit first, Huffman codes most-significant first.
    private struct BitWriter {
        var data = Data()
        private var buffer: UInt32 = 0
        private var count = 0

        mutating func write(_ value: UInt32, bits: Int) {
            buffer |= value << UInt32(count)
            count += bits
            while count >= 8 {
                data.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                count -= 8
            }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for bit in 0..<length where code & (1 << UInt32(length - 1 - bit)) != 0 {
                reversed |= 1 << UInt32(bit)
            }
            write(reversed, bits: length)
        }

        mutating func flush() {
            if count > 0 { data.append(UInt8(truncatingIfNeeded: buffer)) }
            buffer = 0
            count = 0
        }
    }
}
