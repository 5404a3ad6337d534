import CCurl
import CCurlShim

/// A URL parsed once by libcurl (a `CURLU`), handed to transfers with `CURLOPT_CURLU`. libcurl
/// reads it and never changes it, so the transfers to one URL share it; it lives until its last
/// transfer and the engine's cache let go of it.
///
/// With `CURLOPT_URL` alone libcurl parses the URL text again for every transfer and prints its
/// normalized form anew: about 11,000 instructions and 2 allocations per request with libcurl
/// 7.88.1 (Benchmarks/EXPERIMENTS.md, Round 6).
final class CurlURLHandle {
    let pointer: OpaquePointer

    /// libcurl's parse of `url`, or nil if libcurl rejects it (the transfer then sets the text,
    /// and libcurl reports the error as it always has).
    init?(_ url: String) {
        guard let pointer = curl_url() else { return nil }
        // The flags libcurl itself parses `CURLOPT_URL` with (Courier sets neither
        // `CURLOPT_PATH_AS_IS` nor `CURLOPT_DISALLOW_USERNAME_IN_URL`); every URL that reaches the
        // engine has its scheme, so guessing one never applies.
        let flags = UInt32(CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME)
        guard curl_url_set(pointer, CURLUPART_URL, url, flags) == CURLUE_OK else {
            curl_url_cleanup(pointer)
            return nil
        }
        self.pointer = pointer
    }

    deinit {
        curl_url_cleanup(pointer)
    }
}

/// The URLs of the last few requests, each parsed once it is requested a second time. Requests to
/// one endpoint (polling, pages of a list, a service's health check) then share the parse; a URL
/// requested once costs a string comparison per entry and no parse. The least recently requested
/// URL is forgotten first, so an endpoint in steady use stays among requests to passing ones.
/// Loop thread only.
struct URLHandleCache {
    /// How many recent URLs are remembered.
    static let capacity = 4

    /// Most recently requested first.
    private var entries: [(url: String, handle: CurlURLHandle?)] = []

    /// The parsed handle for `url` if it was requested recently (parsed now if this is its second
    /// request); nil the first time, and for a URL libcurl rejects.
    mutating func handle(for url: String) -> CurlURLHandle? {
        guard let index = entries.firstIndex(where: { $0.url == url }) else {
            if entries.count == Self.capacity { entries.removeLast() }
            entries.insert((url, nil), at: 0)
            return nil
        }
        if index > 0 { entries.insert(entries.remove(at: index), at: 0) }
        if let handle = entries[0].handle { return handle }
        let handle = CurlURLHandle(url)
        entries[0].handle = handle
        return handle
    }
}
