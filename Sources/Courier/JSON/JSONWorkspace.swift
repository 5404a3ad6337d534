import CourierSync

/// The mutable parts of a decoding state: coding path records, the unescaping buffer and the
/// type classification cache. Kept behind a pointer, so reading and writing them costs no
/// runtime exclusivity checks. Like Foundation's decoder, one decoding state is used by one
/// thread at a time.
struct JSONWorkspace {
    private(set) var paths: UnsafeMutablePointer<JSONPathNode>
    private(set) var pathCount = 0
    private var pathCapacity: Int
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var scratchCapacity = 0
    private var types: UnsafeMutablePointer<JSONTypeCacheEntry>
    private var nextTypeSlot = 0
    /// With the custom key strategy: each opened object's keys as the strategy converted them.
    var customKeys: [UInt32: [String]] = [:]

    /// Whether `paths` is still the block allocated with the workspace.
    private var pathsInline = true

    private static let typeSlots = 8
    private static let inlinePaths = 16

    /// A workspace whose first path record is the root. The workspace, its type cache and its
    /// first path records share one allocation.
    static func make() -> UnsafeMutablePointer<JSONWorkspace> {
        let header = MemoryLayout<JSONWorkspace>.stride
        let typesSize = MemoryLayout<JSONTypeCacheEntry>.stride * typeSlots
        let pathsSize = MemoryLayout<JSONPathNode>.stride * inlinePaths
        let alignment = max(
            MemoryLayout<JSONWorkspace>.alignment, MemoryLayout<JSONTypeCacheEntry>.alignment,
            MemoryLayout<JSONPathNode>.alignment)
        let typesOffset = (header + alignment - 1) / alignment * alignment
        let pathsOffset = (typesOffset + typesSize + alignment - 1) / alignment * alignment
        let raw = UnsafeMutableRawPointer(JSONMemory.allocate(UInt8.self, capacity: pathsOffset + pathsSize))
        let types = (raw + typesOffset).bindMemory(to: JSONTypeCacheEntry.self, capacity: typeSlots)
        types.initialize(repeating: JSONTypeCacheEntry(id: nil, kind: .plain), count: typeSlots)
        let paths = (raw + pathsOffset).bindMemory(to: JSONPathNode.self, capacity: inlinePaths)
        let workspace = raw.bindMemory(to: JSONWorkspace.self, capacity: 1)
        workspace.initialize(to: JSONWorkspace(paths: paths, pathCapacity: inlinePaths, types: types))
        workspace.pointee.push(JSONPathNode(parent: 0, parentValue: 0, value: 0, key: nil))
        return workspace
    }

    private init(
        paths: UnsafeMutablePointer<JSONPathNode>, pathCapacity: Int, types: UnsafeMutablePointer<JSONTypeCacheEntry>
    ) {
        self.paths = paths
        self.pathCapacity = pathCapacity
        self.types = types
    }

    static func destroy(_ workspace: UnsafeMutablePointer<JSONWorkspace>) {
        workspace.pointee.paths.deinitialize(count: workspace.pointee.pathCount)
        if !workspace.pointee.pathsInline { JSONMemory.deallocate(workspace.pointee.paths) }
        workspace.pointee.scratch.map(JSONMemory.deallocate)
        workspace.pointee.types.deinitialize(count: typeSlots)
        workspace.deinitialize(count: 1)
        JSONMemory.deallocate(workspace)
    }

    // MARK: Path records

    /// Appends a record and returns its index.
    @inline(__always) @discardableResult
    mutating func push(_ node: JSONPathNode) -> UInt32 {
        if pathCount == pathCapacity { growPaths() }
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
    private mutating func growPaths() {
        let bigger = JSONMemory.allocate(JSONPathNode.self, capacity: pathCapacity * 2)
        bigger.moveInitialize(from: paths, count: pathCount)
        if !pathsInline { JSONMemory.deallocate(paths) }
        pathsInline = false
        paths = bigger
        pathCapacity *= 2
    }

    // MARK: Unescaping buffer

    /// A buffer of at least `capacity` bytes, reused between strings.
    mutating func scratchBuffer(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if let scratch, scratchCapacity >= capacity { return scratch }
        scratch.map(JSONMemory.deallocate)
        scratchCapacity = max(capacity, 256)
        let buffer = JSONMemory.allocate(UInt8.self, capacity: scratchCapacity)
        scratch = buffer
        return buffer
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

/// How a type is decoded; see ``JSONWorkspace/kind(of:)``. Holds only metatypes, which
/// never change.
enum JSONTypeKind: @unchecked Sendable {
    case plain
    case array(any JSONDecodableArray.Type)
    case stringDictionary(any JSONStringKeyedDictionary.Type)
}

struct JSONTypeCacheEntry {
    var id: ObjectIdentifier?
    var kind: JSONTypeKind
}
