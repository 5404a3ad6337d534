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

    // Sifting moves the element out of its slot, moves the others along its path one slot each
    // (no swaps), and puts it back where it belongs: every element moved is written once and
    // told its new slot, and no reference is counted up or down on the way (swapping cost
    // about 700 instructions per removal with 64 deadlines pending).

    private mutating func siftUp(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            guard let base = heap.baseAddress, start > 0 else { return }
            let instant = base[start].instant
            guard instant < base[(start - 1) / 2].instant else { return }
            let moving = (base + start).move()
            var hole = start
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard instant < base[parent].instant else { break }
                (base + hole).moveInitialize(from: base + parent, count: 1)
                base[hole].element.deadlineSlot = hole
                hole = parent
            }
            (base + hole).initialize(to: moving)
            base[hole].element.deadlineSlot = hole
        }
    }

    private mutating func siftDown(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
            guard let base = heap.baseAddress else { return }
            let count = heap.count
            let instant = base[start].instant
            func smallerChild(of parent: Int) -> Int? {
                let left = 2 * parent + 1
                guard left < count else { return nil }
                let right = left + 1
                return right < count && base[right].instant < base[left].instant ? right : left
            }
            guard let first = smallerChild(of: start), base[first].instant < instant else { return }
            let moving = (base + start).move()
            var hole = start
            var child = first
            while true {
                (base + hole).moveInitialize(from: base + child, count: 1)
                base[hole].element.deadlineSlot = hole
                hole = child
                guard let next = smallerChild(of: hole), base[next].instant < instant else { break }
                child = next
            }
            (base + hole).initialize(to: moving)
            base[hole].element.deadlineSlot = hole
        }
    }
}
