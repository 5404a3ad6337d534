import Foundation
import XCTest

@testable import Courier

/// Running out of memory while decoding is an error the caller receives, never a crash.
final class JSONMemoryTests: XCTestCase {
    func testAnAllocationThatCannotBeMadeThrows() {
        // More bytes than the address space: malloc answers NULL.
        XCTAssertThrowsError(try JSONMemory.allocate(UInt8.self, capacity: 1 << 62)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.isOutOfMemory, true)
        }
        // A size that overflows Int is refused before asking malloc.
        XCTAssertThrowsError(try JSONMemory.allocate(JSONEntry.self, capacity: Int.max / 2)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.isOutOfMemory, true)
        }
        XCTAssertNoThrow(try JSONMemory.deallocate(JSONMemory.allocate(JSONEntry.self, capacity: 4)))
    }

    func testOutOfMemoryReachesTheCallerAsADecodingError() {
        let error = CourierJSONDecoder.notJSON(.outOfMemory(1 << 62, UInt8.self))
        guard case .dataCorrupted(let context) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(context.debugDescription, "Not enough memory to decode the document.")
        XCTAssertTrue(context.codingPath.isEmpty)
        XCTAssertEqual((context.underlyingError as? JSONSyntaxError)?.isOutOfMemory, true)
        // Malformed documents still say so.
        XCTAssertThrowsError(try CourierJSONDecoder().decode([Int].self, from: Data("[1,".utf8))) { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return XCTFail("got \(error)") }
            XCTAssertEqual(context.debugDescription, "The given data was not valid JSON.")
        }
    }
}
