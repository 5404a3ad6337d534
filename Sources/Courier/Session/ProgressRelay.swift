import Dispatch
import Foundation
import CourierSync

/// Carries progress from the engine thread to the observers of one request: closures (on a
/// serial queue each, so they see values in order) and async streams.
///
/// The engine reports at most every ``minimumInterval``; each observer is throttled to its own
/// interval on top. Values never go backwards (a redirect that sends the body again is not
/// reported until it passes the earlier count), and ``finish(download:upload:)`` sends each
/// observer one last value with `isFinished` set, exactly once.
package final class ProgressRelay: Sendable {
    private struct Observer {
        let direction: TransferDirection
        let interval: Duration
        var lastDelivery: MonotonicInstant?
        let deliver: @Sendable (TransferProgress) -> Void
        let end: (@Sendable () -> Void)?
    }

    private struct State {
        var observers: [Observer] = []
        var lastDownload: TransferProgress?
        var lastUpload: TransferProgress?
        var finished = false
    }

    private let state = Locked(State())

    package init() {}

    /// True once anyone observes; the engine only watches progress then.
    var isObserved: Bool { state.withLock { !$0.observers.isEmpty } }

    /// The shortest interval any observer asked for.
    var minimumInterval: Duration {
        state.withLock { $0.observers.map(\.interval).min() ?? .milliseconds(100) }
    }

    /// Calls `handler` on `queue` (serially, in order) with progress in `direction`.
    func observe(
        _ direction: TransferDirection, every interval: Duration, queue: DispatchQueue,
        handler: @escaping @Sendable (TransferProgress) -> Void
    ) {
        let serial = DispatchQueue(label: "courier.progress", target: queue)
        add(
            Observer(
                direction: direction, interval: interval, deliver: { value in serial.async { handler(value) } },
                end: nil))
    }

    /// An async sequence of progress in `direction` that ends after the final value. A slow
    /// reader skips to the newest value.
    func stream(_ direction: TransferDirection, every interval: Duration) -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
        add(
            Observer(
                direction: direction, interval: interval, deliver: { continuation.yield($0) },
                end: { continuation.finish() }))
        return stream
    }

    private func add(_ observer: Observer) {
        let finalValue = state.withLock { state -> TransferProgress? in
            guard state.finished else {
                state.observers.append(observer)
                return nil
            }
            let last = observer.direction == .download ? state.lastDownload : state.lastUpload
            return last ?? TransferProgress(completedBytes: 0, totalBytes: nil, isFinished: true)
        }
        if let finalValue {
            observer.deliver(finalValue)
            observer.end?()
        }
    }

    /// A new reading from the engine; observers whose interval has passed get it.
    func report(download: TransferProgress?, upload: TransferProgress?) {
        let now = MonotonicInstant.now
        let deliveries = state.withLock { state -> [(@Sendable (TransferProgress) -> Void, TransferProgress)] in
            guard !state.finished else { return [] }
            let download = Self.advance(&state.lastDownload, to: download)
            let upload = Self.advance(&state.lastUpload, to: upload)
            var deliveries: [(@Sendable (TransferProgress) -> Void, TransferProgress)] = []
            for index in state.observers.indices {
                guard let value = state.observers[index].direction == .download ? download : upload else { continue }
                if let last = state.observers[index].lastDelivery, now - last < state.observers[index].interval {
                    continue
                }
                state.observers[index].lastDelivery = now
                deliveries.append((state.observers[index].deliver, value))
            }
            return deliveries
        }
        for (deliver, value) in deliveries { deliver(value) }
    }

    /// The final values: every observer gets its direction's, then its sequence ends. Only the
    /// first call counts.
    func finish(download: TransferProgress, upload: TransferProgress) {
        let observers = state.withLock { state -> [Observer]? in
            guard !state.finished else { return nil }
            state.finished = true
            state.lastDownload = Self.finalValue(download, after: state.lastDownload)
            state.lastUpload = Self.finalValue(upload, after: state.lastUpload)
            defer { state.observers.removeAll() }
            return state.observers
        }
        guard let observers else { return }
        let (finalDownload, finalUpload) = state.withLock { ($0.lastDownload, $0.lastUpload) }
        for observer in observers {
            if let value = observer.direction == .download ? finalDownload : finalUpload { observer.deliver(value) }
            observer.end?()
        }
    }

    /// Accepts `value` when it moves forward; returns what to deliver.
    private static func advance(_ last: inout TransferProgress?, to value: TransferProgress?) -> TransferProgress? {
        guard var value else { return nil }
        if let last {
            guard
                value.completedBytes > last.completedBytes
                    || (value.completedBytes == last.completedBytes && value.totalBytes != last.totalBytes)
            else {
                return nil
            }
            if value.totalBytes == nil { value.totalBytes = last.totalBytes }
        }
        last = value
        return value
    }

    private static func finalValue(_ value: TransferProgress, after last: TransferProgress?) -> TransferProgress {
        var value = value
        value.isFinished = true
        if let last, last.completedBytes > value.completedBytes { value.completedBytes = last.completedBytes }
        if value.totalBytes == nil { value.totalBytes = last?.totalBytes }
        return value
    }
}
