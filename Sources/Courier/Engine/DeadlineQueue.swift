/// The engine's pending deadlines, soonest first: a binary min-heap with an index from key to
/// heap slot, so that scheduling, moving and removing a key cost O(log n) and finding what is due
/// costs O(1) while nothing is. The engine keeps one entry per transfer that has a time limit (its
/// nearest deadline) and looks only at the entries that are due, so the work of a loop round does
/// not grow with the number of transfers. Pure: no clock, no threads; generic over the instant so
/// that tests use plain numbers.
struct DeadlineQueue<Key: Hashable, Instant: Comparable> {
    private var heap: [(instant: Instant, key: Key)] = []
    private var slots: [Key: Int] = [:]

    init() {}

    /// True when no deadline is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// How many keys have a deadline.
    var count: Int { heap.count }

    /// The soonest deadline, or nil when none is pending.
    var next: Instant? { heap.first?.instant }

    /// The deadline of `key`, if it has one.
    func deadline(of key: Key) -> Instant? {
        slots[key].map { heap[$0].instant }
    }

    /// Gives `key` the deadline `instant`, replacing the one it had.
    mutating func schedule(_ key: Key, at instant: Instant) {
        if let slot = slots[key] {
            let earlier = instant < heap[slot].instant
            heap[slot].instant = instant
            if earlier { siftUp(slot) } else { siftDown(slot) }
            return
        }
        heap.append((instant, key))
        slots[key] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Drops the deadline of `key`, if it has one.
    mutating func remove(_ key: Key) {
        guard !heap.isEmpty, let slot = slots.removeValue(forKey: key) else { return }
        let last = heap.count - 1
        if slot == last {
            heap.removeLast()
            return
        }
        heap[slot] = heap.removeLast()
        slots[heap[slot].key] = slot
        if slot > 0 && heap[slot].instant < heap[(slot - 1) / 2].instant {
            siftUp(slot)
        } else {
            siftDown(slot)
        }
    }

    /// Removes and returns the key with the soonest deadline if that deadline is at or before
    /// `now`; nil when nothing is due.
    mutating func popDue(now: Instant) -> Key? {
        guard let first = heap.first, first.instant <= now else { return nil }
        remove(first.key)
        return first.key
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].instant < heap[parent].instant else { break }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var smallest = heap[left].instant < heap[parent].instant ? left : parent
            if right < heap.count, heap[right].instant < heap[smallest].instant { smallest = right }
            guard smallest != parent else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        slots[heap[a].key] = a
        slots[heap[b].key] = b
    }
}
