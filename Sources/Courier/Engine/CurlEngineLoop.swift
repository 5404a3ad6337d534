import CCurl
import CCurlShim
import Foundation
import CourierSync
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The libcurl engine proper: one multi handle and every transfer in it, owned and driven by the
/// engine's one thread.
///
/// Confined by construction: the loop is created on its thread (``CurlEngine``'s thread body)
/// and referenced only from there, and it is not `Sendable`, so the compiler refuses to hand it,
/// or any transfer it owns, to another thread. libcurl's callbacks, which run inside
/// `curl_multi_perform` on this thread, recover their transfer from an opaque pointer. In debug
/// builds, the entry points (commands, callbacks) assert that they run on the loop thread.
///
/// Each round it carries out commands, runs `curl_multi_perform`, collects finished transfers,
/// applies the redirect policy, and hands results to completion closures.
///
/// The collections every request touches (here, in ``TransferReports`` and in ``CurlTransfer``)
/// are `@exclusivity(unchecked)`: Swift cannot prove statically that their accesses never overlap
/// (growing an array calls into the runtime), so without the attribute each access pays a runtime
/// check, about 5,000 instructions per request in all (3.7%, docs/performance.md). No access to
/// them overlaps another: each runs on the loop thread, and none calls code that could reach the
/// same property again (each property's comment says why).
final class CurlEngineLoop {
    struct Settings: Sendable {
        var maxConnectionsPerHost: Int
        var maxTotalConnections: Int
        var spinsBeforeParking: Bool
        var cookies: Session.CookieStorage
    }

    /// The handle other threads hold: the inbox and the counters tests read.
    let engine: CurlEngine
    let multi: UnsafeMutableRawPointer
    let share: UnsafeMutableRawPointer?
    /// The session's cookie jar, held by ``share``; nil when cookies are off.
    let cookieJar: CurlCookieJar?
    /// The loop's thread, for the debug-build checks of ``assertOnLoop()``.
    let thread = pthread_self()
    /// Transfers of requests made before this session epoch are cancelled (``CurlEngine/Command/cancelAll(epoch:)``).
    var cancelledBeforeEpoch: UInt64 = 0
    /// Whether the loop spins before parking (its ``SpinPolicy`` is a local of ``run()``).
    private let spinsBeforeParking: Bool
    // Unchecked (see the type's comment): read, inserted and removed by the loop's own methods;
    // a removed transfer's `deinit` frees only its own buffer.
    /// Every transfer the loop holds and has not finished, by its token's identity; its
    /// ``TransferLifecycle`` says where it stands.
    @exclusivity(unchecked) var transfers = IdentityTable<CurlTransfer>()
    /// Transfers waiting in ``admission``.
    var heldCount = 0
    /// The size of libcurl's connection cache Courier has set; 0 while libcurl's own default
    /// applies (see ``keepConnectionCache()``).
    var connectionCache = 0
    // Unchecked: a pure state machine; its methods call nothing outside it.
    /// When transfers to HTTP/2 origins may start (see ``StreamAdmission``).
    @exclusivity(unchecked) var admission = StreamAdmission<ObjectIdentifier>()
    /// What transfers reported from libcurl's callbacks during the last perform.
    let reports = TransferReports()
    // Unchecked: appended in `takeReports`, emptied in `flushStreams`, whose only call out,
    // `ResponseStreamBuffer.flush()`, resumes the reader's continuation and never reaches the loop.
    /// Response streams with bytes their readers have not been woken for yet.
    @exclusivity(unchecked) var streamsToFlush: [ResponseStreamBuffer] = []
    /// Since when ``streamsToFlush`` waits for the network to fall quiet.
    var streamsFlushHeldSince: MonotonicInstant?
    // Unchecked: handles go in and out; one dropped calls `curl_easy_cleanup` on a handle that is
    // in no multi, which runs none of Courier's callbacks.
    /// Easy handles kept for reuse.
    @exclusivity(unchecked) var handlePool = EasyHandlePool(capacity: 64)
    // Unchecked: a heap whose only write outside itself is each transfer's `deadlineSlot`.
    /// The nearest deadline of every transfer with a time limit (CurlEngineLoop+Deadlines.swift).
    @exclusivity(unchecked) var deadlines = DeadlineQueue<CurlTransfer, MonotonicInstant>()
    // Unchecked: lent (`inout`) to a transfer's `configure`, which touches no other loop state.
    /// The last header list built, reused by requests with the same headers.
    @exclusivity(unchecked) var headerLists = HeaderListCache()
    /// The URLs of recent requests, parsed once for the requests that repeat them.
    var urlHandles = URLHandleCache()

    /// Sets the engine up on the calling thread, which becomes its loop thread; nil if libcurl
    /// cannot make a multi handle.
    init?(engine: CurlEngine, settings: Settings) {
        self.engine = engine
        spinsBeforeParking = settings.spinsBeforeParking
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        courier_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        // HTTP/2 server pushes are refused one by one (see the shim): never a hang on a push.
        courier_multi_deny_pushes(multi)
        if settings.maxConnectionsPerHost > 0 {
            courier_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxConnectionsPerHost)
        }
        if settings.maxTotalConnections > 0 {
            courier_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, settings.maxTotalConnections)
        }
        // The share handle is used by easy handles of this loop thread only, so it needs no locks:
        // libcurl calls the lock callbacks only when they are set, and requires them only for
        // handles used from several threads at once.
        share = curl_share_init()
        if let share {
            courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        cookieJar = Self.makeCookieJar(share: share, storage: settings.cookies)
    }

    /// Debug builds: traps unless called on the loop thread.
    @inline(__always)
    func assertOnLoop() {
        assert(pthread_equal(pthread_self(), thread) != 0, "engine state touched off its loop thread")
    }

    /// Runs until a shutdown command, then completes every transfer and frees every handle.
    func run() {
        assertOnLoop()
        var running: Int32 = 0
        // The loop's per-round state lives in this frame: no access to it needs a runtime check.
        var spinPolicy = SpinPolicy(enabled: spinsBeforeParking)
        var commands: [CurlEngine.Command] = []
        commands.reserveCapacity(64)
        while true {
            engine.rounds.store(engine.rounds.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
            if drainInbox(into: &commands) { break }
            curl_multi_perform(multi, &running)
            let finished = collectFinished()
            observePlacements()
            takeReports()
            let started = startAdmitted()
            let now = MonotonicInstant.now
            var nextDeadline = expireDeadlines(now: now)
            if started == 0, heldCount > 0, let settling = admission.nextSettling(now: now) {
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
                spinPolicy.isEnabled && finished > 0 && transfers.isEmpty && nextDeadline == nil && flushHold == nil
            let waitStart = awaitsCommand ? DispatchTime.now().uptimeNanoseconds : 0
            if awaitsCommand && spinForCommands(since: waitStart, policy: &spinPolicy) { continue }
            let mustWait = engine.inbox.withLock { box in
                box.loopIsWaiting = box.commands.isEmpty
                return box.loopIsWaiting
            }
            if mustWait {
                var ignored: Int32 = 0
                var deadline = nextDeadline
                if let flushHold { deadline = min(deadline ?? now + flushHold, now + flushHold) }
                let timeout = CurlEngine.pollTimeout(until: deadline, now: now, idle: transfers.isEmpty)
                curl_multi_poll(multi, nil, 0, timeout, &ignored)
                engine.inbox.withLock { $0.loopIsWaiting = false }
            }
            if awaitsCommand {
                // How long the command took (or that none came) tunes the next spin.
                let waited = DispatchTime.now().uptimeNanoseconds - waitStart
                spinPolicy.observe(wait: engine.inbox.hasCommands.load(ordering: .acquiring) ? waited : nil)
            }
        }
        stop()
    }

    /// Completes every transfer with ``CourierError/cancelled`` and frees every handle.
    private func stop() {
        for transfer in transfers.values { handle(transfer, .cancel) }
        reports.removeAll()
        streamsToFlush.removeAll()
        // No wakeup may reach the multi once it is freed.
        engine.inbox.withLock { $0.multi = nil }
        curl_multi_cleanup(multi)
        handlePool.drain()
        // The jar's handle is the last one holding the share: the share is freed after it.
        cookieJar?.close()
        if let share { curl_share_cleanup(share) }
        engine.markStopped()
    }

    /// Watches the inbox for up to the spin policy's window; true (and the wait observed) if a
    /// command arrived.
    private func spinForCommands(since start: UInt64, policy spinPolicy: inout SpinPolicy) -> Bool {
        let result = SpinPolicy.spin(window: spinPolicy.nextWindow(), since: start) {
            engine.inbox.hasCommands.load(ordering: .acquiring)
        }
        spinPolicy.observe(result)
        guard case .arrived(let waited) = result else { return false }
        spinPolicy.observe(wait: waited)
        return true
    }

    /// Carries out queued commands, taken into `commands` (an empty array whose capacity the
    /// inbox takes over); returns true when the engine must stop.
    private func drainInbox(into commands: inout [CurlEngine.Command]) -> Bool {
        assertOnLoop()
        // Most rounds find the inbox empty: then no lock is taken. A command that arrives
        // meanwhile is seen under the lock before the loop waits, and taken in the next round.
        guard engine.inbox.hasCommands.load(ordering: .acquiring) else { return false }
        engine.inbox.withLock { box in
            swap(&box.commands, &commands)
            engine.inbox.hasCommands.store(false, ordering: .relaxed)
        }
        // Emptied one by one: there are usually one or two, and `removeAll(keepingCapacity:)`
        // costs more than that.
        defer { while commands.popLast() != nil {} }
        var stop = false
        for command in commands {
            switch command {
            case .start(let token):
                let transfer = CurlTransfer(token, reports: reports, loopThread: thread)
                transfers.insert(transfer, for: transfer.id)
                submit(transfer)
                keepConnectionCache()
            case .cancel(let token):
                if let transfer = transfers[token.id] { handle(transfer, .cancel) }
            case .resume(let token, let direction):
                if let transfer = transfers[token.id] { handle(transfer, .resume(direction)) }
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

    /// An easy handle for a new transfer: a pooled one (preferably configured with `profile`;
    /// its ``EasyHandle/profile`` is set only if it already has the session options of
    /// `profile`), or a new one.
    func obtainHandle(for profile: HandleProfile) -> EasyHandle? {
        if var handle = handlePool.take(for: profile) {
            engine.liveHandles.add(1, ordering: .relaxed)
            if let kept = handle.profile, !kept.matches(profile) {
                reset(handle)
                handle.profile = nil
            }
            return handle
        }
        guard let handle = EasyHandle() else { return nil }
        engine.liveHandles.add(1, ordering: .relaxed)
        return handle
    }

    /// Takes back a handle that is no longer in the multi: pooled with the session options of
    /// its profile kept, or reset and pooled (profile nil), or freed when the pool is full.
    func recycle(_ handle: consuming EasyHandle) {
        engine.liveHandles.subtract(1, ordering: .relaxed)
        // Reset drops every option (callbacks, private pointer, buffers) but keeps caches.
        if handle.profile == nil { reset(handle) }
        handlePool.put(handle)
    }

    /// `curl_easy_reset`, first switching the cookie engine off (`CURLOPT_COOKIEFILE` NULL),
    /// which frees the handle's list of cookie files: without it, AddressSanitizer reports that
    /// list leaked for handles reset with the engine on (libcurl 7.88). With the shared jar,
    /// switching off only detaches the handle from it; the jar keeps its cookies, and the handle's
    /// next configuration switches it on again.
    private func reset(_ handle: borrowing EasyHandle) {
        if cookieJar != nil { courier_easy_setopt_pointer(handle.pointer, CURLOPT_COOKIEFILE, nil) }
        curl_easy_reset(handle.pointer)
    }
}

/// What transfers report to the loop from libcurl's callbacks (during `curl_multi_perform`): the
/// loop takes the reports after each perform. Loop thread only.
final class TransferReports {
    enum Report {
        /// A transfer to an HTTP/2 origin received its response head.
        case headArrived(CurlTransfer)
        /// A response stream queued bytes its reader has not been woken for.
        case bytesQueued(ResponseStreamBuffer)
    }

    // Unchecked (see `CurlEngineLoop`'s comment): `post` appends from libcurl's callbacks on the
    // loop thread, `drain` reads and empties it between performs, and its handler never posts.
    @exclusivity(unchecked) private(set) var pending: [Report] = []

    var isEmpty: Bool { pending.isEmpty }

    func post(_ report: Report) {
        pending.append(report)
    }

    /// Hands `body` the reports so far, oldest first; the queue is empty afterwards. `body` must
    /// not post.
    func drain(_ body: (Report) -> Void) {
        for report in pending { body(report) }
        pending.removeAll(keepingCapacity: true)
    }

    func removeAll() {
        pending.removeAll()
    }
}
