/// Objects by an identity (an `ObjectIdentifier`): the loop's table of its transfers, found by
/// their token's identity.
///
/// A `Dictionary` hashes each key with the seeded SipHash, about 75 instructions, and the loop
/// hashes three times per request (insert, remove, and the look-up of a cancel or an admission);
/// this table places a key by one multiplication of its address. Open addressing with linear
/// probing, at most half full, and removal by shifting the probe run back (no tombstones), so
/// look-ups stay short however many transfers came and went.
struct IdentityTable<Element: AnyObject> {
    private struct Entry {
        let key: ObjectIdentifier
        let element: Element
    }

    private var slots: [Entry?]
    /// How many elements the table holds.
    private(set) var count = 0

    /// An empty table with room for `capacity` elements before it grows (a power of two is used).
    init(capacity: Int = 32) {
        var size = 8
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: nil, count: size)
    }

    var isEmpty: Bool { count == 0 }

    /// Every element, in no particular order.
    var values: [Element] { slots.compactMap { $0?.element } }

    /// The element stored under `key`, if any.
    subscript(key: ObjectIdentifier) -> Element? {
        var index = home(of: key)
        while let entry = slots[index] {
            if entry.key == key { return entry.element }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Stores `element` under `key`, replacing what was stored under it.
    mutating func insert(_ element: Element, for key: ObjectIdentifier) {
        if 2 * (count + 1) > slots.count { grow() }
        var index = home(of: key)
        while let entry = slots[index] {
            if entry.key == key {
                slots[index] = Entry(key: key, element: element)
                return
            }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = Entry(key: key, element: element)
        count += 1
    }

    /// Removes and returns the element stored under `key`, if any.
    @discardableResult
    mutating func remove(_ key: ObjectIdentifier) -> Element? {
        let mask = slots.count - 1
        var index = home(of: key)
        while let entry = slots[index] {
            if entry.key == key {
                slots[index] = nil
                count -= 1
                closeGap(at: index, mask: mask)
                return entry.element
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Moves back the entries after an emptied slot that could not otherwise be found from their
    /// home slot any more (backward-shift deletion).
    private mutating func closeGap(at emptied: Int, mask: Int) {
        var gap = emptied
        var index = (gap + 1) & mask
        while let entry = slots[index] {
            let home = home(of: entry.key)
            // The entry may fill the gap unless its home lies cyclically in (gap, index].
            let homeAfterGap = (home - gap - 1) & mask
            let indexAfterGap = (index - gap - 1) & mask
            if homeAfterGap > indexAfterGap {
                slots[gap] = entry
                slots[index] = nil
                gap = index
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        count = 0
        for case let entry? in old { insert(entry.element, for: entry.key) }
    }

    /// The slot a key's probe starts at: the high bits of its address times a 64-bit odd
    /// constant (Fibonacci hashing), so that objects allocated next to each other spread.
    private func home(of key: ObjectIdentifier) -> Int {
        let address = UInt64(UInt(bitPattern: key))
        let mixed = address &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & (slots.count - 1)
    }
}
