import CourierSync
import Foundation

/// Reusable memory for what the engine hands over of a response: a body it copies out of libcurl
/// in one piece (its head declared its length and it arrived in one write callback, the usual
/// small response), and the head's fields (``HeaderFieldsBuilder/frozen(in:)``), of 129 bytes to
/// 16 KiB.
///
/// Why: the engine thread allocates that memory and the caller's thread frees it. With plain
/// `malloc` it never returns to the engine thread's cache, so each `malloc` takes the engine's
/// arena lock, and the caller's `free` takes the same lock from the other core; under load the two
/// collide and one of them sleeps in the kernel. Here the memory comes back to a free list when
/// the `Data` over it goes away, and the engine takes it from there: one short lock section on
/// each side. In W2 (64 requests in flight) bodies alone took the engine thread's context switches
/// from about 2,600 to about 350 in a run of 60,000 requests, and 2.8 µs of CPU off each request
/// (Benchmarks/EXPERIMENTS.md, Round 28).
///
/// Memory is kept by size class, powers of two from 256 bytes to 16 KiB, at most
/// ``keepPerClass`` free chunks per class (about 1 MiB in all). Each chunk starts with a 16-byte
/// prefix naming its pool and class, so that the `Data` deallocator captures nothing (a capture
/// would allocate a closure context each time) and does not depend on the length it is given.
/// The engine uses ``shared``, which lives as long as the process; a pool must outlive the
/// `Data` made from it.
final class ResponseMemory: Sendable {
    /// The pool every engine uses.
    static let shared = ResponseMemory()

    /// The smallest class's size as a power of two (256 bytes).
    static let smallestShift = 8
    /// The number of classes: 256 bytes, 512 bytes, 1, 2, 4, 8 and 16 KiB.
    static let classCount = 7
    /// Free chunks kept per class.
    static let keepPerClass = 32
    /// The prefix before the bytes: the pool (unretained) and the class.
    private static let prefix = 16

    /// The free chunks, by class, under one lock (a lock per class, in an array, would cost a
    /// retain and a release of the lock for each use).
    private let free = Locked(FreeLists())

    init() {}

    deinit {
        for address in free.withLock({ $0.drain() }) {
            UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
        }
    }

    /// The size class of `count` bytes, or nil when it is outside the classes.
    static func sizeClass(for count: Int) -> Int? {
        guard count > 1 << (smallestShift - 1), count <= 1 << (smallestShift + classCount - 1) else { return nil }
        // The smallest power of two at or above `count`, as a class index.
        return Int.bitWidth - (count - 1).leadingZeroBitCount - smallestShift
    }

    /// A copy of `bytes` as `Data` over memory of this pool, which gets the memory back when the
    /// last copy of the `Data` goes away; nil when the length has no class.
    func data(copying bytes: UnsafeRawBufferPointer) -> Data? {
        guard let source = bytes.baseAddress else { return nil }
        return data(count: bytes.count) { $0.baseAddress?.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// `count` bytes of this pool's memory, written by `fill`, as `Data` that gives the memory back
    /// when its last copy goes away; nil (and `fill` not called) when the length has no class.
    func data(count: Int, initializingWith fill: (UnsafeMutableRawBufferPointer) -> Void) -> Data? {
        guard let sizeClass = Self.sizeClass(for: count) else { return nil }
        let start = take(sizeClass) + Self.prefix
        fill(UnsafeMutableRawBufferPointer(start: start, count: count))
        return Data(
            bytesNoCopy: start, count: count, deallocator: .custom { start, _ in ResponseMemory.release(start) })
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
        Unmanaged<ResponseMemory>.fromOpaque(pool)._withUnsafeGuaranteedRef { $0.give(chunk, sizeClass) }
    }

    /// Keeps `chunk` for reuse, or frees it when its class has enough.
    private func give(_ chunk: UnsafeMutableRawPointer, _ sizeClass: Int) {
        if !free.withLock({ $0.push(UInt(bitPattern: chunk), sizeClass) }) { chunk.deallocate() }
    }

    /// The free chunks of every class as addresses (pointers are not `Sendable`; the lock guards
    /// them), each class in its part of one fixed array: nothing is allocated under the lock.
    private struct FreeLists: Sendable {
        private var addresses = [UInt](repeating: 0, count: ResponseMemory.classCount * ResponseMemory.keepPerClass)
        private var counts = [Int](repeating: 0, count: ResponseMemory.classCount)

        var count: Int { counts.reduce(0, +) }

        mutating func pop(_ sizeClass: Int) -> UInt? {
            let count = counts[sizeClass]
            guard count > 0 else { return nil }
            counts[sizeClass] = count - 1
            return addresses[sizeClass * ResponseMemory.keepPerClass + count - 1]
        }

        mutating func push(_ address: UInt, _ sizeClass: Int) -> Bool {
            let count = counts[sizeClass]
            guard count < ResponseMemory.keepPerClass else { return false }
            addresses[sizeClass * ResponseMemory.keepPerClass + count] = address
            counts[sizeClass] = count + 1
            return true
        }

        /// Every kept address; none is kept afterwards.
        mutating func drain() -> [UInt] {
            var all: [UInt] = []
            for sizeClass in 0..<ResponseMemory.classCount {
                let base = sizeClass * ResponseMemory.keepPerClass
                all += addresses[base..<base + counts[sizeClass]]
                counts[sizeClass] = 0
            }
            return all
        }
    }
}
