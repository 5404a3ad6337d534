import CCurl
import CCurlShim

/// One libcurl easy handle, owned by exactly one value at a time: a transfer while it runs, the
/// engine's ``EasyHandlePool`` between transfers. Non-copyable, so the compiler checks that no
/// two owners hold it; whoever drops it frees it (`curl_easy_cleanup` in `deinit`), and the pool
/// takes it over with ``release()``. Loop thread only.
struct EasyHandle: ~Copyable {
    let pointer: UnsafeMutableRawPointer
    /// The profile whose session options are set on the handle; nil for a fresh or reset one.
    var profile: HandleProfile?
    /// Cleared when the pool takes the handle over.
    private var owns = true

    /// A new handle, or nil when libcurl cannot make one.
    init?() {
        guard let pointer = curl_easy_init() else { return nil }
        self.pointer = pointer
    }

    /// Takes over a handle the pool owned.
    fileprivate init(adopting pointer: UnsafeMutableRawPointer, profile: HandleProfile?) {
        self.pointer = pointer
        self.profile = profile
    }

    /// Gives up ownership without freeing: the caller owns the pointer now.
    fileprivate consuming func release() -> UnsafeMutableRawPointer {
        owns = false
        return pointer
    }

    deinit {
        if owns { curl_easy_cleanup(pointer) }
    }
}

/// Easy handles kept for reuse, which saves libcurl's per-handle set-up: reset ones (profile nil)
/// and ones that kept the session options of their profile. It owns the handles it holds and
/// frees them when drained or dropped. Loop thread only.
struct EasyHandlePool: ~Copyable {
    private var handles: [(pointer: UnsafeMutableRawPointer, profile: HandleProfile?)] = []
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        handles.reserveCapacity(capacity)
    }

    deinit {
        for handle in handles { curl_easy_cleanup(handle.pointer) }
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
        return EasyHandle(adopting: pooled.pointer, profile: pooled.profile)
    }

    /// Takes `handle` over (with its profile: nil when the caller reset it), or frees it when
    /// the pool is full.
    mutating func put(_ handle: consuming EasyHandle) {
        guard handles.count < capacity else { return }
        let profile = handle.profile
        handles.append((handle.release(), profile))
    }

    /// Frees every pooled handle.
    mutating func drain() {
        for handle in handles { curl_easy_cleanup(handle.pointer) }
        handles.removeAll()
    }
}
