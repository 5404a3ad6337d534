import Foundation

/// The single-flight refresh of an ``AuthenticationInterceptor`` as a pure state machine: events
/// in, actions out, no I/O. `Waiter` is whatever the caller resumes when a refresh ends
/// (a continuation in the interceptor, a number in tests).
///
/// - At most one refresh runs at a time; every request that needs a credential meanwhile waits
///   for it, and all of them get its result.
/// - A 401 for a request sent with an older credential than the current one is replayed at once
///   with the current one, without another refresh.
/// - At most `limit.maxRefreshes` refreshes start within any `limit.window` seconds; past that,
///   refreshing fails with ``CourierError/tooManyCredentialRefreshes``.
struct RefreshState<Waiter> {
    /// What the caller must do next.
    enum Action {
        /// Use this credential now (send, or replay the request with it).
        case proceed(AuthCredential)
        /// The waiter was queued; it is returned by ``finishRefresh(_:)``.
        case wait
        /// The waiter was queued and a refresh of this credential must be started by the caller.
        case refresh(AuthCredential)
        /// Fail the request with this error.
        case fail(CourierError)
        /// Nothing to do: deliver the response as it is.
        case deliver
    }

    private(set) var credential: AuthCredential?
    private(set) var isRefreshing = false
    /// Refreshes started so far.
    private(set) var refreshCount = 0
    let maxRefreshes: Int
    let window: TimeInterval
    private var waiters: [Waiter] = []
    /// How many requests wait for the running refresh (its starter included).
    var waiterCount: Int { waiters.count }
    /// When the refreshes of the current window started.
    private var recentRefreshes: [Date] = []
    /// Bumped when the app sets the credential itself, so a refresh started before that does not
    /// overwrite it.
    private var epoch = 0
    private var refreshEpoch = 0

    init(credential: AuthCredential?, maxRefreshes: Int, window: TimeInterval) {
        self.credential = credential
        self.maxRefreshes = maxRefreshes
        self.window = window
    }

    /// The app signed in (or out): this credential replaces any other, and the refreshes of
    /// the previous one no longer count against the limit.
    mutating func set(_ credential: AuthCredential?) {
        self.credential = credential
        epoch += 1
        recentRefreshes.removeAll()
    }

    /// A request needing a credential is about to be sent.
    mutating func credentialForSending(now: Date, leeway: TimeInterval, waiter: Waiter) -> Action {
        if isRefreshing {
            waiters.append(waiter)
            return .wait
        }
        guard let credential else { return .fail(.missingCredential) }
        guard credential.isExpired(at: now, leeway: leeway) else { return .proceed(credential) }
        return startRefresh(of: credential, now: now, waiter: waiter)
    }

    /// A request came back 401; `sentWithCurrent` tells whether the credential it carried is
    /// the current one.
    mutating func unauthorized(now: Date, waiter: Waiter, sentWithCurrent: (AuthCredential) -> Bool) -> Action {
        if isRefreshing {
            waiters.append(waiter)
            return .wait
        }
        guard let credential else { return .deliver }
        guard sentWithCurrent(credential) else { return .proceed(credential) }
        return startRefresh(of: credential, now: now, waiter: waiter)
    }

    /// The refresh ended; returns the waiters to resume with `result` (on success the new
    /// credential is current, unless the app set one of its own meanwhile).
    mutating func finishRefresh(
        _ result: Result<AuthCredential, CourierError>
    ) -> (waiters: [Waiter], result: Result<AuthCredential, CourierError>) {
        isRefreshing = false
        let woken = waiters
        waiters = []
        guard case .success(let refreshed) = result else { return (woken, result) }
        if epoch == refreshEpoch {
            credential = refreshed
            return (woken, result)
        }
        // The app replaced the credential during the refresh: its choice wins.
        return (woken, credential.map { .success($0) } ?? .failure(.missingCredential))
    }

    private mutating func startRefresh(of credential: AuthCredential, now: Date, waiter: Waiter) -> Action {
        recentRefreshes.removeAll { now.timeIntervalSince($0) >= window }
        guard recentRefreshes.count < maxRefreshes else {
            return .fail(.tooManyCredentialRefreshes(limit: maxRefreshes, window: window))
        }
        recentRefreshes.append(now)
        refreshCount += 1
        isRefreshing = true
        refreshEpoch = epoch
        waiters.append(waiter)
        return .refresh(credential)
    }
}
