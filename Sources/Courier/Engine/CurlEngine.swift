import CCurl
import CCurlShim
import Foundation
import CourierSync
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The libcurl engine: one multi handle, owned and driven by one dedicated thread.
///
/// Other threads never touch curl handles. They append commands to a locked inbox and call
/// `curl_multi_wakeup`, the only libcurl call made off the loop thread. The loop runs
/// `curl_multi_perform` and `curl_multi_poll`, collects finished transfers, applies the redirect
/// policy, and hands results to completion closures.
final class CurlEngine: Transport, @unchecked Sendable {
    // @unchecked: `multi`, `share` and `active` are touched only on the loop thread; `inbox` is a Locked (pthread mutex).
    // Loop-thread state is `@exclusivity(unchecked)`: one thread, and no access overlaps another
    // (see CurlTransfer), so the runtime's dynamic exclusivity check would only cost time.

    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        /// Unpause a direction Courier paused for backpressure (streamed bodies).
        case resume(CurlTransfer, TransferDirection)
        /// Cancel every transfer of a request made before the session's epoch became this one.
        case cancelAll(epoch: UInt64)
        /// Read or change the cookie jar.
        case cookies(CurlCookieJar.Request)
        case shutdown
    }

    private struct Inbox {
        var commands: [Command] = []
        var isShutDown = false
        /// The loop is in (or about to enter) `curl_multi_poll` and needs a wakeup to see commands.
        var loopIsWaiting = false
    }

    private let inbox = Locked(Inbox())
    /// Whether the loop thread has stopped, and who waits for it to.
    private let stopped = Locked((done: false, waiters: [CheckedContinuation<Void, Never>]()))
    /// Transfers of requests made before this session epoch are cancelled (``Command/cancelAll(epoch:)``).
    /// Loop thread only.
    @exclusivity(unchecked) var cancelledBeforeEpoch: UInt64 = 0
    /// True while the inbox holds commands; read without the lock by the spinning loop.
    private let inboxHasCommands = Atomic<Bool>(false)
    /// When and how long the loop spins before parking. Loop thread only.
    @exclusivity(unchecked) private var spinPolicy: SpinPolicy
    /// Easy handles created and not yet cleaned up; zero whenever nothing is in flight.
    let liveHandles = Atomic<Int>(0)
    let multi: UnsafeMutableRawPointer
    let share: UnsafeMutableRawPointer?
    /// The session's cookie jar, held by ``share``; nil when cookies are off. Loop thread only
    /// (created before the thread starts).
    let cookieJar: CurlCookieJar?
    /// Transfers whose handle is in the multi. Loop thread only.
    @exclusivity(unchecked) var active: [ObjectIdentifier: CurlTransfer] = [:]
    /// Transfers to an HTTP/2 origin waiting for ``admission`` to start them. Loop thread only.
    @exclusivity(unchecked) var held: [ObjectIdentifier: CurlTransfer] = [:]
    /// When transfers to HTTP/2 origins may start (see ``StreamAdmission``). Loop thread only.
    @exclusivity(unchecked) var admission = StreamAdmission<ObjectIdentifier>()
    /// Transfers to HTTP/2 origins whose response head arrived in the last perform. Loop thread only.
    @exclusivity(unchecked) var headsArrived: [CurlTransfer] = []
    /// Response streams with bytes their readers have not been woken for yet. Loop thread only.
    @exclusivity(unchecked) var streamsToFlush: [ResponseStreamBuffer] = []
    /// Since when ``streamsToFlush`` waits for the network to fall quiet. Loop thread only.
    @exclusivity(unchecked) var streamsFlushHeldSince: ContinuousClock.Instant?
    @exclusivity(unchecked) private var pendingCommands: [Command] = []
    /// Easy handles kept for reuse, which saves libcurl's per-handle set-up: reset ones (profile
    /// nil), and ones that kept the session options of `profile`. Loop thread only.
    @exclusivity(unchecked) private var idleHandles: [(handle: UnsafeMutableRawPointer, profile: HandleProfile?)] = []
    private static let maxIdleHandles = 64
    /// The nearest deadline of every transfer with a time limit (CurlEngine+Deadlines.swift).
    /// Loop thread only.
    @exclusivity(unchecked) var deadlines = DeadlineQueue<CurlTransfer, ContinuousClock.Instant>()
    /// Rounds of the loop so far: it stays put while the loop waits (tests check that an idle
    /// engine never wakes). Written by the loop thread only.
    let rounds = Atomic<Int>(0)
    /// The last header list built, reused by requests with the same headers. Loop thread only.
    @exclusivity(unchecked) var headerLists = HeaderListCache()

    /// Creates the engine and starts its loop thread. Returns nil if libcurl cannot be initialised.
    init?(
        maxConnectionsPerHost: Int, maxTotalConnections: Int, spinsBeforeParking: Bool = true,
        cookies: Session.CookieStorage = .off
    ) {
        CurlGlobal.initializeOnce()
        spinPolicy = SpinPolicy(enabled: spinsBeforeParking)
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        courier_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        // HTTP/2 server pushes are refused one by one (see the shim): never a hang on a push.
        courier_multi_deny_pushes(multi)
        if maxConnectionsPerHost > 0 {
            courier_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost)
        }
        if maxTotalConnections > 0 {
            courier_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, maxTotalConnections)
        }
        // The share handle is used by easy handles of this loop thread only, so it needs no locks:
        // libcurl calls the lock callbacks only when they are set, and requires them only for
        // handles used from several threads at once.
        share = curl_share_init()
        if let share {
            courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        cookieJar = Self.makeCookieJar(share: share, storage: cookies)
        pendingCommands.reserveCapacity(64)
        let thread = Thread { [self] in self.runLoop() }
        thread.name = "courier.curl-engine"
        thread.start()
    }

    /// Stops the loop thread: in-flight transfers complete with ``CourierError/cancelled``, and
    /// later ones with ``CourierError/sessionShutDown``.
    func shutdown() {
        send(.shutdown)
    }

    /// Stops the loop thread and returns once it has completed every transfer and freed the
    /// multi handle and every easy handle.
    func shutdownAndWait() async {
        send(.shutdown)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = stopped.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }

    /// Cancels every transfer of a request made before the session's epoch became `epoch`,
    /// including those not yet seen by the loop.
    func cancelAll(epoch: UInt64) {
        send(.cancelAll(epoch: epoch))
    }

    /// Carries out `operation` on the cookie jar on the loop thread and passes `completion` the
    /// lines it lists; at once with none when the engine has stopped (its jar was saved then).
    func requestCookieJar(_ operation: CurlCookieJar.Operation, completion: @escaping @Sendable ([String]) -> Void) {
        if !send(.cookies(CurlCookieJar.Request(operation: operation, completion: completion))) { completion([]) }
    }

    /// True once the loop thread has stopped and freed its handles (tests).
    var hasStopped: Bool { stopped.withLock { $0.done } }

    /// True while the loop waits in `curl_multi_poll` for a command (tests).
    var isWaitingForCommands: Bool { inbox.withLock { $0.loopIsWaiting } }

    // MARK: Transport

    func execute(
        _ request: HTTPRequest,
        options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        let transfer = CurlTransfer(request: request, options: options, engine: self, completion: completion)
        if !send(.start(transfer)) {
            transfer.completeWithoutEngine(.sessionShutDown)
        }
        return transfer
    }

    /// Asks the loop to cancel `transfer`. Called by `CurlTransfer.cancel()`.
    func requestCancel(_ transfer: CurlTransfer) {
        send(.cancel(transfer))
    }

    /// Asks the loop to resume `direction` of `transfer`. Called by stream buffers, any thread.
    func requestResume(_ transfer: CurlTransfer, _ direction: TransferDirection) {
        send(.resume(transfer, direction))
    }

    @discardableResult
    private func send(_ command: Command) -> Bool {
        inbox.withLock { box in
            guard !box.isShutDown else { return false }
            box.commands.append(command)
            inboxHasCommands.store(true, ordering: .releasing)
            if case .shutdown = command { box.isShutDown = true }
            // A busy loop drains the inbox before it waits again, so only a waiting loop needs the
            // wakeup (a system call each). Called under the lock: `multi` cannot be cleaned up yet.
            if box.loopIsWaiting {
                box.loopIsWaiting = false
                curl_multi_wakeup(multi)
            }
            return true
        }
    }

    // MARK: Loop thread

    private func runLoop() {
        var running: Int32 = 0
        var stopping = false
        while !stopping {
            rounds.store(rounds.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            stopping = drainInbox()
            if stopping { break }
            curl_multi_perform(multi, &running)
            let finished = collectFinished()
            observePlacements()
            noteHeadsArrived()
            let started = startAdmitted()
            let now = ContinuousClock.now
            var nextDeadline = expireDeadlines(now: now)
            if !held.isEmpty, let settling = admission.nextSettling(now: now) {
                nextDeadline = min(nextDeadline ?? settling, settling)
            }
            let flushHold = flushStreams(now: now)
            // Newly started transfers are performed (and placed) at once, without waiting.
            if started > 0 { continue }
            // Only after a round in which a transfer completed, with no other transfer waiting on a
            // socket, is the next command likely close and nothing else in need of the loop: then
            // spin, then park. Not after commands alone (a cancel, a failed start): spinning then
            // would only take a core from the threads that carry the completion to its caller.
            let awaitsCommand =
                spinPolicy.isEnabled && finished > 0 && active.isEmpty && held.isEmpty
                && nextDeadline == nil && flushHold == nil
            let waitStart = awaitsCommand ? DispatchTime.now().uptimeNanoseconds : 0
            if awaitsCommand && spinForCommands(since: waitStart) { continue }
            let mustWait = inbox.withLock { box in
                box.loopIsWaiting = box.commands.isEmpty
                return box.loopIsWaiting
            }
            if mustWait {
                var ignored: Int32 = 0
                var deadline = nextDeadline
                if let flushHold { deadline = min(deadline ?? now + flushHold, now + flushHold) }
                let idle = active.isEmpty && held.isEmpty
                curl_multi_poll(multi, nil, 0, Self.pollTimeout(until: deadline, now: now, idle: idle), &ignored)
                inbox.withLock { $0.loopIsWaiting = false }
            }
            if awaitsCommand {
                // How long the command took (or that none came) tunes the next spin.
                let waited = DispatchTime.now().uptimeNanoseconds - waitStart
                spinPolicy.observe(wait: inboxHasCommands.load(ordering: .acquiring) ? waited : nil)
            }
        }
        for transfer in Array(active.values) {
            detach(transfer)
            transfer.finish(error: .cancelled)
        }
        for transfer in Array(held.values) {
            dropHeld(transfer)
            transfer.finish(error: .cancelled)
        }
        curl_multi_cleanup(multi)
        // Transfers hold the engine: drop the last references to them (no retain cycle).
        headsArrived.removeAll()
        for (handle, _) in idleHandles { curl_easy_cleanup(handle) }
        idleHandles.removeAll()
        // The jar's handle is the last one holding the share: the share is freed after it.
        cookieJar?.close()
        if let share { curl_share_cleanup(share) }
        let waiters = stopped.withLock { state in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Watches the inbox for up to the spin policy's window; true (and the wait observed) if a
    /// command arrived.
    private func spinForCommands(since start: UInt64) -> Bool {
        let result = SpinPolicy.spin(window: spinPolicy.nextWindow(), since: start) {
            inboxHasCommands.load(ordering: .acquiring)
        }
        spinPolicy.observe(result)
        guard case .arrived(let waited) = result else { return false }
        spinPolicy.observe(wait: waited)
        return true
    }

    /// Carries out queued commands; returns true when the engine must stop.
    private func drainInbox() -> Bool {
        inbox.withLock { box in
            swap(&box.commands, &pendingCommands)
            inboxHasCommands.store(false, ordering: .relaxed)
        }
        defer { pendingCommands.removeAll(keepingCapacity: true) }
        var stop = false
        for command in pendingCommands {
            switch command {
            case .start(let transfer):
                attach(transfer)
            case .cancel(let transfer):
                if active[ObjectIdentifier(transfer)] != nil {
                    detach(transfer)
                    transfer.finish(error: .cancelled)
                } else if held[ObjectIdentifier(transfer)] != nil {
                    dropHeld(transfer)
                    transfer.finish(error: .cancelled)
                } else if !transfer.isFinished {
                    // Cancelled before its start command was seen: start sees the flag and completes.
                    transfer.finish(error: .cancelled)
                }
            case .resume(let transfer, let direction):
                if active[ObjectIdentifier(transfer)] != nil { transfer.unpause(direction) }
            case .cancelAll(let epoch):
                cancelAll(before: epoch)
            case .cookies(let request):
                request.completion(cookieJar?.perform(request.operation) ?? [])
            case .shutdown:
                stop = true
            }
        }
        return stop
    }

    /// An easy handle for a new transfer, and whether it already has the session options of
    /// `profile`: a pooled one (preferably configured with `profile`), or a new one. Loop thread only.
    func obtainHandle(for profile: HandleProfile) -> (UnsafeMutableRawPointer, Bool)? {
        if let last = idleHandles.last {
            // All handles of a session usually share one profile: the last one almost always fits.
            if last.profile?.matches(profile) ?? true {
                idleHandles.removeLast()
                liveHandles.add(1, ordering: .relaxed)
                return (last.handle, last.profile != nil)
            }
            let index = idleHandles.lastIndex { $0.profile?.matches(profile) ?? true } ?? idleHandles.count - 1
            let pooled = idleHandles.remove(at: index)
            let fits = pooled.profile?.matches(profile) ?? false
            if pooled.profile != nil, !fits { reset(pooled.handle) }
            liveHandles.add(1, ordering: .relaxed)
            return (pooled.handle, fits)
        }
        guard let handle = curl_easy_init() else { return nil }
        liveHandles.add(1, ordering: .relaxed)
        return (handle, false)
    }

    /// Takes back a handle that is no longer in the multi: pooled with the session options of
    /// `profile` kept, or reset and pooled (profile nil), or freed. Loop thread only.
    func recycle(_ handle: UnsafeMutableRawPointer, keeping profile: HandleProfile?) {
        liveHandles.subtract(1, ordering: .relaxed)
        guard idleHandles.count < Self.maxIdleHandles else {
            curl_easy_cleanup(handle)
            return
        }
        // Reset drops every option (callbacks, private pointer, buffers) but keeps caches.
        if profile == nil { reset(handle) }
        idleHandles.append((handle, profile))
    }

    /// `curl_easy_reset`, first switching the cookie engine off (`CURLOPT_COOKIEFILE` NULL),
    /// which frees the handle's list of cookie files: without it, AddressSanitizer reports that
    /// list leaked for handles reset with the engine on (libcurl 7.88). With the shared jar,
    /// switching off only detaches the handle from it; the jar keeps its cookies, and the handle's
    /// next configuration switches it on again.
    private func reset(_ handle: UnsafeMutableRawPointer) {
        if cookieJar != nil { courier_easy_setopt_pointer(handle, CURLOPT_COOKIEFILE, nil) }
        curl_easy_reset(handle)
    }
}

extension CurlEngine {
    /// A jar for `storage` on `share` (which then shares cookies), or nil when cookies are off.
    fileprivate static func makeCookieJar(
        share: UnsafeMutableRawPointer?, storage: Session.CookieStorage
    ) -> CurlCookieJar? {
        guard let share else { return nil }
        let file: URL?
        switch storage {
        case .off: return nil
        case .inMemory: file = nil
        case .persistent(let url): file = url
        }
        guard courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) == CURLSHE_OK
        else { return nil }
        return CurlCookieJar(share: share, file: file)
    }
}

/// Process-wide libcurl initialisation. `curl_global_cleanup` is never called: other code in the
/// process (FoundationNetworking) may use the same libcurl.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    static func initializeOnce() {
        _ = initialized
    }
}
