import CCurl
import CCurlShim
import Foundation
import CourierSync
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The libcurl engine's handle: what sessions hold, and all of the engine that other threads can
/// reach.
///
/// The engine itself (the multi handle, the transfers, their deadlines and admission) is a
/// ``CurlEngineLoop``: created on the engine's own thread, referenced only from that thread's
/// body, and not `Sendable`, so no other thread can reach it. Other threads append commands to
/// its locked ``Inbox`` (CurlEngine+Inbox.swift, held by transfer tokens too) and call
/// `curl_multi_wakeup`, the only libcurl call made off the loop thread, under the inbox's lock
/// (the loop clears the multi pointer there before freeing it).
final class CurlEngine: Transport {
    /// The loop thread's name in `top -H`, `ps -L`, `perf` and debuggers: at most 15 bytes, all
    /// Linux keeps of a thread's name.
    static let threadName = "courier-engine"

    /// The commands for the loop; each transfer token holds it too, to cancel or resume.
    let inbox = Inbox()
    /// Whether the loop thread has stopped, and who waits for it to.
    let stopped = Locked((done: false, waiters: [CheckedContinuation<Void, Never>]()))
    /// Easy handles held by transfers (not pooled); zero whenever nothing is in flight.
    let liveHandles = Atomic<Int>(0)
    /// Rounds of the loop so far: it stays put while the loop waits (tests check that an idle
    /// engine never wakes). Written by the loop thread only.
    let rounds = Atomic<Int>(0)

    /// Creates the engine and starts its loop thread, which sets the engine up; returns once it
    /// has, or nil if libcurl cannot be initialised.
    init?(
        maxConnectionsPerHost: Int, maxTotalConnections: Int, spinsBeforeParking: Bool = true,
        cookies: Session.CookieStorage = .off
    ) {
        CurlGlobal.initializeOnce()
        let ready = DispatchSemaphore(value: 0)
        let settings = CurlEngineLoop.Settings(
            maxConnectionsPerHost: maxConnectionsPerHost, maxTotalConnections: maxTotalConnections,
            spinsBeforeParking: spinsBeforeParking, cookies: cookies)
        let thread = Thread { [self] in
            let name = Self.nameCurrentThread()
            // The loop lives in this closure's frame only: no other thread ever holds it.
            let loop = CurlEngineLoop(engine: self, settings: settings)
            inbox.withLock { box in
                box.threadName = name
                box.started = loop != nil
                box.multi = loop?.multi
                box.hasCookieJar = loop?.cookieJar != nil
                if loop == nil { box.isShutDown = true }
            }
            ready.signal()
            guard let loop else {
                markStopped()
                return
            }
            loop.run()
        }
        thread.name = Self.threadName
        thread.start()
        ready.wait()
        guard inbox.withLock({ $0.started }) == true else { return nil }
    }

    /// Stops the loop thread: in-flight transfers complete with ``CourierError/cancelled``, and
    /// later ones with ``CourierError/sessionShutDown``.
    func shutdown() {
        inbox.send(.shutdown)
    }

    /// Stops the loop thread and returns once it has completed every transfer and freed the
    /// multi handle and every easy handle.
    func shutdownAndWait() async {
        inbox.send(.shutdown)
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
        inbox.send(.cancelAll(epoch: epoch))
    }

    /// Whether the session keeps cookies (the loop set up a jar).
    var hasCookieJar: Bool { inbox.withLock { $0.hasCookieJar } }

    /// Carries out `operation` on the cookie jar on the loop thread and passes `completion` the
    /// lines it lists; at once with none when the engine has stopped (its jar was saved then).
    func requestCookieJar(_ operation: CurlCookieJar.Operation, completion: @escaping @Sendable ([String]) -> Void) {
        if !inbox.send(.cookies(CurlCookieJar.Request(operation: operation, completion: completion))) { completion([]) }
    }

    /// Gives the calling thread ``threadName`` and returns the name the system then reports.
    /// Foundation's `Thread.name` does not reach the system on Linux, and Glibc's
    /// `pthread_setname_np` is not visible to Swift: the name is written to
    /// `/proc/thread-self/comm`, where Linux keeps it.
    private static func nameCurrentThread() -> String? {
        let path = "/proc/thread-self/comm"
        let writer = open(path, O_WRONLY)
        if writer >= 0 {
            _ = threadName.utf8CString.withUnsafeBufferPointer { write(writer, $0.baseAddress, $0.count - 1) }
            close(writer)
        }
        let reader = open(path, O_RDONLY)
        guard reader >= 0 else { return nil }
        defer { close(reader) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(reader, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// The loop thread's name as the system reports it; nil until the loop runs (tests).
    var loopThreadName: String? { inbox.withLock { $0.threadName } }

    /// True once the loop thread has stopped and freed its handles (tests).
    var hasStopped: Bool { stopped.withLock { $0.done } }

    /// True while the loop waits in `curl_multi_poll` for a command (tests).
    var isWaitingForCommands: Bool { inbox.withLock { $0.loopIsWaiting } }

    // MARK: Transport

    func execute(
        _ request: HTTPRequest,
        options: consuming TransferOptions,
        completion: @escaping @Sendable (consuming TransportResult) -> Void
    ) -> any TransportCancellable {
        let token = TransferToken(inbox: inbox, request: request, options: options, completion: completion)
        if !inbox.send(.start(token)) {
            token.completeUnsent(.sessionShutDown)
        }
        return token
    }

    /// Records that the loop has stopped and wakes those waiting for it. Loop thread, last.
    func markStopped() {
        let waiters = stopped.withLock { state in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension CurlEngineLoop {
    /// A jar for `storage` on `share` (which then shares cookies), or nil when cookies are off.
    static func makeCookieJar(
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

/// Process-wide libcurl initialisation, with libcurl's memory kept by the thread that frees it
/// (Sources/CCurlShim/curl_memory.c; not when something else in the process initialized libcurl
/// first, nor under AddressSanitizer or ThreadSanitizer). `curl_global_cleanup` is never called:
/// other code in the process (FoundationNetworking) may use the same libcurl.
enum CurlGlobal {
    private static let initialized: Bool = {
        courier_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    static func initializeOnce() {
        _ = initialized
    }
}
