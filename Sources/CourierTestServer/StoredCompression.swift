import Foundation

/// Minimal gzip (RFC 1952) and zlib (RFC 1950) encoders built on DEFLATE *stored*
/// blocks (RFC 1951 §3.2.4): the output is valid for any decoder but not smaller
/// than the input. Used for the `/gzip` and `/deflate` routes; no zlib needed.
public enum StoredCompression {
    /// The largest payload of one stored block.
    static let maxStoredBlock = 65_535

    /// `data` wrapped as a gzip member: 10-byte header, stored blocks, CRC-32 and ISIZE trailer.
    public static func gzip(_ data: Data) -> Data {
        var out = Data(capacity: data.count + data.count / maxStoredBlock * 5 + 32)
        // ID1 ID2, CM=8 (deflate), FLG=0, MTIME=0 (4 bytes), XFL=0, OS=255 (unknown).
        out.append(contentsOf: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])
        appendStoredBlocks(data, to: &out)
        appendLittleEndian(crc32(data), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: data.count), to: &out)
        return out
    }

    /// `data` wrapped as a zlib stream: 2-byte header, stored blocks, big-endian Adler-32.
    /// This is what HTTP `Content-Encoding: deflate` means.
    public static func zlib(_ data: Data) -> Data {
        var out = Data(capacity: data.count + data.count / maxStoredBlock * 5 + 16)
        // CMF: CM=8, CINFO=7 (32 KiB window). FLG: FLEVEL=0, no dictionary, FCHECK so
        // that (CMF * 256 + FLG) % 31 == 0: 0x7801 = 30721 = 31 * 991.
        out.append(contentsOf: [0x78, 0x01])
        appendStoredBlocks(data, to: &out)
        let adler = adler32(data)
        out.append(contentsOf: [
            UInt8(truncatingIfNeeded: adler >> 24), UInt8(truncatingIfNeeded: adler >> 16),
            UInt8(truncatingIfNeeded: adler >> 8), UInt8(truncatingIfNeeded: adler)
        ])
        return out
    }

    /// `data` as a raw DEFLATE stream of stored blocks (at least one, the last marked final).
    public static func deflateStored(_ data: Data) -> Data {
        var out = Data()
        appendStoredBlocks(data, to: &out)
        return out
    }

    /// The CRC-32 (IEEE 802.3, reflected, as used by gzip and zip) of `data`.
    public static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        let table = crcTable
        data.withUnsafeBytes { raw in
            for byte in raw {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The Adler-32 checksum (as used by zlib) of `data`.
    public static func adler32(_ data: Data) -> UInt32 {
        let modulus: UInt32 = 65_521
        var a: UInt32 = 1
        var b: UInt32 = 0
        data.withUnsafeBytes { raw in
            var index = 0
            while index < raw.count {
                // 5552 is the largest run that cannot overflow 32 bits before reducing.
                let end = min(index + 5552, raw.count)
                while index < end {
                    a &+= UInt32(raw[index])
                    b &+= a
                    index += 1
                }
                a %= modulus
                b %= modulus
            }
        }
        return b << 16 | a
    }

    /// The 256-entry lookup table for the reflected polynomial 0xEDB88320.
    private static let crcTable: [UInt32] = (0..<256).map { seed in
        var value = UInt32(seed)
        for _ in 0..<8 {
            value = (value & 1) != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// Appends `data` as stored blocks of at most 65 535 bytes; an empty input
    /// still produces one (empty) final block.
    private static func appendStoredBlocks(_ data: Data, to out: inout Data) {
        var offset = 0
        repeat {
            let length = min(maxStoredBlock, data.count - offset)
            let isFinal = offset + length >= data.count
            // BFINAL bit, BTYPE=00; the rest of the byte is padding to the byte boundary.
            out.append(isFinal ? 0x01 : 0x00)
            let len = UInt16(length)
            let nlen = ~len
            out.append(contentsOf: [
                UInt8(truncatingIfNeeded: len), UInt8(truncatingIfNeeded: len >> 8),
                UInt8(truncatingIfNeeded: nlen), UInt8(truncatingIfNeeded: nlen >> 8)
            ])
            let start = data.startIndex + offset
            out.append(data[start..<(start + length)])
            offset += length
        } while offset < data.count
    }

    /// Appends `value` as 4 little-endian bytes.
    private static func appendLittleEndian(_ value: UInt32, to out: inout Data) {
        out.append(contentsOf: [
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)
        ])
    }
}
