import CCurl
import CourierSync
import Synchronization

/// How other threads reach the loop: commands in a locked inbox (CurlEngine.swift's comment).
extension CurlEngine {
    /// What another thread asks of the loop.
    enum Command: Sendable {
        case start(TransferToken)
        case cancel(TransferToken)
        /// Unpause a direction Courier paused for backpressure (streamed bodies).
        case resume(TransferToken, TransferDirection)
        /// Cancel every transfer of a request made before the session's epoch became this one.
        case cancelAll(epoch: UInt64)
        /// Read or change the cookie jar.
        case cookies(CurlCookieJar.Request)
        case shutdown
    }

    /// What the inbox holds, under its lock.
    struct InboxState {
        var commands: [Command] = []
        var isShutDown = false
        /// The loop is in (or about to enter) `curl_multi_poll` and needs a wakeup to see commands.
        var loopIsWaiting = false
        /// The loop's multi handle, for `curl_multi_wakeup`; nil before the loop made it and after
        /// it freed it.
        var multi: UnsafeMutableRawPointer?
        /// The loop has set up (true) or could not (false); nil until then.
        var started: Bool?
        var hasCookieJar = false
        /// The loop thread's name as the system reports it (``threadName``), once it runs.
        var threadName: String?
    }

    /// The commands other threads send the loop, under a lock, with a flag the loop reads without
    /// it. Its own object, held by the engine and by every ``TransferToken``, which needs nothing
    /// else of the engine (to cancel or resume, it sends a command). A token made or dropped
    /// counts on this object, not on the engine. In W2 that read no different from retaining the
    /// engine (Benchmarks/EXPERIMENTS.md, Round 29).
    final class Inbox: Sendable {
        private let state = Locked(InboxState())
        /// True while the inbox holds commands; read without the lock by the spinning loop.
        let hasCommands = Atomic<Bool>(false)

        /// Runs `body` on the inbox's state under its lock.
        func withLock<Result>(_ body: (inout InboxState) throws -> Result) rethrows -> Result {
            try state.withLock(body)
        }

        /// Queues `command` for the loop and wakes it if it waits; false (and nothing queued) once
        /// the engine is shut down.
        @discardableResult
        func send(_ command: Command) -> Bool {
            state.withLock { box in
                guard !box.isShutDown else { return false }
                box.commands.append(command)
                hasCommands.store(true, ordering: .releasing)
                if case .shutdown = command { box.isShutDown = true }
                // A busy loop drains the inbox before it waits again, so only a waiting loop needs
                // the wakeup (a system call each).
                if box.loopIsWaiting, let multi = box.multi {
                    box.loopIsWaiting = false
                    curl_multi_wakeup(multi)
                }
                return true
            }
        }
    }
}
