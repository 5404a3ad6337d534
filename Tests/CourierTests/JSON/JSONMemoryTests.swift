import Foundation
import XCTest

@testable import Courier

/// Running out of memory while decoding is an error the caller receives, never a crash.
final class JSONMemoryTests: XCTestCase {
    func testAnAllocationThatCannotBeMadeThrows() {
        // A size that overflows Int is refused before asking malloc. (A size malloc refuses is not
        // tried here: under the sanitizers an impossible request aborts the process instead of
        // returning NULL; the NULL answer takes the same `guard` as the overflow.)
        XCTAssertThrowsError(try JSONMemory.allocate(JSONEntry.self, capacity: Int.max / 2)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.isOutOfMemory, true)
            XCTAssertTrue("\(error)".contains("Not enough memory"), "\(error)")
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
