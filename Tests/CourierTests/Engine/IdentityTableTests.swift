import XCTest

@testable import Courier

/// The engine's table of transfers by identity behaves as a dictionary would, through growth and
/// removals that shift probe runs back (checked against a `Dictionary` after every step).
final class IdentityTableTests: XCTestCase {
    private final class Item {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    func testMatchesADictionaryThroughInsertsRemovalsAndGrowth() {
        var generator = SystemRandomNumberGenerator()
        var table = IdentityTable<Item>(capacity: 2)
        var model: [ObjectIdentifier: Item] = [:]
        var live: [Item] = []
        // Items removed stay alive, so that their identities are not reused and must be absent.
        var gone: [Item] = []
        for step in 0..<5_000 {
            if live.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                let item = Item(step)
                table.insert(item, for: ObjectIdentifier(item))
                model[ObjectIdentifier(item)] = item
                live.append(item)
            } else {
                let item = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
                XCTAssertTrue(table.remove(ObjectIdentifier(item)) === item, "step \(step)")
                XCTAssertNil(table.remove(ObjectIdentifier(item)), "removed twice, step \(step)")
                model[ObjectIdentifier(item)] = nil
                gone.append(item)
            }
            XCTAssertEqual(table.count, model.count, "step \(step)")
            XCTAssertEqual(table.isEmpty, model.isEmpty)
            if step % 97 == 0 {
                for item in live { XCTAssertTrue(table[ObjectIdentifier(item)] === item, "step \(step)") }
                for item in gone.suffix(50) { XCTAssertNil(table[ObjectIdentifier(item)], "step \(step)") }
                XCTAssertEqual(
                    Set(table.values.map(\.number)), Set(model.values.map(\.number)), "step \(step)")
            }
        }
        for item in live { XCTAssertTrue(table.remove(ObjectIdentifier(item)) === item) }
        XCTAssertTrue(table.isEmpty)
        XCTAssertTrue(table.values.isEmpty)
    }

    func testInsertingUnderAKeyAgainReplaces() {
        let first = Item(1)
        let second = Item(2)
        var table = IdentityTable<Item>()
        table.insert(first, for: ObjectIdentifier(first))
        table.insert(second, for: ObjectIdentifier(first))
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table[ObjectIdentifier(first)] === second)
        XCTAssertNil(table[ObjectIdentifier(second)])
    }
}
