import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The caller's side of a transfer: what ``CurlEngine/execute(_:options:completion:)`` returns and
/// stream buffers hold to ask for more bytes. It holds no transfer state; it only sends commands
/// to the loop, which finds its ``CurlTransfer`` by the token's identity. Any thread.
final class TransferToken: TransportCancellable {
    private let engine: CurlEngine
    private let cancelRequested = Atomic<Bool>(false)

    init(engine: CurlEngine) {
        self.engine = engine
    }

    /// The identity of the transfer in the loop's tables and in ``StreamAdmission``.
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    /// Thread-safe; later calls and calls after completion do nothing.
    func cancel() {
        let (exchanged, _) = cancelRequested.compareExchange(
            expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged { engine.requestCancel(self) }
    }

    /// Asks the loop to resume `direction`, which Courier paused for backpressure. Any thread.
    func requestResume(_ direction: TransferDirection) {
        engine.requestResume(self, direction)
    }
}

/// What a caller hands the loop to start a transfer: everything the loop needs to create the
/// ``CurlTransfer`` on its own thread. A class, so that the command carrying it through the
/// inbox is one reference to copy.
final class TransferSubmission: Sendable {
    let request: HTTPRequest
    let options: TransferOptions
    let token: TransferToken
    /// When the whole request must be over (counted from submission), if it has a limit.
    let requestDeadline: MonotonicInstant?
    let completion: @Sendable (TransportResult) -> Void

    init(
        request: HTTPRequest, options: TransferOptions, token: TransferToken,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) {
        self.request = request
        self.options = options
        self.token = token
        self.completion = completion
        requestDeadline = options.requestTimeout.flatMap { limit in
            limit > 0 ? MonotonicInstant.now.adding(milliseconds: CurlTransfer.milliseconds(limit)) : nil
        }
    }

    /// Completes a request that never reached the loop (the engine had shut down): nothing was
    /// sent or received.
    func completeUnsent(_ error: CourierError) {
        var result = TransportResult(request: request, head: nil, data: Data(), metrics: nil, error: error)
        let length = Int64(request.bodyData?.count ?? 0)
        var download = TransferProgress(completedBytes: 0, totalBytes: nil)
        var upload = TransferProgress(completedBytes: 0, totalBytes: length)
        download.isFinished = true
        upload.isFinished = true
        result.transferred = TransferTotals(download: download, upload: upload)
        completion(result)
    }
}
