import CCurl
import CCurlShim
import Foundation

/// A session's cookie jar: libcurl's cookie store, held by the engine's share handle
/// (`CURL_LOCK_DATA_COOKIE`), so every easy handle of the engine reads and writes the same cookies.
///
/// The jar keeps one easy handle of its own that never transfers anything: the handle through
/// which the jar is loaded, read (`CURLINFO_COOKIELIST`), written (`CURLOPT_COOKIELIST`) and
/// saved (`CURLOPT_COOKIEJAR`, "FLUSH"). Only that handle names the file, so transfer handles
/// never write it when they are cleaned up. Loop thread only, like the share handle (created
/// before the loop thread starts).
///
/// Every Courier file that uses libcurl imports both CCurl and CCurlShim: with CCurl alone, Swift
/// 6.3.1 failed to find libcurl's `CURLE_` constants in a file compiled after another file's call of
/// a shim function had brought `curl.h` in through CCurlShim (release builds, depending on file
/// order).
final class CurlCookieJar {
    /// What the session asks of the jar.
    enum Operation: Sendable {
        /// The cookies in the jar, as Netscape-format lines.
        case list
        /// Adds (or replaces) cookies given as Netscape-format lines.
        case add([String])
        /// Empties the jar.
        case removeAll
        /// Writes the jar to its file (a no-op in memory).
        case flush
    }

    /// A queued operation and whom to tell: the listed lines (empty for all but ``Operation/list``).
    struct Request: Sendable {
        let operation: Operation
        let completion: @Sendable ([String]) -> Void
    }

    private let handle: UnsafeMutableRawPointer
    let file: URL?

    /// Attaches a jar to `share` (which must already share cookies) and loads `file` when given.
    init?(share: UnsafeMutableRawPointer, file: URL?) {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.file = file
        courier_easy_setopt_pointer(handle, CURLOPT_SHARE, share)
        if let file {
            file.path.withCString { path in
                // COOKIEFILE names the file RELOAD reads; COOKIEJAR the one FLUSH writes (and cleanup,
                // unless `close()` unsets it first).
                _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIEFILE, path)
                _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIEJAR, path)
            }
            "RELOAD".withCString { _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIELIST, $0) }
        }
    }

    /// Carries out `operation`; returns the lines for ``Operation/list``.
    func perform(_ operation: Operation) -> [String] {
        switch operation {
        case .list:
            return lines()
        case .add(let lines):
            for line in lines { line.withCString { _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIELIST, $0) } }
        case .removeAll:
            "ALL".withCString { _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIELIST, $0) }
        case .flush:
            if file != nil { "FLUSH".withCString { _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIELIST, $0) } }
        }
        return []
    }

    /// Writes the jar to its file (when it has one) and frees the jar's handle; called before
    /// the share handle is cleaned up.
    func close() {
        _ = perform(.flush)
        // The file was just written. Cleanup would write it a second time (COOKIEJAR is set),
        // replacing a file that a reader may already hold: unset it so the jar is written once.
        if file != nil { _ = courier_easy_setopt_pointer(handle, CURLOPT_COOKIEJAR, nil) }
        curl_easy_cleanup(handle)
    }

    private func lines() -> [String] {
        var list: UnsafeMutableRawPointer?
        guard courier_easy_getinfo_pointer(handle, CURLINFO_COOKIELIST, &list) == CURLE_OK, let list else { return [] }
        let head = list.assumingMemoryBound(to: curl_slist.self)
        defer { curl_slist_free_all(head) }
        var result: [String] = []
        var node: UnsafeMutablePointer<curl_slist>? = head
        while let current = node {
            if let data = current.pointee.data { result.append(String(cString: data)) }
            node = current.pointee.next
        }
        return result
    }
}
