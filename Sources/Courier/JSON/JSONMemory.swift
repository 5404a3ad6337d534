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
enum JSONMemory {
    static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.alignment <= 16)
        guard let raw = malloc(max(1, MemoryLayout<T>.stride * capacity)) else {
            fatalError("CourierJSONDecoder: out of memory allocating \(capacity) \(T.self)")
        }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        free(UnsafeMutableRawPointer(pointer))
    }
}
