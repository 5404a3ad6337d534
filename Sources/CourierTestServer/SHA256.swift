import CSHA256
import Foundation

/// SHA-256 (FIPS 180-4), used for upload checksums; the compression function is C (`CSHA256`).
enum SHA256 {
    /// The digest of `data` as 64 lowercase hex characters.
    static func hexDigest(_ data: Data) -> String {
        var hasher = Hasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.hexDigest()
    }

    /// The 32-byte digest of `data`.
    static func digest(_ data: Data) -> [UInt8] {
        var hasher = Hasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// An incremental SHA-256: feed bytes in any number of pieces, then finalize once.
    struct Hasher {
        private var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        ]
        /// Bytes of an unfinished block.
        private var pending: [UInt8] = []
        /// Total bytes fed.
        private(set) var count: Int = 0

        /// Adds `bytes` to the message.
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            var start = 0
            if !pending.isEmpty {
                let take = min(64 - pending.count, bytes.count)
                pending.append(contentsOf: bytes[0..<take])
                start = take
                guard pending.count == 64 else { return }
                pending.withUnsafeBytes { SHA256.compress(&state, $0) }
                pending.removeAll(keepingCapacity: true)
            }
            let whole = (bytes.count - start) / 64 * 64
            if whole > 0 {
                SHA256.compress(&state, UnsafeRawBufferPointer(rebasing: bytes[start..<(start + whole)]))
                start += whole
            }
            if start < bytes.count { pending.append(contentsOf: bytes[start...]) }
        }

        /// The digest; the hasher must not be used afterwards.
        mutating func finalize() -> [UInt8] {
            // Padding: 0x80, zeros, and the bit length as a big-endian UInt64.
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            let bitLength = UInt64(count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            tail.withUnsafeBytes { SHA256.compress(&state, $0) }
            return state.flatMap { word in
                [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
            }
        }

        /// The digest as 64 lowercase hex characters.
        mutating func hexDigest() -> String {
            finalize().map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
        }
    }

    /// Processes `blocks`, a whole number of 64-byte blocks.
    fileprivate static func compress(_ state: inout [UInt32], _ blocks: UnsafeRawBufferPointer) {
        precondition(blocks.count % 64 == 0, "SHA-256 compresses whole 64-byte blocks")
        guard let base = blocks.baseAddress, !blocks.isEmpty else { return }
        state.withUnsafeMutableBufferPointer { words in
            courier_sha256_blocks(words.baseAddress, base, blocks.count / 64)
        }
    }
}
