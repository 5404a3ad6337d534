import Foundation

extension DataRequest {
    /// Uses `policy` for this request instead of the session's ``Session/Configuration/cachePolicy``
    /// (it matters only when the session has a ``Session/Configuration/cache``):
    /// ```swift
    /// let fresh = try await session.request(CatalogRouter.items).cachePolicy(.revalidate).data()
    /// ```
    /// Set it before the first response handler: once the request has started it has no effect.
    @discardableResult
    public func cachePolicy(_ policy: Session.CachePolicy) -> Self {
        state.withLock { state in
            let own = state.own ?? OwnExtensions()
            own.cachePolicy = policy
            state.own = own
        }
        return self
    }

    /// Whether this request may share a transfer with identical `GET`s in flight at the same time,
    /// in a session with ``Session/Configuration/coalescesIdenticalRequests`` on. `false` gives it
    /// a transfer of its own, for example to measure a server's response time.
    /// Set it before the first response handler: once the request has started it has no effect.
    @discardableResult
    public func coalescing(_ enabled: Bool) -> Self {
        state.withLock { state in
            let own = state.own ?? OwnExtensions()
            own.coalesces = enabled
            state.own = own
        }
        return self
    }
}

extension Session {
    /// Removes every response the session's ``Configuration/cache`` holds (from memory, or its
    /// files on disk), for example when the user signs out. Does nothing without a cache.
    public func removeAllCachedResponses() {
        (transport as? CachingTransport)?.cache?.removeAll()
    }
}
