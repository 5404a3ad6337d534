@testable import Courier
import CourierSync
import Foundation
import XCTest

/// The recycled memory of small response bodies and heads: the bytes are copied whole, the memory
/// comes back to its pool once, when the last copy of its `Data` goes away, whatever was done
/// with the `Data` meanwhile, and a pool keeps a bounded number of chunks. No sockets.
final class ResponseMemoryTests: XCTestCase {
    private func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        Self.bytes(count, seed: seed)
    }

    private static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    private func copy(_ bytes: [UInt8], into pool: ResponseMemory) -> Data? {
        bytes.withUnsafeBytes { pool.data(copying: $0) }
    }

    private func address(of data: Data) -> UInt {
        data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }

    func testSizeClassesArePowersOfTwoFrom256BytesTo16KiB() {
        XCTAssertNil(ResponseMemory.sizeClass(for: 0))
        XCTAssertNil(ResponseMemory.sizeClass(for: 128))
        XCTAssertEqual(ResponseMemory.sizeClass(for: 129), 0)
        XCTAssertEqual(ResponseMemory.sizeClass(for: 256), 0)
        XCTAssertEqual(ResponseMemory.sizeClass(for: 257), 1)
        XCTAssertEqual(ResponseMemory.sizeClass(for: 1_200), 3)
        XCTAssertEqual(ResponseMemory.sizeClass(for: 8_193), 6)
        XCTAssertEqual(ResponseMemory.sizeClass(for: 16_384), 6)
        XCTAssertNil(ResponseMemory.sizeClass(for: 16_385))
    }

    func testBodiesOutsideTheClassesAreNotCopiedHere() {
        let pool = ResponseMemory()
        XCTAssertNil(copy(bytes(128), into: pool))
        XCTAssertNil(copy(bytes(16_385), into: pool))
        XCTAssertEqual(pool.keptCount, 0)
    }

    func testACopyHoldsTheBytesAndItsMemoryComesBackWhenTheDataGoes() throws {
        let pool = ResponseMemory()
        do {
            let original = bytes(1_200)
            let data = try XCTUnwrap(copy(original, into: pool))
            XCTAssertEqual(Array(data), original)
            XCTAssertEqual(pool.keptCount, 0)
        }
        XCTAssertEqual(pool.keptCount, 1)
    }

    func testTheNextBodyOfTheSameClassReusesTheMemory() throws {
        let pool = ResponseMemory()
        var first = try XCTUnwrap(copy(bytes(1_100), into: pool))
        let firstAddress = address(of: first)
        first = Data()
        XCTAssertEqual(pool.keptCount, 1)
        let second = try XCTUnwrap(copy(bytes(2_000, seed: 9), into: pool))
        XCTAssertEqual(address(of: second), firstAddress)
        XCTAssertEqual(Array(second), bytes(2_000, seed: 9))
        XCTAssertEqual(pool.keptCount, 0)
        // Another class does not take it.
        let other = try XCTUnwrap(copy(bytes(300), into: pool))
        XCTAssertNotEqual(address(of: other), firstAddress)
    }

    func testAPoolKeepsAtMostItsLimitPerClassOnceItSortsWhatCameBack() throws {
        let pool = ResponseMemory()
        let small = try XCTUnwrap(ResponseMemory.sizeClass(for: 600))
        let large = try XCTUnwrap(ResponseMemory.sizeClass(for: 10_000))
        XCTAssertEqual(ResponseMemory.keepLimit(ofClass: small), 64)
        XCTAssertEqual(ResponseMemory.keepLimit(ofClass: large), 8, "16 KiB chunks: 128 KiB of them")
        var alive: [Data] = []
        for _ in 0..<(64 + 8) {
            alive.append(try XCTUnwrap(copy(bytes(600), into: pool)))
        }
        for _ in 0..<(8 + 3) {
            alive.append(try XCTUnwrap(copy(bytes(10_000), into: pool)))
        }
        XCTAssertEqual(pool.keptCount, 0)
        alive.removeAll()
        // Returned, not yet sorted: all 83 wait.
        XCTAssertEqual(pool.keptCount, 83)
        // The next take sorts them: the 600-byte class keeps 64 (one of which is taken now), the
        // 10,000-byte class 8; the other 11 are freed.
        let taken = try XCTUnwrap(copy(bytes(600), into: pool))
        XCTAssertEqual(pool.keptCount, 64 - 1 + 8)
        XCTAssertEqual(Array(taken), bytes(600))
    }

    func testAPoolKeepsAtMostItsLimitOfReturnedChunks() throws {
        let pool = ResponseMemory()
        var alive: [Data] = []
        for index in 0..<(ResponseMemory.returnedLimit + 10) {
            alive.append(try XCTUnwrap(copy(bytes(200 << (index % ResponseMemory.classCount)), into: pool)))
        }
        alive.removeAll()
        XCTAssertEqual(pool.keptCount, ResponseMemory.returnedLimit)
    }

    func testMemoryComesBackOnceAfterTheDataWasCopiedShrunkAndGrown() throws {
        let pool = ResponseMemory()
        do {
            let data = try XCTUnwrap(copy(bytes(1_000), into: pool))
            var shared = data
            shared.append(contentsOf: bytes(10))  // a copy of its own: the pool's memory stays with `data`
            XCTAssertEqual(shared.count, 1_010)
            XCTAssertEqual(Array(data), bytes(1_000))
        }
        XCTAssertEqual(pool.keptCount, 1)
        do {
            var unique = try XCTUnwrap(copy(bytes(1_000), into: pool))
            XCTAssertEqual(pool.keptCount, 0)
            unique.removeLast(400)  // in place: the length the deallocator is given changes
            unique.append(contentsOf: bytes(40_000))  // grows past the chunk: moved to memory of its own
            XCTAssertEqual(unique.count, 40_600)
            XCTAssertEqual(Array(unique.prefix(600)), Array(bytes(1_000).prefix(600)))
        }
        XCTAssertEqual(pool.keptCount, 1)
    }

    /// One thread makes bodies (the engine's part) while two others read and release them (the
    /// callers'), so that releases push onto the returned stack while the maker takes it: every
    /// body reads as written (no chunk is handed out twice), and every chunk comes back.
    func testBodiesMadeOnOneThreadAndReleasedOnOthersComeBackIntact() {
        let pool = ResponseMemory()
        let bodies = (0..<7).map { Self.bytes(200 << $0, seed: UInt8($0)) }  // 200 bytes to 12,800: one per class
        let rounds = 4_000
        let handed = Locked<[Data]>([])
        let damaged = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for round in 0..<rounds {
                if worker == 0 {
                    if let data = bodies[round % 7].withUnsafeBytes({ pool.data(copying: $0) }) {
                        handed.withLock { $0.append(data) }
                    }
                } else if let data = handed.withLock({ $0.popLast() }) {
                    let sizeClass = (data.count / 200).trailingZeroBitCount
                    if !data.elementsEqual(bodies[sizeClass]) { damaged.withLock { $0 += 1 } }
                }
            }
        }
        handed.withLock { $0.removeAll() }
        XCTAssertEqual(damaged.withLock { $0 }, 0)
        // Every body's memory came back: all seven classes were used, and each keeps what it got.
        XCTAssertGreaterThanOrEqual(pool.keptCount, 7)
        let readyLimit = (0..<ResponseMemory.classCount).map(ResponseMemory.keepLimit(ofClass:)).reduce(0, +)
        XCTAssertLessThanOrEqual(pool.keptCount, readyLimit + ResponseMemory.returnedLimit)
    }
}
