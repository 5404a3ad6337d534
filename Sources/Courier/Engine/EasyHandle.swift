import CCurl
import CCurlShim

/// One libcurl easy handle, owned by exactly one value at a time: a transfer while it runs, the
/// engine's ``EasyHandlePool`` between transfers. Non-copyable, so the compiler checks that no
/// two owners hold it; whoever drops it frees it (`curl_easy_cleanup` in `deinit`), and the pool
/// takes it over with ``release()``. Loop thread only.
struct EasyHandle: ~Copyable {
    let pointer: UnsafeMutableRawPointer
    /// libcurl's error message for the handle's latest transfer (`CURLOPT_ERRORBUFFER`, which
    /// libcurl empties when a transfer starts). It lives as long as the handle: a pooled handle
    /// keeps its buffer, so a request allocates none.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The profile whose session options are set on the handle; nil for a fresh or reset one.
    var profile: HandleProfile?
    /// Whether the handle's last request, on a handle that kept its session options, was a GET
    /// without a body: `CURLOPT_HTTPGET` is still set and no body is, so a GET sets neither.
    var sentPlainGET = false
    /// The byte storage of the response head's fields (``HeaderFieldsBuilder``), empty, kept with
    /// the handle between transfers: each transfer's head reuses the capacity of the last one's
    /// instead of allocating and freeing its own (see ``takeHeadStorage()``).
    var headStorage: [UInt8] = []
    /// Cleared when the pool takes the handle over.
    private var owns = true

    /// A new handle, or nil when libcurl cannot make one.
    init?() {
        guard let pointer = curl_easy_init() else { return nil }
        self.pointer = pointer
        errorBuffer = Self.makeErrorBuffer()
    }

    /// Takes over a handle the pool owned.
    fileprivate init(adopting pooled: EasyHandlePool.Pooled) {
        pointer = pooled.pointer
        errorBuffer = pooled.errorBuffer
        profile = pooled.profile
        sentPlainGET = pooled.sentPlainGET
        headStorage = pooled.headStorage
    }

    /// Hands over ``headStorage``, leaving none.
    mutating func takeHeadStorage() -> [UInt8] {
        var storage: [UInt8] = []
        swap(&storage, &headStorage)
        return storage
    }

    /// Gives up ownership without freeing: the caller owns the pointer and the buffer now.
    fileprivate consuming func release() -> EasyHandlePool.Pooled {
        owns = false
        return EasyHandlePool.Pooled(
            pointer: pointer, errorBuffer: errorBuffer, profile: profile, sentPlainGET: profile != nil && sentPlainGET,
            headStorage: takeHeadStorage())
    }

    deinit {
        if owns { Self.free(pointer, errorBuffer) }
    }

    private static func makeErrorBuffer() -> UnsafeMutablePointer<CChar> {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        return buffer
    }

    /// Frees a handle and its error buffer.
    fileprivate static func free(_ pointer: UnsafeMutableRawPointer, _ errorBuffer: UnsafeMutablePointer<CChar>) {
        curl_easy_cleanup(pointer)
        errorBuffer.deallocate()
    }
}

/// Easy handles kept for reuse, which saves libcurl's per-handle set-up: reset ones (profile nil)
/// and ones that kept the session options of their profile. It owns the handles it holds and
/// frees them when drained or dropped. Loop thread only.
struct EasyHandlePool: ~Copyable {
    /// A handle the pool holds: its pointer, its error buffer, its profile.
    fileprivate struct Pooled {
        let pointer: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
        let profile: HandleProfile?
        let sentPlainGET: Bool
        let headStorage: [UInt8]
    }

    private var handles: [Pooled] = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        handles.reserveCapacity(capacity)
    }

    deinit {
        for handle in handles { EasyHandle.free(handle.pointer, handle.errorBuffer) }
    }

    var isEmpty: Bool { handles.isEmpty }

    /// A pooled handle (its ``EasyHandle/profile`` says which session options it keeps),
    /// preferably one configured with `profile`; nil when the pool is empty.
    mutating func take(for profile: HandleProfile) -> EasyHandle? {
        guard let last = handles.last else { return nil }
        // All handles of a session usually share one profile: the last one almost always fits.
        let index =
            last.profile?.matches(profile) ?? true
            ? handles.count - 1
            : handles.lastIndex { $0.profile?.matches(profile) ?? true } ?? handles.count - 1
        let pooled = handles.remove(at: index)
        return EasyHandle(adopting: pooled)
    }

    /// Takes `handle` over (with its profile: nil when the caller reset it), or frees it when
    /// the pool is full.
    mutating func put(_ handle: consuming EasyHandle) {
        guard handles.count < capacity else { return }
        handles.append(handle.release())
    }

    /// Frees every pooled handle.
    mutating func drain() {
        for handle in handles { EasyHandle.free(handle.pointer, handle.errorBuffer) }
        handles.removeAll()
    }
}
