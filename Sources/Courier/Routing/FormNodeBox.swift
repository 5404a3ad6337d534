/// A mutable node that the form encoding containers write into.
///
/// Appending an element or a member and finding a member by key take constant time (small
/// objects search their few keys, larger ones keep a dictionary), so encoding is linear in the
/// size of the value. ``node()`` turns the finished boxes into a ``FormNode`` tree.
final class FormNodeBox {
    private enum Kind {
        case unset
        case value(FormNode)
        case array
        case object
    }

    /// Objects with at least this many members find keys through ``memberIndex``.
    private static let indexedMemberCount = 16

    /// Set on a box past ``ParameterValue/maximumDepth``: the key path its error names.
    var overflowKeyPath: String?

    private var kind: Kind = .unset
    private var elements: [FormNodeBox] = []
    private var memberKeys: [String] = []
    private var members: [FormNodeBox] = []
    private var memberIndex: [String: Int] = [:]

    /// The number of elements of an array box.
    var elementCount: Int { elements.count }

    /// Makes this box a finished value, dropping anything written before.
    func set(_ node: FormNode) {
        clearChildren()
        kind = .value(node)
    }

    /// Makes this box an object, keeping its members if it already is one.
    func becomeObject() {
        if case .object = kind { return }
        clearChildren()
        kind = .object
    }

    /// Makes this box an array, keeping its elements if it already is one.
    func becomeArray() {
        if case .array = kind { return }
        clearChildren()
        kind = .array
    }

    /// A fresh child box for `key` in this object box; a key written again replaces its
    /// earlier value in place.
    func child(forKey key: String) -> FormNodeBox {
        becomeObject()
        let box = FormNodeBox()
        if let position = memberIndex.isEmpty ? memberKeys.firstIndex(of: key) : memberIndex[key] {
            members[position] = box
            return box
        }
        memberKeys.append(key)
        members.append(box)
        if !memberIndex.isEmpty {
            memberIndex[key] = memberKeys.count - 1
        } else if memberKeys.count == Self.indexedMemberCount {
            for (position, existing) in memberKeys.enumerated() { memberIndex[existing] = position }
        }
        return box
    }

    /// A new child box appended to this array box.
    func appendChild() -> FormNodeBox {
        becomeArray()
        let box = FormNodeBox()
        elements.append(box)
        return box
    }

    /// The finished tree; an untouched box is an empty object. Throws for a box nested past
    /// ``ParameterValue/maximumDepth`` (only nested containers with no values can get there).
    func node() throws -> FormNode {
        if let overflowKeyPath { throw ParameterValue.tooDeep(keyPath: overflowKeyPath) }
        switch kind {
        case .unset: return .object([])
        case .value(let node): return node
        case .array: return .array(try elements.map { try $0.node() })
        case .object:
            var pairs: [(String, FormNode)] = []
            pairs.reserveCapacity(members.count)
            for (key, box) in zip(memberKeys, members) { pairs.append((key, try box.node())) }
            return .object(pairs)
        }
    }

    private func clearChildren() {
        elements.removeAll()
        memberKeys.removeAll()
        members.removeAll()
        memberIndex.removeAll()
    }
}
