import CourierSync
import Foundation

/// A chunk of a streamed body being filled by the engine, in memory from a ``ChunkPool``. The
/// memory belongs to whoever holds the buffer (the stream buffer's locked state) and, once
/// sealed, to the `Data` handed to the reader. Not `Sendable`: only the lock hands it on.
struct ChunkBuffer {
    let base: UnsafeMutableRawPointer
    private(set) var count = 0

    /// Appends `bytes`; the caller checked that they fit.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }
}

/// Reusable chunk memory for one response stream. The `Data` a reader gets owns its chunk's
/// memory and gives it back here when the reader lets go of it; at most `keep` chunks are kept.
final class ChunkPool: Sendable {
    let capacity: Int
    private let keep: Int
    /// Free chunks, as addresses (pointers are not Sendable; the lock guards them).
    private let free = Locked<[UInt]>([])

    init(capacity: Int, keep: Int) {
        self.capacity = capacity
        self.keep = keep
    }

    deinit {
        for address in free.withLock({ $0 }) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    /// How many free chunks are kept (tests).
    var keptCount: Int { free.withLock { $0.count } }

    /// An empty chunk: a kept one, or new memory.
    func take() -> ChunkBuffer {
        if let address = free.withLock({ $0.popLast() }), let base = UnsafeMutableRawPointer(bitPattern: address) {
            return ChunkBuffer(base: base)
        }
        return ChunkBuffer(base: .allocate(byteCount: capacity, alignment: 16))
    }

    /// Keeps `base` for reuse, or frees it when enough are kept.
    func give(_ base: UnsafeMutableRawPointer) {
        let kept = free.withLock { free -> Bool in
            guard free.count < keep else { return false }
            free.append(UInt(bitPattern: base))
            return true
        }
        if !kept { base.deallocate() }
    }

    /// The filled part of `chunk` as `Data` that owns the chunk: the memory comes back to the
    /// pool when the last copy of that `Data` goes away.
    func seal(_ chunk: ChunkBuffer) -> Data {
        guard chunk.count > 0 else {
            give(chunk.base)
            return Data()
        }
        return Data(bytesNoCopy: chunk.base, count: chunk.count, deallocator: .custom { [self] base, _ in give(base) })
    }
}
