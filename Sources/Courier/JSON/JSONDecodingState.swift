import Foundation

/// Everything one `decode` call shares: the document's bytes, its tape, the options, and the
/// records from which coding paths are built when they are asked for.
///
/// Decoders and containers are small structs holding this state and tape indices, so handing
/// them out allocates nothing. The state frees the bytes and the tape when the last decoder or
/// container referring to it is gone, so a decoder that escapes its `init(from:)` stays valid.
final class JSONDecodingState {
    let input: JSONInput
    let tape: UnsafeMutablePointer<JSONEntry>
    /// The text of strings the scanner unescaped (``JSONEntry/Flags/unescaped``).
    let unescaped: UnsafeMutablePointer<UInt8>
    /// A null entry after the document's values, for decoders of absent values (a keyed
    /// container's `superDecoder(forKey:)` for a missing key).
    let syntheticNull: UInt32
    let keyStrategy: JSONDecoder.KeyDecodingStrategy
    let usesDefaultKeys: Bool
    let dateStrategy: JSONDecoder.DateDecodingStrategy
    let dataStrategy: JSONDecoder.DataDecodingStrategy
    let floatStrategy: JSONDecoder.NonConformingFloatDecodingStrategy
    private let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    private(set) lazy var userInfo: [CodingUserInfoKey: Any] = sendableUserInfo.mapValues { $0 }
    /// The document's and the tape's buffers, path records, the unescaping buffer and the type
    /// cache.
    let work: UnsafeMutablePointer<JSONWorkspace>

    init(data: Data, decoder: CourierJSONDecoder) throws(JSONSyntaxError) {
        let work = try JSONWorkspace.take()
        let input: JSONInput
        var tape: JSONTapeBuffer
        do {
            input = try JSONInput(copying: data, into: work)
            unescaped = try work.pointee.unescapedBuffer(input.count + JSONInput.padding)
            tape = try work.pointee.emptyTape(estimatedFor: input.count)
            defer { work.pointee.keepTape(tape) }
            try JSONScanner.scan(input, into: &tape, unescaped: unescaped)
            syntheticNull = UInt32(tape.count)
            try tape.append(
                JSONEntry(bits: UInt32(JSONKind.null.rawValue), start: 0, length: 0, next: syntheticNull + 1))
        } catch {
            JSONWorkspace.give(work)
            throw error
        }
        self.work = work
        self.input = input
        self.tape = tape.base
        keyStrategy = decoder.keyDecodingStrategy
        if case .useDefaultKeys = decoder.keyDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
        dateStrategy = decoder.dateDecodingStrategy
        dataStrategy = decoder.dataDecodingStrategy
        floatStrategy = decoder.nonConformingFloatDecodingStrategy
        sendableUserInfo = decoder.userInfo
    }

    deinit {
        // The document and the tape are the workspace's buffers: nothing refers to them now.
        JSONWorkspace.give(work)
    }

    /// Decodes the top-level value, as Foundation does: through the same special cases as any
    /// nested value.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(T.self, value: 0, parent: 0, parentValue: 0, key: nil)
    }

    @inline(__always) func entry(_ index: UInt32) -> JSONEntry { tape[Int(index)] }

    @inline(__always) func bytes(_ entry: JSONEntry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: input.base + Int(entry.start), count: Int(entry.length))
    }

    /// The text of the string entry at `index`.
    @inline(__always)
    func string(_ index: UInt32) throws(JSONSyntaxError) -> String {
        let entry = tape[Int(index)]
        if entry.has(JSONEntry.Flags.unescaped) {
            return try JSONStrings.text(
                UnsafeBufferPointer(start: unescaped + Int(entry.start), count: Int(entry.length)), flags: entry.bits)
        }
        return try JSONStrings.decode(input.base + Int(entry.start), Int(entry.length), flags: entry.bits) {
            () throws(JSONSyntaxError) in try work.pointee.scratchBuffer(Int(entry.length) + 8)
        }
    }

    // MARK: Coding paths

    /// Records that the value at `value` is reached from the node `parent` (whose value is
    /// `parentValue`) through `key`; returns the new node.
    @inline(__always)
    func pushPath(
        parent: UInt32, parentValue: UInt32, value: UInt32, key: consuming JSONPathKey?
    ) throws(JSONSyntaxError) -> UInt32 {
        try work.pointee.push(JSONPathNode(parent: parent, parentValue: parentValue, value: value, key: key))
    }

    /// The coding path of the node `node`, whose value is `value`.
    func codingPath(node: UInt32, value: UInt32) -> [any CodingKey] {
        var reversed: [any CodingKey] = []
        let paths = work.pointee.paths
        let count = work.pointee.pathCount
        var node = Int(node)
        var value = value
        while node != 0 || value != 0 {
            guard node != 0, node < count, paths[node].value == value, let key = paths[node].key else {
                // The record was reused: a decoder outlived the call that made it. Rebuild the
                // path from the document's structure instead.
                return structuralPath(to: value) + reversed.reversed()
            }
            reversed.append(key.codingKey)
            value = paths[node].parentValue
            node = Int(paths[node].parent)
        }
        return reversed.reversed()
    }

    /// The coding path of `key` within the node `node`; nil key means the node itself.
    func codingPath(node: UInt32, value: UInt32, appending key: JSONPathKey?) -> [any CodingKey] {
        var path = codingPath(node: node, value: value)
        if let key { path.append(key.codingKey) }
        return path
    }

    /// The path from the root to the value at `target`, with the JSON keys as written.
    func structuralPath(to target: UInt32) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var current: UInt32 = 0
        while current != target {
            let container = entry(current)
            var child = current + 1
            var position = 0
            var found = false
            while child < container.next {
                let valueIndex = container.kind == .object ? child + 1 : child
                let end = entry(valueIndex).next
                if target >= valueIndex && target < end {
                    if container.kind == .object {
                        path.append(JSONKey(stringValue: (try? string(child)) ?? ""))
                    } else {
                        path.append(JSONKey(index: position))
                    }
                    current = valueIndex
                    found = true
                    break
                }
                child = end
                position += 1
            }
            if !found { break }
        }
        return path
    }
}

/// How a value was reached from its parent.
enum JSONPathKey {
    case index(Int)
    case key(any CodingKey)

    var codingKey: any CodingKey {
        switch self {
        case .index(let index): return JSONKey(index: index)
        case .key(let key): return key
        }
    }
}

/// One step of a coding path, recorded when a nested decoder or container is made.
///
/// Records are appended while a value is decoded and dropped when its `init(from:)` returns,
/// so memory stays proportional to nesting depth, not document size. Each record names the
/// value it leads to, and decoders check that before trusting a record, so a decoder kept
/// past its call still reports a correct path (rebuilt from the document).
struct JSONPathNode {
    var parent: UInt32
    var parentValue: UInt32
    var value: UInt32
    var key: JSONPathKey?
}

/// The coding keys this decoder makes: array positions ("Index 3"), dictionary keys and
/// `super`, as Foundation's `JSONDecoder` spells them.
struct JSONKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    /// A key of a `[String: V]` decoded with the default key strategy: the standard library's
    /// dictionary key also carries the number a key spells, if any.
    init(dictionaryKey: String) {
        self.stringValue = dictionaryKey
        self.intValue = Int(dictionaryKey)
    }

    static let superKey = JSONKey(stringValue: "super")
}
