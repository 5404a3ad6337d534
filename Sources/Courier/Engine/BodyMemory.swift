import CourierSync
import Foundation

/// Reusable memory for the response bodies the engine copies out of libcurl in one piece: a body
/// whose head declared its length and which arrived in one write callback (the usual small
/// response), of 129 bytes to 16 KiB.
///
/// Why: the engine thread allocates a body and the caller's thread frees it. With plain `malloc`
/// such memory never returns to the engine thread's cache, so each body's `malloc` takes the
/// engine's arena lock, and the caller's `free` takes the same lock from the other core; under
/// load the two collide and one of them sleeps in the kernel. Here a body's memory comes back to a
/// free list when its `Data` goes away, and the engine takes it from there: one short lock section
/// on each side. In W2 (64 requests in flight) this took the engine thread's context switches
/// from about 2,600 to about 350 in a run of 60,000 requests, and 2.8 µs of CPU off each request
/// (Benchmarks/EXPERIMENTS.md, Round 28).
///
/// Memory is kept by size class, powers of two from 256 bytes to 16 KiB, at most
/// ``keepPerClass`` free chunks per class (about 1 MiB in all). Each chunk starts with a 16-byte
/// prefix naming its pool and class, so that the `Data` deallocator captures nothing (a capture
/// would allocate a closure context per body) and does not depend on the length it is given.
/// The engine uses ``shared``, which lives as long as the process; a pool must outlive the
/// `Data` made from it.
final class BodyMemory: Sendable {
    /// The pool every engine uses.
    static let shared = BodyMemory()

    /// The smallest class's size as a power of two (256 bytes).
    static let smallestShift = 8
    /// The number of classes: 256 bytes, 512 bytes, 1, 2, 4, 8 and 16 KiB.
    static let classCount = 7
    /// Free chunks kept per class.
    static let keepPerClass = 32
    /// The prefix before the bytes: the pool (unretained) and the class.
    private static let prefix = 16

    /// The free chunks, by class.
    private let free = Locked(FreeLists())

    init() {}

    deinit {
        for address in free.withLock({ $0.drain() }) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    /// The size class of a body of `count` bytes, or nil when it is outside the classes.
    static func sizeClass(for count: Int) -> Int? {
        guard count > 1 << (smallestShift - 1), count <= 1 << (smallestShift + classCount - 1) else { return nil }
        // The smallest power of two at or above `count`, as a class index.
        return Int.bitWidth - (count - 1).leadingZeroBitCount - smallestShift
    }

    /// A copy of `bytes` as `Data` over memory of this pool, which gets the memory back when the
    /// last copy of the `Data` goes away; nil when the length has no class.
    func data(copying bytes: UnsafeRawBufferPointer) -> Data? {
        guard let source = bytes.baseAddress, let sizeClass = Self.sizeClass(for: bytes.count) else { return nil }
        let chunk = take(sizeClass)
        let start = chunk + Self.prefix
        start.copyMemory(from: source, byteCount: bytes.count)
        return Data(
            bytesNoCopy: start, count: bytes.count, deallocator: .custom { start, _ in BodyMemory.release(start) })
    }

    /// How many free chunks are kept (tests).
    var keptCount: Int { free.withLock { $0.count } }

    /// A free chunk of `sizeClass`, or new memory, with its prefix written.
    private func take(_ sizeClass: Int) -> UnsafeMutableRawPointer {
        let chunk: UnsafeMutableRawPointer
        if let address = free.withLock({ $0.pop(sizeClass) }), let kept = UnsafeMutableRawPointer(bitPattern: address) {
            chunk = kept
        } else {
            chunk = .allocate(byteCount: Self.prefix + (1 << (Self.smallestShift + sizeClass)), alignment: 16)
        }
        chunk.storeBytes(of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
        chunk.storeBytes(of: sizeClass, toByteOffset: 8, as: Int.self)
        return chunk
    }

    /// The `Data` deallocator: gives the chunk whose bytes start at `start` back to its pool.
    private static func release(_ start: UnsafeMutableRawPointer) {
        let chunk = start - prefix
        let pool = chunk.load(as: UnsafeMutableRawPointer.self)
        let sizeClass = chunk.load(fromByteOffset: 8, as: Int.self)
        Unmanaged<BodyMemory>.fromOpaque(pool)._withUnsafeGuaranteedRef { $0.give(chunk, sizeClass) }
    }

    /// Keeps `chunk` for reuse, or frees it when its class has enough.
    private func give(_ chunk: UnsafeMutableRawPointer, _ sizeClass: Int) {
        if !free.withLock({ $0.push(UInt(bitPattern: chunk), sizeClass) }) { chunk.deallocate() }
    }

    /// The free chunks of every class as addresses (pointers are not `Sendable`; the lock guards
    /// them), each class in its part of one fixed array: nothing is allocated under the lock.
    private struct FreeLists: Sendable {
        private var addresses = [UInt](repeating: 0, count: BodyMemory.classCount * BodyMemory.keepPerClass)
        private var counts = [Int](repeating: 0, count: BodyMemory.classCount)

        var count: Int { counts.reduce(0, +) }

        mutating func pop(_ sizeClass: Int) -> UInt? {
            let count = counts[sizeClass]
            guard count > 0 else { return nil }
            counts[sizeClass] = count - 1
            return addresses[sizeClass * BodyMemory.keepPerClass + count - 1]
        }

        mutating func push(_ address: UInt, _ sizeClass: Int) -> Bool {
            let count = counts[sizeClass]
            guard count < BodyMemory.keepPerClass else { return false }
            addresses[sizeClass * BodyMemory.keepPerClass + count] = address
            counts[sizeClass] = count + 1
            return true
        }

        /// Every kept address; none is kept afterwards.
        mutating func drain() -> [UInt] {
            var all: [UInt] = []
            for sizeClass in 0..<BodyMemory.classCount {
                let base = sizeClass * BodyMemory.keepPerClass
                all += addresses[base..<base + counts[sizeClass]]
                counts[sizeClass] = 0
            }
            return all
        }
    }
}
