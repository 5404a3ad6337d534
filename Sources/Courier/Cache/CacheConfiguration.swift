import Foundation

extension Session {
    /// Where a session keeps the responses it may reuse: nowhere, in memory, or in a directory
    /// (``Configuration/cache``). Each store has a byte budget; the least recently used entries
    /// are evicted to stay within it.
    ///
    /// The cache is private (RFC 9111): it belongs to one session, so `Cache-Control: private`
    /// responses are stored; a response to a request with `Authorization` is reused only for a
    /// request with the same `Authorization`, and is kept in memory only, never written to disk.
    public struct CacheStorage: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            case off
            case memory(maxBytes: Int)
            case disk(directory: URL, maxBytes: Int)
        }

        let kind: Kind

        /// No cache: every request goes to the server. The default.
        public static let off = CacheStorage(kind: .off)

        /// Responses kept in memory, at most `maxBytes` of bodies and headers in all; gone with
        /// the session.
        public static func memory(maxBytes: Int) -> CacheStorage {
            CacheStorage(kind: .memory(maxBytes: max(0, maxBytes)))
        }

        /// Responses kept as files in `directory` (created if missing), at most `maxBytes` in all,
        /// across runs. Each entry is written to a temporary file and renamed into place, with a
        /// checksum: an entry cut short by a crash or damaged on disk is deleted, never served.
        /// Two sessions must not share a directory.
        public static func disk(directory: URL, maxBytes: Int) -> CacheStorage {
            CacheStorage(kind: .disk(directory: directory, maxBytes: max(0, maxBytes)))
        }
    }

    /// How requests use the cache, for a whole session (``Configuration/cachePolicy``).
    ///
    /// A request's own `Cache-Control` directives (`no-cache`, `no-store`, `max-age`,
    /// `max-stale`, `min-fresh`, `only-if-cached`) apply on top of ``useProtocol``.
    public enum CachePolicy: Sendable, Equatable {
        /// RFC 9111: reuse a fresh stored response, revalidate a stale one that has a validator
        /// (`ETag`, `Last-Modified`), else fetch. The default.
        case useProtocol
        /// Always ask the server: conditionally when a validator is stored (a 304 answer serves the
        /// stored body), else a plain request. Responses are still stored.
        case revalidate
        /// Never read the cache; store the responses as usual.
        case reloadIgnoringCache
        /// Never contact the server: answer with any stored response for the request, fresh or
        /// stale, else with a 504 (Gateway Timeout) response made by the cache.
        case onlyIfCached
    }
}

extension TransferMetrics {
    /// Where a response came from, when the session has a cache (``TransferMetrics/cacheOutcome``).
    public enum CacheOutcome: Sendable, Equatable {
        /// Served from the cache; nothing was sent.
        case hit
        /// The cache asked the server, which answered 304 (Not Modified): the stored body was
        /// served with the updated headers.
        case revalidated
        /// The response came from the server (and was stored if the rules allow).
        case miss
        /// `only-if-cached` and nothing usable was stored: the 504 response was made by the cache.
        case unavailable
    }
}
