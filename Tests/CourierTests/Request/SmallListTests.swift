import XCTest

@testable import Courier

final class SmallListTests: XCTestCase {
    func testElementsComeBackInTheOrderTheyWereAppended() {
        for count in 0...5 {
            var list = SmallList<Int>()
            for value in 0..<count { list.append(value) }
            XCTAssertEqual(Array(list), Array(0..<count), "\(count) elements")
            XCTAssertEqual(list.isEmpty, count == 0)
        }
    }

    func testACopyKeepsItsElementsWhenTheOriginalGrows() {
        var list = SmallList<Int>()
        list.append(1)
        list.append(2)
        let copy = list
        list.append(3)
        XCTAssertEqual(Array(copy), [1, 2])
        XCTAssertEqual(Array(list), [1, 2, 3])
    }
}
