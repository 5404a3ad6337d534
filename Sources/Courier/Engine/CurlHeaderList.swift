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

/// How a request's header lines become the entries of libcurl's list.
///
/// libcurl (7.88.1) writes each entry with its printf (`"%s\r\n"`), at a cost for every entry,
/// and reads only the name an entry starts with. So the lines it never reads go out together in
/// one entry, joined by CRLF: the same bytes on the wire (over HTTP/2 too, as libcurl makes its
/// frames from those bytes). W2's three lines in one entry cost 2,300 instructions less per
/// request on the engine thread (callgrind, docs/performance.md). The rules keep what libcurl
/// does with every line it reads:
///
/// - A line whose name libcurl acts on (``ownEntryNames``: it skips it, reads its value or leaves
///   out a line of its own for it) keeps an entry of its own.
/// - `Accept` and `Accept-Encoding` are only looked for, so that libcurl leaves out its own
///   `Accept: */*` and `Accept-Encoding`. Either one may travel inside a shared entry; an empty
///   entry (`Accept-Encoding:`), for which libcurl sends nothing, then names it.
/// - A line with an empty value keeps an entry of its own in libcurl's form for it, `Name;`.
///
/// `User-Agent` and `Referer` count as lines libcurl never reads: it looks for them only when
/// `CURLOPT_USERAGENT` or `CURLOPT_REFERER` is set, and Courier sets neither.
enum CurlHeaderEntries {
    /// The names (lowercase) whose lines keep an entry of their own.
    static let ownEntryNames: Set<String> = [
        "host", "content-type", "content-length", "transfer-encoding", "connection", "keep-alive",
        "proxy-connection", "upgrade", "http2-settings", "te", "expect", "authorization",
        "proxy-authorization", "cookie", "range", "if-modified-since", "if-unmodified-since",
        "last-modified"
    ]

    /// The names (lowercase) libcurl only looks for, which may travel inside a shared entry.
    static let lookedForNames: Set<String> = ["accept", "accept-encoding"]

    /// The entries for these lines, in order; a value is never empty in a shared entry. The
    /// lines were validated with the request: no CR, LF or NUL anywhere.
    static func entries(_ lines: [(name: String, value: String)]) -> [String] {
        var entries: [String] = []
        var shared: String?
        var hidden: [String] = []
        func endShared() {
            if let shared { entries.append(shared) }
            shared = nil
        }
        for (name, value) in lines {
            let lowercase = name.lowercased()
            if value.isEmpty || ownEntryNames.contains(lowercase) {
                endShared()
                entries.append(value.isEmpty ? name + ";" : name + ": " + value)
            } else if let current = shared {
                shared = current + "\r\n" + name + ": " + value
                if lookedForNames.contains(lowercase) { hidden.append(name) }
            } else {
                shared = name + ": " + value
            }
        }
        endShared()
        for name in hidden where !entries.contains(where: { Self.startsWithName(name, $0) }) {
            entries.append(name + ":")
        }
        return entries
    }

    /// Whether `entry` starts with the header `name` (ASCII, without regard to case), as libcurl
    /// matches one: the name, then a colon or a semicolon.
    private static func startsWithName(_ name: String, _ entry: String) -> Bool {
        let nameBytes = Array(name.utf8), entryBytes = Array(entry.utf8)
        guard entryBytes.count > nameBytes.count else { return false }
        for (index, byte) in nameBytes.enumerated() where byte | 0x20 != entryBytes[index] | 0x20 {
            return false
        }
        let separator = entryBytes[nameBytes.count]
        return separator == UInt8(ascii: ":") || separator == UInt8(ascii: ";")
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
        /// The `Accept-Encoding` value, when decompression is on and libcurl decodes something.
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
