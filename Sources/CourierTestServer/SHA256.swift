import Foundation

/// A small, dependency-free SHA-256 (FIPS 180-4), used for upload checksums.
enum SHA256 {
    /// The round constants: first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2
    ]

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
            while bytes.count - start >= 64 {
                SHA256.compress(&state, UnsafeRawBufferPointer(rebasing: bytes[start..<(start + 64)]))
                start += 64
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
            tail.withUnsafeBytes { raw in
                for block in 0..<(raw.count / 64) {
                    SHA256.compress(&state, UnsafeRawBufferPointer(rebasing: raw[(block * 64)..<(block * 64 + 64)]))
                }
            }
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

    /// Processes one 64-byte block. Written with inline rotations and raw pointers
    /// because tests run unoptimised builds, where helper calls dominate the cost.
    fileprivate static func compress(_ state: inout [UInt32], _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
            guard let w = buffer.baseAddress, let bytes = block.baseAddress else { return }
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            }
            for i in 16..<64 {
                let x = w[i &- 15]
                let y = w[i &- 2]
                let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            k.withUnsafeBufferPointer { table in
                guard let k = table.baseAddress else { return }
                for i in 0..<64 {
                    let s1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                    let t1 = h &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                    let s0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                    let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
            state[5] &+= f
            state[6] &+= g
            state[7] &+= h
        }
    }
}
