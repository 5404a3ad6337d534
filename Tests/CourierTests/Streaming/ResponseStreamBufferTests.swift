@testable import Courier
import Foundation
import XCTest

/// The hand-over between the write callback and the reader, without a network.
final class ResponseStreamBufferTests: XCTestCase {
    private func offer(_ buffer: ResponseStreamBuffer, pieces: Int, of size: Int) -> [ResponseStreamBuffer.Offer] {
        let piece = [UInt8](repeating: 7, count: size)
        return (0..<pieces).map { _ in piece.withUnsafeBytes { buffer.offer($0) } }
    }

    func testPiecesAreHandedOverInChunksOfAQuarterWindow() async {
        let buffer = ResponseStreamBuffer(window: 1 << 20)
        XCTAssertEqual(buffer.chunkCapacity, 256 << 10)
        XCTAssertEqual(buffer.wakeThreshold, 512 << 10)
        _ = offer(buffer, pieces: 40, of: 16 << 10)
        buffer.complete(head: nil, body: Data(), error: nil)
        var sizes: [Int] = []
        while case .chunk(let chunk) = await buffer.next() { sizes.append(chunk.count) }
        XCTAssertEqual(sizes, [256 << 10, 256 << 10, 128 << 10])
    }

    func testASmallWindowKeeps64KiBChunksAndRefusesPastTheWindow() async {
        let buffer = ResponseStreamBuffer(window: 100)
        XCTAssertEqual(buffer.window, 64 << 10, "the smallest window")
        XCTAssertEqual(buffer.chunkCapacity, 64 << 10)
        let offers = offer(buffer, pieces: 5, of: 16 << 10)
        XCTAssertEqual(offers.filter { if case .refused = $0 { return true } else { return false } }.count, 1)
        XCTAssertEqual(buffer.highWater, 64 << 10)
        XCTAssertEqual(buffer.pauseCount, 1)
    }

    /// Chunk memory is reused only once the reader has let go of the chunk: a chunk the reader
    /// keeps is never overwritten by later bytes, and a released one is filled again.
    func testAKeptChunkIsNeverOverwrittenAndAReleasedOneIsReused() async {
        let buffer = ResponseStreamBuffer(window: 64 << 10)
        func offer(_ byte: UInt8) {
            let piece = [UInt8](repeating: byte, count: 16 << 10)
            _ = piece.withUnsafeBytes { buffer.offer($0) }
        }
        func nextChunk() async -> Data? {
            if case .chunk(let chunk) = await buffer.next() { return chunk }
            return nil
        }
        var kept: [Data] = []
        for round in 0..<8 {
            offer(UInt8(round))
            guard let chunk = await nextChunk() else { return XCTFail("no chunk in round \(round)") }
            kept.append(chunk)
        }
        for (round, chunk) in kept.enumerated() {
            XCTAssertEqual(chunk, Data(repeating: UInt8(round), count: 16 << 10), "chunk \(round) kept its bytes")
        }
        let addresses = Set(kept.map { $0.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } })
        XCTAssertEqual(addresses.count, 8, "chunks the reader holds never share memory")

        XCTAssertEqual(buffer.keptChunks, 0, "nothing is free while the reader holds every chunk")
        kept.removeAll()
        XCTAssertEqual(buffer.keptChunks, 3, "released chunks are kept, up to a window's worth plus two")
        offer(0xEE)
        guard let again = await nextChunk() else { return XCTFail("no chunk after the release") }
        XCTAssertEqual(again, Data(repeating: 0xEE, count: 16 << 10))
        XCTAssertTrue(
            addresses.contains(again.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }),
            "a kept chunk is filled again")
        XCTAssertEqual(buffer.keptChunks, 2)
    }
}
