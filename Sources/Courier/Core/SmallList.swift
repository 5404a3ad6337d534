/// A list that holds its first element inline: most requests have one waiter and one validator,
/// and an array would allocate for that one.
struct SmallList<Element>: Sequence {
    fileprivate enum Storage {
        case empty
        case one(Element)
        case many([Element])
    }

    private var storage = Storage.empty

    /// An empty list.
    init() {}

    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        switch storage {
        case .empty:
            storage = .one(element)
        case .one(let first):
            storage = .many([first, element])
        case .many(var elements):
            storage = .empty  // the array stays uniquely referenced while it grows
            elements.append(element)
            storage = .many(elements)
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .empty: return Iterator(first: nil, rest: nil)
        case .one(let element): return Iterator(first: element, rest: nil)
        case .many(let elements): return Iterator(first: nil, rest: elements.makeIterator())
        }
    }

    /// The elements in order, without copying them into an array.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var rest: IndexingIterator<[Element]>?

        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest?.next()
        }
    }
}

extension SmallList: Sendable where Element: Sendable {}
extension SmallList.Storage: Sendable where Element: Sendable {}
