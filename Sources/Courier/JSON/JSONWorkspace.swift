import CourierSync
import Synchronization

/// The mutable parts of a decoding state: the copy of the document, the tape, coding path
/// records, the unescaping buffer and the type classification cache. Kept behind a pointer, so
/// reading and writing them costs no runtime exclusivity checks. Like Foundation's decoder, one
/// decoding state is used by one thread at a time.
///
/// A workspace outlives its decode: when the decoding state is released it goes back to a
/// one-slot, process-wide pool (``take()``, ``give(_:)``), so the next decode reuses its buffers
/// and its type cache instead of allocating and classifying again. Buffers larger than
/// ``retainedLimit`` are freed rather than kept.
struct JSONWorkspace {
    private(set) var paths: UnsafeMutablePointer<JSONPathNode>
    private(set) var pathCount = 0
    private var pathCapacity: Int
    /// The unescaping buffer (``scratchBuffer(_:)``).
    private var scratch = JSONReusableBuffer<UInt8>()
    private var types: UnsafeMutablePointer<JSONTypeCacheEntry>
    private var nextTypeSlot = 0
    /// With the custom key strategy: each opened object's keys as the strategy converted them.
    var customKeys: [UInt32: [String]] = [:]
    /// The copy of the document (``JSONInput``), reused between decodes.
    private var input = JSONReusableBuffer<UInt8>()
    /// Where the scanner unescapes strings, reused between decodes.
    private var unescaped = JSONReusableBuffer<UInt8>()
    /// The tape's storage, reused between decodes.
    private var tape = JSONReusableBuffer<JSONEntry>()

    /// Whether `paths` is still the block allocated with the workspace.
    private var pathsInline = true

    private static let typeSlots = 8
    private static let inlinePaths = 16
    /// The largest buffer (in bytes) a pooled workspace keeps for the next decode.
    static let retainedLimit = 1 << 20

    /// The pooled workspace's address, or 0.
    private static let pool = Atomic<UInt>(0)

    /// A workspace for one decode, from the pool if one is there, whose only path record is the
    /// root.
    static func take() throws(JSONSyntaxError) -> UnsafeMutablePointer<JSONWorkspace> {
        if let pooled = UnsafeMutablePointer<JSONWorkspace>(bitPattern: pool.exchange(0, ordering: .acquiring)) {
            return pooled
        }
        return try make()
    }

    /// Returns a workspace whose decode is over (nothing refers to its buffers any more) to the
    /// pool, or frees it when the pool is full.
    static func give(_ workspace: UnsafeMutablePointer<JSONWorkspace>) {
        workspace.pointee.reset()
        let (stored, _) = pool.compareExchange(
            expected: 0, desired: UInt(bitPattern: workspace), ordering: .releasing)
        if !stored { destroy(workspace) }
    }

    /// Back to one path record (the root), without custom keys, and without buffers over the
    /// retained limit.
    private mutating func reset() {
        truncatePaths(to: 1)
        if !customKeys.isEmpty { customKeys = [:] }
        input.free(ifLargerThan: JSONWorkspace.retainedLimit)
        unescaped.free(ifLargerThan: JSONWorkspace.retainedLimit)
        tape.free(ifLargerThan: JSONWorkspace.retainedLimit)
        scratch.free(ifLargerThan: JSONWorkspace.retainedLimit)
    }

    /// A new workspace whose first path record is the root. The workspace, its type cache and
    /// its first path records share one allocation.
    private static func make() throws(JSONSyntaxError) -> UnsafeMutablePointer<JSONWorkspace> {
        let header = MemoryLayout<JSONWorkspace>.stride
        let typesSize = MemoryLayout<JSONTypeCacheEntry>.stride * typeSlots
        let pathsSize = MemoryLayout<JSONPathNode>.stride * inlinePaths
        let alignment = max(
            MemoryLayout<JSONWorkspace>.alignment, MemoryLayout<JSONTypeCacheEntry>.alignment,
            MemoryLayout<JSONPathNode>.alignment)
        let typesOffset = (header + alignment - 1) / alignment * alignment
        let pathsOffset = (typesOffset + typesSize + alignment - 1) / alignment * alignment
        let raw = UnsafeMutableRawPointer(try JSONMemory.allocate(UInt8.self, capacity: pathsOffset + pathsSize))
        let types = (raw + typesOffset).bindMemory(to: JSONTypeCacheEntry.self, capacity: typeSlots)
        types.initialize(repeating: JSONTypeCacheEntry(id: nil, kind: .plain), count: typeSlots)
        let paths = (raw + pathsOffset).bindMemory(to: JSONPathNode.self, capacity: inlinePaths)
        let workspace = raw.bindMemory(to: JSONWorkspace.self, capacity: 1)
        workspace.initialize(to: JSONWorkspace(paths: paths, pathCapacity: inlinePaths, types: types))
        // The first record fits in the inline block: this cannot fail.
        try workspace.pointee.push(JSONPathNode(parent: 0, parentValue: 0, value: 0, key: nil))
        return workspace
    }

    private init(
        paths: UnsafeMutablePointer<JSONPathNode>, pathCapacity: Int, types: UnsafeMutablePointer<JSONTypeCacheEntry>
    ) {
        self.paths = paths
        self.pathCapacity = pathCapacity
        self.types = types
    }

    private static func destroy(_ workspace: UnsafeMutablePointer<JSONWorkspace>) {
        workspace.pointee.paths.deinitialize(count: workspace.pointee.pathCount)
        if !workspace.pointee.pathsInline { JSONMemory.deallocate(workspace.pointee.paths) }
        workspace.pointee.scratch.free()
        workspace.pointee.input.free()
        workspace.pointee.unescaped.free()
        workspace.pointee.tape.free()
        workspace.pointee.types.deinitialize(count: typeSlots)
        workspace.deinitialize(count: 1)
        JSONMemory.deallocate(workspace)
    }

    // MARK: Document and tape buffers

    /// A buffer of at least `capacity` bytes for the copy of the document; its contents are not
    /// kept.
    mutating func inputBuffer(_ capacity: Int) throws(JSONSyntaxError) -> UnsafeMutablePointer<UInt8> {
        try input.atLeast(capacity)
    }

    /// A buffer of at least `capacity` bytes for unescaped strings; its contents are not kept.
    mutating func unescapedBuffer(_ capacity: Int) throws(JSONSyntaxError) -> UnsafeMutablePointer<UInt8> {
        try unescaped.atLeast(capacity)
    }

    /// An empty tape for a document of `byteCount` bytes; hand it back with ``keepTape(_:)``
    /// whether scanning succeeded or not.
    mutating func emptyTape(estimatedFor byteCount: Int) throws(JSONSyntaxError) -> JSONTapeBuffer {
        // Minified API JSON averages one entry per 8-12 bytes; the tape grows when that guess is short.
        let base = try tape.atLeast(max(16, byteCount / 8))
        return JSONTapeBuffer(base: base, capacity: tape.capacity)
    }

    /// Takes back the storage of a tape from ``emptyTape(estimatedFor:)`` (it may have grown).
    mutating func keepTape(_ buffer: JSONTapeBuffer) {
        tape.adopt(buffer.base, capacity: buffer.capacity)
    }

    // MARK: Path records

    /// Appends a record and returns its index.
    @inline(__always) @discardableResult
    mutating func push(_ node: consuming JSONPathNode) throws(JSONSyntaxError) -> UInt32 {
        if pathCount == pathCapacity { try growPaths() }
        (paths + pathCount).initialize(to: node)
        pathCount += 1
        return UInt32(pathCount - 1)
    }

    /// Drops the records from `mark` on.
    @inline(__always)
    mutating func truncatePaths(to mark: Int) {
        guard pathCount > mark else { return }
        (paths + mark).deinitialize(count: pathCount - mark)
        pathCount = mark
    }

    @inline(never)
    private mutating func growPaths() throws(JSONSyntaxError) {
        let bigger = try JSONMemory.allocate(JSONPathNode.self, capacity: pathCapacity * 2)
        bigger.moveInitialize(from: paths, count: pathCount)
        if !pathsInline { JSONMemory.deallocate(paths) }
        pathsInline = false
        paths = bigger
        pathCapacity *= 2
    }

    // MARK: Unescaping buffer

    /// A buffer of at least `capacity` bytes, reused between strings.
    mutating func scratchBuffer(_ capacity: Int) throws(JSONSyntaxError) -> UnsafeMutablePointer<UInt8> {
        try scratch.atLeast(max(capacity, 256))
    }

    // MARK: Type classification

    /// How `T` is decoded: arrays and `[String: V]` member by member, anything else through
    /// its `init(from:)`. The conformance checks behind the answer are cached per type.
    @inline(__always)
    mutating func kind<T>(of type: T.Type) -> JSONTypeKind {
        let id = ObjectIdentifier(type)
        for slot in 0..<JSONWorkspace.typeSlots where types[slot].id == id {
            return types[slot].kind
        }
        return classify(type, id)
    }

    @inline(never)
    private mutating func classify<T>(_ type: T.Type, _ id: ObjectIdentifier) -> JSONTypeKind {
        let kind = JSONTypeRegistry.kind(of: type, id)
        types[nextTypeSlot] = JSONTypeCacheEntry(id: id, kind: kind)
        nextTypeSlot = (nextTypeSlot + 1) % JSONWorkspace.typeSlots
        return kind
    }
}

/// The process-wide memory of how types are decoded, so that a type's conformance checks
/// (costly runtime lookups) happen once per process rather than once per decode call.
enum JSONTypeRegistry {
    private static let known = Locked<[ObjectIdentifier: JSONTypeKind]>([:])

    static func kind<T>(of type: T.Type, _ id: ObjectIdentifier) -> JSONTypeKind {
        if let kind = known.withLock({ $0[id] }) { return kind }
        let kind: JSONTypeKind
        if let array = type as? any JSONDecodableArray.Type {
            kind = .array(array)
        } else if let dictionary = type as? any JSONStringKeyedDictionary.Type {
            kind = .stringDictionary(dictionary)
        } else {
            kind = .plain
        }
        known.withLock { $0[id] = kind }
        return kind
    }
}

/// How a type is decoded; see ``JSONWorkspace/kind(of:)``. Holds only metatypes of protocols
/// that refine `SendableMetatype`, so the compiler sees that it is `Sendable`.
enum JSONTypeKind: Sendable {
    case plain
    case array(any JSONDecodableArray.Type)
    case stringDictionary(any JSONStringKeyedDictionary.Type)
}

struct JSONTypeCacheEntry {
    var id: ObjectIdentifier?
    var kind: JSONTypeKind
}
