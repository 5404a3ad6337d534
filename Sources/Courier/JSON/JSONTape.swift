/// What a tape entry holds.
enum JSONKind: UInt8 {
    case null = 0, `false`, `true`, number, string, array, object
}

/// One value of a scanned JSON document: 16 bytes, no references.
///
/// The tape lists values in document order. An object is followed by its members, each a key
/// (a string entry) and then the key's value; an array is followed by its elements. Every entry
/// records `next`, the index just past its whole subtree, so a container's unwanted members are
/// skipped in one step.
struct JSONEntry {
    /// Kind in the low 4 bits, ``JSONEntry/Flags`` above.
    var bits: UInt32
    /// Strings: offset of the first byte after the opening quote (with
    /// ``JSONEntry/Flags/unescaped``, of the unescaped text in the unescaped buffer). Numbers: offset of the first
    /// character. Containers: offset of the opening bracket.
    var start: UInt32
    /// Strings and numbers: length in bytes (without quotes). Containers: element count
    /// (members for an object).
    var length: UInt32
    /// The index just past this value and everything inside it.
    var next: UInt32

    /// Facts the scanner noted so that decoding can take fast paths.
    enum Flags {
        /// A string with a backslash or a control character: it needs unescaping and checks.
        static let escaped: UInt32 = 1 << 4
        /// A string with bytes of 0x80 and above: it needs UTF-8 validation.
        static let nonASCII: UInt32 = 1 << 5
        /// A number made only of digits after an optional minus sign.
        static let plainInteger: UInt32 = 1 << 6
        /// An object with at least one escaped or non-ASCII key.
        static let complexKeys: UInt32 = 1 << 7
        /// A string with escapes, all valid, already unescaped by the scanner: `start` and
        /// `length` are in the decoding state's unescaped buffer, not in the document.
        static let unescaped: UInt32 = 1 << 8
    }

    @inline(__always) var kind: JSONKind { JSONKind(rawValue: UInt8(truncatingIfNeeded: bits & 0xF)).unsafelyUnwrapped }
    @inline(__always) func has(_ flag: UInt32) -> Bool { bits & flag != 0 }
    /// A string that is plain ASCII without escapes: its bytes are its value.
    @inline(__always) var isPlainASCIIString: Bool { bits & (Flags.escaped | Flags.nonASCII) == 0 }

    /// How Foundation's `JSONDecoder` names this kind of value in its messages.
    var debugName: String {
        switch kind {
        case .null: return "null"
        case .false, .true: return "bool"
        case .number: return "number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}

/// A growable buffer of entries, on storage a ``JSONWorkspace`` owns and takes back.
struct JSONTapeBuffer {
    private(set) var base: UnsafeMutablePointer<JSONEntry>
    private(set) var count = 0
    private(set) var capacity: Int

    init(base: UnsafeMutablePointer<JSONEntry>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    @inline(__always)
    mutating func append(_ entry: JSONEntry) throws(JSONSyntaxError) {
        if count == capacity { (base, capacity) = try JSONTapeBuffer.grown(base, count: count, capacity: capacity) }
        (base + count).initialize(to: entry)
        count += 1
    }

    /// A buffer twice as large holding the first `count` entries of `base` (which is freed; on
    /// failure it is left as it was).
    /// Values in, values out: the buffer's own storage never escapes, so the scanner keeps it in
    /// registers.
    @inline(never)
    private static func grown(
        _ base: UnsafeMutablePointer<JSONEntry>, count: Int, capacity: Int
    ) throws(JSONSyntaxError)
        -> (UnsafeMutablePointer<JSONEntry>, Int)
    {
        let bigger = try JSONMemory.allocate(JSONEntry.self, capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        JSONMemory.deallocate(base)
        return (bigger, capacity * 2)
    }
}
