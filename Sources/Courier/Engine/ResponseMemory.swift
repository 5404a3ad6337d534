import CourierSync
import Foundation
import Synchronization

/// Reusable memory for what the engine hands over of a response: a body it copies out of libcurl
/// in one piece (its head declared its length and it arrived in one write callback, the usual
/// small response), and the head's fields (``HeaderFieldsBuilder/frozen(in:)``), of 129 bytes to
/// 16 KiB.
///
/// Why: the engine thread allocates that memory and the caller's thread frees it. With plain
/// `malloc` it never returns to the engine thread's cache, so each `malloc` takes the engine's
/// arena lock, and the caller's `free` takes the same lock from the other core; under load the two
/// collide and one of them sleeps in the kernel (Benchmarks/EXPERIMENTS.md, Round 28).
///
/// So memory comes back here when the `Data` over it goes away, and without a lock on the giving
/// side: a giving thread pushes the chunk onto one stack of returned chunks with a
/// compare-and-swap, and a taking thread (an engine's) takes the whole stack at once, with one
/// exchange, when the class it needs has no chunk ready, and sorts it by class. Only taking
/// threads touch the ready chunks, under a lock of their own. (One lock for both sides, as
/// before, made about 0.2 system calls a request in W2: the two sides collided on it and slept;
/// Round 30.) Taking the whole stack, never one chunk, is what makes the stack safe without more:
/// a push depends only on the stack's top, whatever happened to the chunks in between.
///
/// Memory is kept by size class, powers of two from 256 bytes to 16 KiB: at most
/// ``keepLimit(ofClass:)`` ready chunks per class (64, or 128 KiB of chunks for the larger
/// classes: 624 KiB in all at most), and at most ``returnedLimit`` returned ones waiting to be
/// sorted; more is freed. 64 is what a session with 64 requests in flight keeps out at once: with
/// 32, the engine freed a burst's surplus and allocated it again for the next burst (0.28 new
/// chunks a request in W2; Benchmarks/EXPERIMENTS.md, Round 31).
///
/// Each chunk starts with a 16-byte prefix: the pool (or, while returned, the next returned chunk)
/// and the class, so that the `Data` deallocator captures nothing (a capture would allocate a
/// closure context each time) and does not depend on the length it is given. The engine uses
/// ``shared``, which lives as long as the process; a pool must outlive the `Data` made from it.
final class ResponseMemory: Sendable {
    /// The pool every engine uses.
    static let shared = ResponseMemory()

    /// The smallest class's size as a power of two (256 bytes).
    static let smallestShift = 8
    /// The number of classes: 256 bytes, 512 bytes, 1, 2, 4, 8 and 16 KiB.
    static let classCount = 7
    /// The most ready chunks a class keeps.
    static let keepPerClass = 64
    /// The most bytes of ready chunks a class keeps (it keeps fewer than ``keepPerClass`` above
    /// 2 KiB).
    static let keptBytesPerClass = 128 << 10
    /// Returned chunks kept waiting to be sorted, of all classes together.
    static let returnedLimit = 224

    /// How many ready chunks `sizeClass` keeps.
    static func keepLimit(ofClass sizeClass: Int) -> Int {
        min(keepPerClass, keptBytesPerClass >> (smallestShift + sizeClass))
    }
    /// The prefix before the bytes: the pool (unretained) or the next returned chunk, then the class.
    private static let prefix = 16
    /// The returned stack's word: the top chunk's address in the low bits, the stack's length
    /// above them. Addresses of user memory on Linux fit in 48 bits; a chunk whose address does
    /// not is freed instead of returned.
    private static let lengthShift = 48
    private static let addressMask: UInt = (1 << lengthShift) - 1

    /// The stack of returned chunks (see the type's comment).
    private let returned = Atomic<UInt>(0)
    /// The ready chunks, by class; only taking threads use them.
    private let ready = Locked(FreeLists())

    init() {}

    deinit {
        var addresses = ready.withLock { $0.drain() }
        var top = returned.exchange(0, ordering: .acquiring) & Self.addressMask
        while let chunk = UnsafeMutableRawPointer(bitPattern: top) {
            addresses.append(top)
            top = chunk.load(as: UInt.self)
        }
        for address in addresses {
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

    /// `count` bytes written by `fill`, in `memory` when given and the length has a class there
    /// (given back when the ``Bytes`` goes away), else in memory of their own.
    static func bytes(
        count: Int, in memory: ResponseMemory?, initializingWith fill: (UnsafeMutableRawBufferPointer) -> Void
    ) -> Bytes {
        let start: UnsafeMutableRawPointer
        let pooled: Bool
        if let memory, let sizeClass = sizeClass(for: count) {
            start = memory.take(sizeClass) + prefix
            pooled = true
        } else {
            start = .allocate(byteCount: count, alignment: 16)
            pooled = false
        }
        fill(UnsafeMutableRawBufferPointer(start: start, count: count))
        return Bytes(start: start, count: count, pooled: pooled)
    }

    /// Bytes owned by one object, which frees them, or gives them back to their pool, when it
    /// goes away: what a frozen head's fields live in (``HeaderFieldsBuilder/frozen(in:)``).
    /// Lighter than a `Data` over the same memory, whose release runs Foundation's exclusivity
    /// checks and a deallocator closure (about 700 instructions a head, against about 150).
    final class Bytes: Sendable {
        /// Where the bytes start (a pointer is not `Sendable`; the bytes never change once made).
        private let address: UInt
        /// The number of bytes.
        let count: Int
        /// The bytes are a pool's chunk (else memory of their own).
        private let pooled: Bool

        fileprivate init(start: UnsafeMutableRawPointer, count: Int, pooled: Bool) {
            address = UInt(bitPattern: start)
            self.count = count
            self.pooled = pooled
        }

        deinit {
            guard let start = UnsafeMutableRawPointer(bitPattern: address) else { return }
            if pooled { ResponseMemory.release(start) } else { start.deallocate() }
        }

        /// Calls `body` with the bytes, which stay valid during the call.
        func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            withExtendedLifetime(self) {
                body(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
            }
        }
    }

    /// How many chunks are kept, ready or returned (tests).
    var keptCount: Int {
        ready.withLock { $0.count } + Int(returned.load(ordering: .acquiring) >> Self.lengthShift)
    }

    /// A ready chunk of `sizeClass` (sorting the returned ones first if there is none), or new
    /// memory, with its prefix written.
    private func take(_ sizeClass: Int) -> UnsafeMutableRawPointer {
        let chunk: UnsafeMutableRawPointer
        let kept = ready.withLock { lists -> UInt? in
            if let address = lists.pop(sizeClass) { return address }
            let top = returned.exchange(0, ordering: .acquiring) & Self.addressMask
            guard top != 0 else { return nil }
            lists.sort(returnedFrom: top)
            return lists.pop(sizeClass)
        }
        if let kept, let address = UnsafeMutableRawPointer(bitPattern: kept) {
            chunk = address
        } else {
            chunk = .allocate(byteCount: Self.prefix + (1 << (Self.smallestShift + sizeClass)), alignment: 16)
        }
        chunk.storeBytes(of: Unmanaged.passUnretained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
        chunk.storeBytes(of: sizeClass, toByteOffset: 8, as: Int.self)
        return chunk
    }

    /// The `Data` deallocator (and ``Bytes``'): gives the chunk whose bytes start at `start` back
    /// to its pool.
    private static func release(_ start: UnsafeMutableRawPointer) {
        let chunk = start - prefix
        let pool = chunk.load(as: UnsafeMutableRawPointer.self)
        Unmanaged<ResponseMemory>.fromOpaque(pool)._withUnsafeGuaranteedRef { $0.give(chunk) }
    }

    /// Pushes `chunk` onto the returned stack, or frees it when the stack is full. Any thread; no
    /// lock.
    private func give(_ chunk: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: chunk)
        guard address & ~Self.addressMask == 0 else { return chunk.deallocate() }
        var top = returned.load(ordering: .relaxed)
        while true {
            let length = top >> Self.lengthShift
            guard length < Self.returnedLimit else { return chunk.deallocate() }
            // The chunk's first word (the pool, until now) links it to the chunk below.
            chunk.storeBytes(of: top & Self.addressMask, as: UInt.self)
            let (pushed, found) = returned.compareExchange(
                expected: top, desired: (length + 1) << Self.lengthShift | address,
                successOrdering: .releasing, failureOrdering: .relaxed)
            if pushed { return }
            top = found
        }
    }

    /// The ready chunks of every class as addresses (pointers are not `Sendable`; the lock guards
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
            guard count < ResponseMemory.keepLimit(ofClass: sizeClass) else { return false }
            addresses[sizeClass * ResponseMemory.keepPerClass + count] = address
            counts[sizeClass] = count + 1
            return true
        }

        /// Sorts the returned chunks linked from `top` into their classes, freeing those a full
        /// class has no room for.
        mutating func sort(returnedFrom top: UInt) {
            var next = top
            while let chunk = UnsafeMutableRawPointer(bitPattern: next) {
                next = chunk.load(as: UInt.self)
                if !push(UInt(bitPattern: chunk), chunk.load(fromByteOffset: 8, as: Int.self)) { chunk.deallocate() }
            }
        }

        /// Every ready address; none is kept afterwards.
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
