import CCurl
import CCurlShim
import Foundation

/// Time limits, enforced by the loop itself so that each fires on time whatever libcurl is
/// doing with the transfer: libcurl 7.88 checks the timeouts of a transfer queued behind its
/// connection limit only when the transfer leaves the queue (up to a second late, measured), and
/// a transfer queued in ``CurlEngineLoop/admission`` is not in libcurl at all.
///
/// The connect limit is left to libcurl (`CURLOPT_CONNECTTIMEOUT_MS`): it counts from when the
/// transfer starts connecting, not while it waits for a connection, and libcurl's own timer
/// wakes the loop for it on time. Loop thread only.
extension CurlEngineLoop {
    /// Gives `transfer` its nearest deadline in ``deadlines`` (the request limit, and for a
    /// transfer in libcurl the idle limit too), or none when it has no limit.
    func scheduleDeadline(of transfer: CurlTransfer, now: MonotonicInstant, inLibcurl: Bool) {
        var next = transfer.requestDeadline
        if inLibcurl, let idle = transfer.idleDeadline(now: now) { next = min(next ?? idle, idle) }
        if let next {
            deadlines.schedule(transfer, at: next)
        } else {
            deadlines.remove(transfer)
        }
    }

    /// Fails every transfer whose request or idle limit has passed; returns the next instant at
    /// which one will. Looks only at the deadlines that are due: an idle limit that moved on
    /// (bytes arrived since it was scheduled) is scheduled again at its new instant.
    func expireDeadlines(now: MonotonicInstant) -> MonotonicInstant? {
        // Most rounds nothing is due: one look at the queue.
        let next = deadlines.next
        guard let next, next <= now else { return next }
        while let transfer = deadlines.popDue(now: now) {
            let state = transfer.lifecycle.state
            if state == .held {
                if let deadline = transfer.requestDeadline, deadline <= now {
                    handle(transfer, .expire, result: .timedOut(.request))
                } else {
                    scheduleDeadline(of: transfer, now: now, inLibcurl: false)
                }
            } else if state.isInMulti {
                if let deadline = transfer.requestDeadline, deadline <= now {
                    expire(transfer, .request)
                } else if let deadline = transfer.idleDeadline(now: now), deadline <= now {
                    expire(transfer, .idle)
                } else {
                    scheduleDeadline(of: transfer, now: now, inLibcurl: true)
                }
            }
        }
        return deadlines.next
    }

    /// Ends a transfer in libcurl with a timeout, keeping the metrics and head seen so far; the
    /// HTTP/1.1 resend of an early HTTP/2 response ends with that response's status instead
    /// (see ``HTTP2Recovery/discardedEarlyResponse(_:)``).
    private func expire(_ transfer: CurlTransfer, _ kind: CourierError.TimeoutKind) {
        transfer.captureResponse()
        if let status = transfer.http1ResendStatus {
            transfer.deliverStatusOnly(status)
            handle(transfer, .expire, result: nil)
            return
        }
        handle(transfer, .expire, result: .timedOut(kind))
    }
}

extension CurlEngine {
    /// How long `curl_multi_poll` may wait: until the next deadline (rounded up to the next
    /// millisecond), at most a second while transfers are in flight (libcurl's own timers may
    /// wake it sooner). With nothing in flight and no deadline (`idle`), as long as poll allows:
    /// only a command (whose `curl_multi_wakeup` ends the wait) or a socket event wakes the loop.
    static func pollTimeout(until deadline: MonotonicInstant?, now: MonotonicInstant, idle: Bool) -> Int32 {
        guard let deadline else { return idle ? idleWait : 1000 }
        return Int32(max(0, min(1000, now.milliseconds(until: deadline))))
    }

    /// The wait of an idle loop: `Int32.max` milliseconds (24 days), which only a command or a
    /// socket event ends.
    static let idleWait = Int32.max
}
