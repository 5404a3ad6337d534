import CCurl
import CCurlShim

/// A request's header lines as libcurl's list, shared by the transfers that send the same
/// headers: libcurl reads the list while a transfer runs and does not copy it, so it lives until
/// its last transfer and the engine's cache let go of it.
final class CurlHeaderList {
    let pointer: UnsafeMutablePointer<curl_slist>?

    init(_ pointer: UnsafeMutablePointer<curl_slist>?) {
        self.pointer = pointer
    }

    deinit {
        curl_slist_free_all(pointer)
    }
}

/// The last header list the engine built, with what it was built from. Sequential requests of one
/// endpoint send the same headers; they reuse the list (checked once when it was built) instead of
/// checking and formatting every line again. Loop thread only.
struct HeaderListCache {
    /// The lines Courier adds to a request's own.
    struct Shape: Equatable {
        /// `Expect:` and `Content-Type:` (empty: libcurl sends neither of its own) for a body.
        var withBodyLines: Bool
        /// The `Accept-Encoding` line, when decompression is on and libcurl decodes something.
        var acceptEncoding: String?
    }

    private var headers = HTTPHeaders()
    private var shape = Shape(withBodyLines: false, acceptEncoding: nil)
    private var list: CurlHeaderList?

    /// The cached list if it was built from exactly these fields.
    func list(for headers: HTTPHeaders, shape: Shape) -> CurlHeaderList? {
        guard let list, shape == self.shape, headers.isIdentical(to: self.headers) else { return nil }
        return list
    }

    mutating func store(_ list: CurlHeaderList, headers: HTTPHeaders, shape: Shape) {
        self.list = list
        self.headers = headers
        self.shape = shape
    }
}
