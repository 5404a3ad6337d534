#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw buffers for the decoder, straight from `malloc`: on Linux the standard library's
/// `allocate(capacity:)` goes through `posix_memalign`, several times slower, and a decode makes
/// a few of these buffers per call. Every type stored here needs at most 16-byte alignment,
/// which `malloc` guarantees.
///
/// Running out of memory is an error, not a crash: the decode that needed the buffer fails with
/// a `DecodingError` saying so (see ``JSONSyntaxError/isOutOfMemory``).
enum JSONMemory {
    static func allocate<T>(_ type: T.Type, capacity: Int) throws(JSONSyntaxError) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= 16)
        let (size, overflow) = MemoryLayout<T>.stride.multipliedReportingOverflow(by: max(1, capacity))
        guard !overflow, let raw = malloc(size) else { throw JSONSyntaxError.outOfMemory(capacity, T.self) }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        free(UnsafeMutableRawPointer(pointer))
    }
}

/// A `malloc` buffer kept for reuse: asked for more than it holds, it is replaced by a larger
/// one (its contents are not kept).
struct JSONReusableBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var capacity = 0

    mutating func atLeast(_ wanted: Int) throws(JSONSyntaxError) -> UnsafeMutablePointer<Element> {
        if let base, capacity >= wanted { return base }
        free()
        let buffer = try JSONMemory.allocate(Element.self, capacity: wanted)
        base = buffer
        capacity = wanted
        return buffer
    }

    /// Takes over `base` (for example the same storage, grown by its user).
    mutating func adopt(_ base: UnsafeMutablePointer<Element>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    mutating func free() {
        base.map(JSONMemory.deallocate)
        base = nil
        capacity = 0
    }

    mutating func free(ifLargerThan bytes: Int) {
        if capacity * MemoryLayout<Element>.stride > bytes { free() }
    }
}
