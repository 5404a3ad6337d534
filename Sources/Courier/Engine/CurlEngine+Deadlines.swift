import CCurl
import CCurlShim
import Foundation

/// Time limits, enforced by the loop itself so that each fires on time whatever libcurl is
/// doing with the transfer: libcurl 7.88 checks the timeouts of a transfer queued behind its
/// connection limit only when the transfer leaves the queue (up to a second late, measured), and
/// a transfer queued in ``CurlEngine/admission`` is not in libcurl at all.
///
/// The connect limit is left to libcurl (`CURLOPT_CONNECTTIMEOUT_MS`): it counts from when the
/// transfer starts connecting, not while it waits for a connection, and libcurl's own timer
/// wakes the loop for it on time. Loop thread only.
extension CurlEngine {
    /// Fails every transfer whose request or idle limit has passed; returns the next instant at
    /// which one will.
    func expireDeadlines(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var next: ContinuousClock.Instant?
        func consider(_ instant: ContinuousClock.Instant) {
            if next.map({ instant < $0 }) ?? true { next = instant }
        }
        for transfer in held.values {
            guard let deadline = transfer.requestDeadline else { continue }
            if deadline <= now {
                dropHeld(transfer)
                transfer.finish(error: .timedOut(.request))
            } else {
                consider(deadline)
            }
        }
        for transfer in active.values {
            if let deadline = transfer.requestDeadline {
                if deadline <= now {
                    expire(transfer, .request)
                    continue
                }
                consider(deadline)
            }
            if let deadline = transfer.idleDeadline(now: now) {
                if deadline <= now {
                    expire(transfer, .idle)
                    continue
                }
                consider(deadline)
            }
        }
        return next
    }

    /// Ends an active transfer with a timeout, keeping the metrics and head seen so far; the
    /// HTTP/1.1 resend of an early HTTP/2 response ends with that response's status instead
    /// (see ``HTTP2Recovery/discardedEarlyResponse(_:)``).
    private func expire(_ transfer: CurlTransfer, _ kind: CourierError.TimeoutKind) {
        transfer.captureResponse()
        detach(transfer)
        if let status = transfer.http1ResendStatus {
            transfer.deliverStatusOnly(status)
            transfer.finish(error: nil)
            return
        }
        transfer.finish(error: .timedOut(kind))
    }

    /// How long `curl_multi_poll` may wait: until the next deadline (rounded up to the next
    /// millisecond), at most a second.
    static func pollTimeout(until deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> Int32 {
        guard let deadline else { return 1000 }
        let (seconds, attoseconds) = (deadline - now).components
        guard seconds < 1 else { return 1000 }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(max(0, min(1000, milliseconds)))
    }
}
