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
}
