import CourierSync
import Foundation

extension CourierClock {
    /// Suspends for `delay` seconds as this clock counts them (a ``TestClock`` decides when they
    /// have passed), or until the calling task is cancelled, whichever comes first. Callers
    /// check `Task.isCancelled` afterwards to tell the two apart.
    func wait(_ delay: TimeInterval) async {
        let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
        let open: @Sendable () -> Void = {
            gate.withLock { continuation in
                continuation?.resume()
                continuation = nil
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                gate.withLock { $0 = continuation }
                if Task.isCancelled { return open() }
                schedule(after: delay, open)
            }
        } onCancel: {
            open()
        }
    }
}
