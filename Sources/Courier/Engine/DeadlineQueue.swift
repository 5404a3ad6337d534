/// What a ``DeadlineQueue`` holds: an object that remembers its own place in the queue, so that
/// moving or removing it needs no look-up (no hashing on the engine's hot path).
protocol DeadlineQueueElement: AnyObject {
    /// The element's index in the queue's heap; -1 while it is not queued. Only the queue sets it.
    var deadlineSlot: Int { get set }
}

/// The engine's pending deadlines, soonest first: a binary min-heap whose elements remember their
/// slot, so that scheduling, moving and removing one cost O(log n) and finding what is due costs
/// O(1) while nothing is. The engine keeps one entry per transfer that has a time limit (its
/// nearest deadline) and looks only at the entries that are due, so the work of a loop round does
/// not grow with the number of transfers. Pure: no clock, no threads; generic over the instant so
/// that tests use plain numbers. An element belongs to at most one queue.
struct DeadlineQueue<Element: DeadlineQueueElement, Instant: Comparable> {
    private var heap: [(instant: Instant, element: Element)] = []

    init() {}

    /// True when no deadline is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// How many elements have a deadline.
    var count: Int { heap.count }

    /// The soonest deadline, or nil when none is pending.
    var next: Instant? { heap.first?.instant }

    /// The deadline of `element`, if it has one.
    func deadline(of element: Element) -> Instant? {
        let slot = element.deadlineSlot
        guard slot >= 0, slot < heap.count, heap[slot].element === element else { return nil }
        return heap[slot].instant
    }

    /// Gives `element` the deadline `instant`, replacing the one it had.
    mutating func schedule(_ element: Element, at instant: Instant) {
        let slot = element.deadlineSlot
        if slot >= 0, slot < heap.count, heap[slot].element === element {
            let earlier = instant < heap[slot].instant
            heap[slot].instant = instant
            if earlier { siftUp(slot) } else { siftDown(slot) }
            return
        }
        heap.append((instant, element))
        element.deadlineSlot = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Drops the deadline of `element`, if it has one.
    mutating func remove(_ element: Element) {
        let slot = element.deadlineSlot
        guard slot >= 0, slot < heap.count, heap[slot].element === element else { return }
        element.deadlineSlot = -1
        let last = heap.count - 1
        if slot == last {
            heap.removeLast()
            return
        }
        heap[slot] = heap.removeLast()
        heap[slot].element.deadlineSlot = slot
        if slot > 0 && heap[slot].instant < heap[(slot - 1) / 2].instant {
            siftUp(slot)
        } else {
            siftDown(slot)
        }
    }

    /// Removes and returns the element with the soonest deadline if that deadline is at or before
    /// `now`; nil when nothing is due.
    mutating func popDue(now: Instant) -> Element? {
        guard let first = heap.first, first.instant <= now else { return nil }
        remove(first.element)
        return first.element
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
        heap[a].element.deadlineSlot = a
        heap[b].element.deadlineSlot = b
    }
}
